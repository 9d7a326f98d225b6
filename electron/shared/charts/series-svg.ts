// A series chart model (shared/charts/chart-model.ts) drawn as SVG at a given width: one
// line per run over the model's x axis (block size on a log2 axis, time, bytes written, cache
// size), the value axis on the scale chart-scale.ts chose, so an HDD's line beside an SSD's
// stays off the floor. The app and the report draw this same element (line-plot.ts draws it).
import { createElement as h, type ReactElement } from 'react';
import { axisPosition, formatAxisValue, SERIES_DASHES, type SeriesChartModel } from './chart-model.ts';
import { logTicks, niceTicks, seriesXAxis } from './axis-ticks.ts';
import { logDomain } from './chart-scale.ts';
import { SERIES_COLORS } from './colors.ts';
import { LinePlot, plotWidth, type PlotAxes } from './line-plot.ts';

const PLOT_HEIGHT = 200;

/** A value as the value axis and the hover say it: a plain number with the chart's unit, any other in its format. */
export const seriesValueText = (chart: SeriesChartModel) => (v: number) =>
  chart.valueFormat === 'number' ? `${formatAxisValue('number', v)} ${chart.unitLabel}` : formatAxisValue(chart.valueFormat, v);

export function SeriesSvg({
  chart,
  labels,
  width,
  log,
}: {
  chart: SeriesChartModel;
  labels: string[];
  width: number;
  log: boolean;
}): ReactElement {
  const { x } = chart;
  const lines = chart.lines.map((l) => ({ ...l, points: l.points.map((p) => ({ x: axisPosition(x.scale, p.x), y: p.y })) }));
  // A mark's band counts as points too: the axis holds it whole.
  const marks = chart.marks ?? [];
  const points = [
    ...lines.flatMap((l) => l.points),
    ...marks.flatMap((m) => (m.band ?? []).map((y) => ({ x: axisPosition(x.scale, m.x[0]), y }))),
  ];
  const yDomain: [number, number] = log ? logDomain(points, ['y']) : [0, niceTicks(Math.max(0, ...points.map((p) => p.y))).at(-1)!];
  const yTicks = log ? logTicks(...yDomain) : niceTicks(yDomain[1]);
  const yLabel = seriesValueText(chart);
  const xLabel = (pos: number) => formatAxisValue(x.format, x.scale === 'log2' ? 2 ** pos : pos);
  // The ticks that fit the drawn width, whole (at 390 px a sweep's 18 sizes ran into one string).
  const xAxis = seriesXAxis(
    x,
    points.map((p) => p.x),
    plotWidth(width, yTicks.map(yLabel)),
    xLabel,
  );
  const axes: PlotAxes = {
    x: { domain: xAxis.domain, ticks: xAxis.ticks, label: xLabel, title: x.label },
    y: { log, domain: yDomain, ticks: yTicks, label: yLabel },
  };
  return h(LinePlot, {
    width,
    plotHeight: PLOT_HEIGHT,
    axes,
    className: 'series-chart',
    marks: marks.map((m, i) => ({
      key: i,
      from: axisPosition(x.scale, m.x[0]),
      to: axisPosition(x.scale, m.x[1]),
      fill: SERIES_COLORS[m.runIndex % SERIES_COLORS.length]!,
      tag: m.tag,
      title: m.label,
      band: m.band,
      fit: m.fit,
      met: m.met,
      attrs: { 'data-testid': 'series-span', 'data-run': m.runIndex },
    })),
    lines: lines.map((l) => ({
      key: l.runIndex,
      points: l.points,
      stroke: SERIES_COLORS[l.runIndex % SERIES_COLORS.length]!,
      dash: SERIES_DASHES[l.runIndex % SERIES_DASHES.length]!,
      markers: chart.markers,
      name: `#${l.runIndex + 1} ${labels[l.runIndex] ?? ''}`,
      attrs: { 'data-testid': 'series-line', 'data-run': l.runIndex },
    })),
  });
}
