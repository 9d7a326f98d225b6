// The app's view of a series chart model: one recharts line per run over the model's x axis
// (block size on a log2 axis, time, bytes written, cache size), the value axis on the scale
// the page's switch chooses, so an HDD's line beside an SSD's stays off the floor.
import { createElement as h, memo, useId, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { axisPosition, formatAxisValue, SERIES_DASHES, type SeriesChartModel } from '../../../electron/core/report/charts/chart-model.ts';
import { logTicks, seriesXAxis } from '../view/axis-ticks.ts';
import { chooseScale, logDomain, type ScaleMode } from '../view/compare-view.ts';
import { chartFrame, tooltipStyle, tooltipValue } from './chart-frame.ts';
import { SERIES_COLORS } from './colors.ts';
import { useWidth } from './use-width.ts';

const Y_AXIS = 100;
const MARGIN = { top: 8, right: 24, bottom: 8, left: 8 };

export const SeriesChartView = memo(function SeriesChartView({
  chart,
  labels,
  scale,
  heading = 'h2',
}: {
  chart: SeriesChartModel;
  labels: string[];
  scale: ScaleMode;
  heading?: 'h2' | 'h3';
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const headingId = useId();
  const { x } = chart;
  // recharts' own log scale is base 10; a log2 axis is drawn as positions log2(x), labelled with x.
  const lines = useMemo(
    () => chart.lines.map((l) => ({ ...l, data: l.points.map((p) => ({ x: axisPosition(x.scale, p.x), y: p.y })) })),
    [chart.lines, x.scale],
  );
  const points = useMemo(() => lines.flatMap((l) => l.data), [lines]);
  const choice = useMemo(() => chooseScale(points, ['y'], scale), [points, scale]);
  const yDomain = choice.log ? logDomain(points, ['y']) : null;
  const xLabel = (pos: number) => formatAxisValue(x.format, x.scale === 'log2' ? 2 ** pos : pos);
  // The ticks that fit the drawn width, whole (at 390 px a sweep's 18 sizes ran into one string).
  const xAxis = seriesXAxis(
    x,
    points.map((p) => p.x),
    width ? width - MARGIN.left - MARGIN.right - Y_AXIS : 0,
    xLabel,
  );
  const yLabel = (v: number) =>
    chart.valueFormat === 'number' ? `${formatAxisValue('number', v)} ${chart.unitLabel}` : formatAxisValue(chart.valueFormat, v);
  return chartFrame(
    { chart, testId: `series-${chart.type}`, scale: choice, heading, headingId, box, labels },
    width
      ? h(
          LineChart,
          { width, height: 260, margin: MARGIN, accessibilityLayer: false },
          h(CartesianGrid, { stroke: 'var(--grid)', strokeDasharray: '3 3' }),
          h(XAxis, {
            type: 'number',
            dataKey: 'x',
            stroke: 'var(--muted)',
            domain: xAxis.domain,
            allowDataOverflow: x.domain !== undefined,
            ticks: xAxis.ticks,
            interval: 0,
            tickFormatter: xLabel,
            allowDuplicatedCategory: false,
            tick: { fontSize: 11 },
          }),
          h(YAxis, {
            width: Y_AXIS,
            stroke: 'var(--muted)',
            scale: choice.log ? 'log' : 'auto',
            domain: yDomain ?? [0, 'auto'],
            ...(yDomain ? { ticks: logTicks(...yDomain), interval: 0 } : {}),
            allowDataOverflow: choice.log,
            tickFormatter: yLabel,
          }),
          h(Tooltip, {
            formatter: (v: unknown) => tooltipValue(chart, v, yLabel),
            labelFormatter: (pos: unknown) => `${x.label} ${xLabel(Number(pos))}`,
            contentStyle: tooltipStyle,
            cursor: { fill: 'var(--grid)' },
          }),
          ...lines.map((l) =>
            h(Line, {
              key: l.runIndex,
              data: l.data,
              dataKey: 'y',
              name: `#${l.runIndex + 1} ${labels[l.runIndex] ?? ''}`,
              stroke: SERIES_COLORS[l.runIndex],
              strokeDasharray: SERIES_DASHES[l.runIndex % SERIES_DASHES.length],
              strokeWidth: 2,
              dot: chart.markers ? { r: 3, fill: SERIES_COLORS[l.runIndex] } : false,
              isAnimationActive: false,
            }),
          ),
        )
      : null,
    chart.note ? h('p', { className: 'muted chart-note' }, chart.note) : null,
  );
});
