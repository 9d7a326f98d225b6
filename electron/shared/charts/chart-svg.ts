// The one drawing of a bar or series chart model, used by the app (chart-view.ts, at its box's
// measured width, on the scale the page's switch chooses) and by the report (report-chart.ts,
// at the paper's width, on 'auto'): same model, width and scale, same SVG. A test compares them.
import { createElement as h, type ReactElement } from 'react';
import type { ChartModel } from './chart-model.ts';
import { BarsSvg } from './bar-svg.ts';
import { SeriesSvg } from './series-svg.ts';

export type DrawnChart = Exclude<ChartModel, { shape: 'table' }>;

export function ChartSvg({
  chart,
  labels,
  width,
  log,
}: {
  chart: DrawnChart;
  labels: string[];
  width: number;
  log: boolean;
}): ReactElement {
  return chart.shape === 'bars' ? h(BarsSvg, { chart, labels, width, log }) : h(SeriesSvg, { chart, labels, width, log });
}
