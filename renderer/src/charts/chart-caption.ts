import type { ChartModel } from '../../../electron/core/report/charts/chart-model.ts';

/** Beside a chart's title: its unit, "lower is better" where lower is (higher is the rule), and why this axis. */
export function chartCaption(chart: ChartModel, scaleNote: string): string {
  return `(${chart.unitLabel}${chart.direction === 'lower' ? ', lower is better' : ''}, ${scaleNote})`;
}
