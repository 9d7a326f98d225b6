// The app's view of a bar chart model (core/report/charts/chart-model.ts): a recharts bar
// chart, one bar per run in each category, labelled with its value and its ratio to #1, on
// the axis the page's scale switch chooses. It names no chart type: the model says it all.
// There is no recharts <Legend>: the numbered, coloured list of runs above the charts is the
// legend (one for all charts, readable by screen readers), and recharts' legends re-measure
// the page on every update.
import { createElement as h, memo, useId, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis } from 'recharts';
import { formatAxisValue, type BarChartModel } from '../../../electron/core/report/charts/chart-model.ts';
import { barRows, chartDomain, chooseScale, labelRoomPx, wrapTickLabel, type BarDatum, type ScaleMode } from '../view/compare-view.ts';
import { barLabel, barShape, barWidthPx, tooltipStyle, wrappedTick } from './bar-parts.ts';
import { SERIES_COLORS } from './colors.ts';
import { chartFrame, tooltipValue } from './chart-frame.ts';
import { useWidth } from './use-width.ts';

const Y_AXIS = 80;
const HEIGHT = 300;

export const BarChartView = memo(function BarChartView({
  chart,
  labels,
  scale,
  heading = 'h2',
}: {
  chart: BarChartModel;
  labels: string[];
  scale: ScaleMode;
  heading?: 'h2' | 'h3';
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const headingId = useId();
  const data = useMemo(() => barRows(chart), [chart]);
  const keys = useMemo(() => labels.map((_, i) => `r${i}`), [labels]);
  const shapes = useMemo(() => labels.map((_, i) => barShape(i, chart.type)), [labels, chart.type]);
  const choice = useMemo(() => chooseScale(data, keys, scale), [data, keys, scale]);
  const band = width ? (width - Y_AXIS - 24) / Math.max(1, data.length) : 0;
  const tickLines = Math.max(1, ...data.map((d) => wrapTickLabel(d.title, band - 8).length));
  const plotHeight = HEIGHT - 16 - 26;
  const room = width ? labelRoomPx(data, barWidthPx(width, Y_AXIS, data.length, labels.length)) / plotHeight : 0.2;
  const tick = (v: number) => formatAxisValue(chart.valueFormat, v);
  return chartFrame(
    { chart, testId: `bars-${chart.type}`, scale: choice, heading, headingId, box, labels },
    width
      ? h(
          BarChart,
          {
            width,
            height: HEIGHT + 14 * (tickLines - 1),
            data,
            margin: { top: 8, right: 16, bottom: 8, left: 8 },
            accessibilityLayer: false,
          },
          h(CartesianGrid, { stroke: 'var(--grid)', strokeDasharray: '3 3' }),
          h(XAxis, { dataKey: 'title', stroke: 'var(--muted)', interval: 0, height: 14 * tickLines + 12, tick: wrappedTick(band - 8) }),
          h(YAxis, {
            width: Y_AXIS,
            stroke: 'var(--muted)',
            scale: choice.log ? 'log' : 'auto',
            domain: chartDomain(data, keys, choice.log, room),
            allowDataOverflow: choice.log,
            tickFormatter: tick,
          }),
          h(Tooltip, {
            formatter: (v: unknown) => tooltipValue(chart, v, tick),
            contentStyle: tooltipStyle,
            cursor: { fill: 'var(--grid)' },
          }),
          ...labels.map((label, i) =>
            h(
              Bar,
              {
                key: i,
                dataKey: `r${i}`,
                name: `#${i + 1} ${label}`,
                fill: SERIES_COLORS[i],
                isAnimationActive: false,
                shape: shapes[i],
              },
              h(LabelList, { dataKey: `r${i}`, content: barLabel(data, i) }),
            ),
          ),
        )
      : null,
    h(Bases, { chart, data }),
  );
});

/** What each bar stands on (a workload's passes and their range), per run, under the chart. */
function Bases({ chart, data }: { chart: BarChartModel; data: BarDatum[] }) {
  const rows = data.filter((d) => d.bases?.some(Boolean));
  if (rows.length === 0) return null;
  return h(
    'dl',
    { className: 'pass-ranges', 'data-testid': `bases-${chart.type}` },
    ...rows.map((d) =>
      h(
        'div',
        { key: d.title },
        h('dt', null, d.title),
        ...d.bases!.map((basis, i) =>
          basis
            ? h(
                'dd',
                { key: i, 'data-run': i },
                h('span', { className: 'swatch', style: { background: SERIES_COLORS[i] } }, `#${i + 1}`),
                ' ',
                `${d.labels[i]?.value}: ${basis}`,
              )
            : null,
        ),
      ),
    ),
  );
}
