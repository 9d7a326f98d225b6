// The chart types DiskDelta draws, in the order Compare and the report show them. A new chart
// is a new entry here (and the data behind it); see docs/charts.md.
import { iopsBars, latencyPercentileBars, throughputBars, workloadBars } from './bar-charts.ts';
import { cacheCurveChart } from './cache-curve-chart.ts';
import { ChartRegistry } from './chart-registry.ts';
import { blockSizeSweep, timeSeries } from './series-charts.ts';
import { discardTableChart } from './table-charts.ts';
import { sustainedWriteChart } from './sustained-charts.ts';
import { surfaceChart } from './surface-chart.ts';
import { steadyRoundsChart } from './steady-charts.ts';
import { driveCountersChart } from './drive-counters-chart.ts';

export const CHARTS = new ChartRegistry([
  throughputBars,
  iopsBars,
  blockSizeSweep,
  sustainedWriteChart,
  surfaceChart,
  steadyRoundsChart,
  workloadBars,
  discardTableChart,
  driveCountersChart,
  cacheCurveChart,
  latencyPercentileBars,
  timeSeries,
]);
