// The Live run page's figures, derived from the runs slice.
import { testTitle } from '../../../electron/shared/model/catalog.ts';
import { formatNumber, groupedDecimals } from '../../../electron/shared/analysis/units.ts';
import type { LiveRun, LiveSample } from '../stores/runs.ts';
import { AUTO_LOG_SPREAD } from '../../../electron/shared/charts/chart-scale.ts';
import { SERIES_COLORS } from '../../../electron/shared/charts/colors.ts';
import { SERIES_DASHES } from '../../../electron/shared/charts/chart-model.ts';

export interface LiveChartSeries {
  test: string;
  title: string;
  points: Array<{ tSec: number; mbps: number }>;
}

/** One line per test (each test's clock starts at its own timed window), run 1 … n laid end to end. */
export function liveSeries(samples: LiveSample[]): LiveChartSeries[] {
  const byTest = new Map<string, LiveChartSeries>();
  const offsets = new Map<string, { run: number; offset: number; last: number }>();
  for (const s of samples) {
    let series = byTest.get(s.test);
    if (!series) {
      series = { test: s.test, title: testTitle(s.test), points: [] };
      byTest.set(s.test, series);
    }
    let o = offsets.get(s.test);
    if (!o) {
      o = { run: s.run, offset: 0, last: 0 };
      offsets.set(s.test, o);
    }
    if (s.run !== o.run) {
      o.offset = o.last;
      o.run = s.run;
    }
    const t = o.offset + s.tMs / 1000;
    o.last = t;
    series.points.push({ tSec: Number(t.toFixed(3)), mbps: s.bytesPerSec / 1e6 });
  }
  return [...byTest.values()];
}

/** A test's place in the run; a run that stopped leaves the test it stopped in 'cancelled' or 'failed'. */
export type TestState = 'done' | 'running' | 'cancelled' | 'failed';

export function testStates(run: LiveRun): Array<{ test: string; title: string; state: TestState }> {
  const p = run.progress;
  const going = run.status === 'running' || run.status === 'cancelling';
  return run.tests.map((test, i) => {
    const finished = run.status === 'done' || (p !== null && i < run.tests.length - 1);
    return {
      test,
      title: testTitle(test),
      state: finished ? 'done' : going ? 'running' : run.status === 'failed' ? 'failed' : 'cancelled',
    };
  });
}

/** Where a cancelled or failed run stopped, in words (its bar is gone: it no longer measures progress). */
export function stoppedText(run: LiveRun): string | null {
  if (run.status !== 'cancelled' && run.status !== 'failed') return null;
  const p = run.progress;
  const how = run.status === 'cancelled' ? 'Cancelled' : 'Failed';
  if (!p) return `${how} before the first test.`;
  const where = p.test
    ? `during ${testTitle(p.test)} (test ${p.testIndex + 1} of ${p.testCount})`
    : `while ${p.phase === 'cleanup' ? 'cleaning up' : 'preparing'}`;
  return `${how} ${where}, ${Math.round(p.fraction * 100)} % of the way through the run.`;
}

export function latestSample(run: LiveRun): LiveSample | null {
  return run.samples.at(-1) ?? null;
}

const ENDED = { done: 'Run finished', cancelled: 'Run cancelled', failed: 'Run failed' } as const;

/**
 * What the Live run page's polite live region says: the test and its phase, or how the run
 * ended. It holds no percent or ETA, so it changes when the test or the phase does, not ten
 * times a second (a screen reader reads out every change of a live region).
 */
export function runAnnouncement(run: LiveRun): string {
  if (run.status === 'done' || run.status === 'cancelled' || run.status === 'failed') return ENDED[run.status];
  const p = run.progress;
  const cancelling = run.status === 'cancelling' ? 'Cancelling · ' : '';
  if (!p) return `${cancelling}Starting`;
  if (!p.test) return `${cancelling}${p.phase}`;
  return `${cancelling}${testTitle(p.test)} (test ${p.testIndex + 1} of ${p.testCount}) · ${p.phase}${p.run > 0 ? `, run ${p.run} of ${p.runs}` : ''}`;
}

/** The live chart's name for a screen reader: each test's line in words, with its latest figure. */
export function liveChartName(series: LiveChartSeries[]): string {
  const lines = series.map((s) => {
    const last = s.points.at(-1);
    return last ? `${s.title}: ${groupedDecimals(last.mbps, 1)} MB/s at ${last.tSec} s` : s.title;
  });
  return `Throughput over time, one line per test. ${lines.join('; ')}`;
}

/** The live chart's value axis: linear from zero, or log where the tests' levels are far apart. */
export interface LiveScale {
  log: boolean;
  /** Said beside the chart's title: which axis and why. */
  note: string;
  domain: [number, number | 'auto'];
}

/**
 * A linear axis drew a 0.6 MB/s test flat on zero beside a 40 MB/s one (issue 27): where the
 * tests' typical levels (their medians) are ×AUTO_LOG_SPREAD apart or more, the axis is log,
 * the rule Compare's charts follow. Its floor is a power of ten at most half the lowest sample,
 * so every line stays visibly off it; a sample of 0 is drawn on the floor (clampToFloor).
 */
export function liveScale(series: LiveChartSeries[]): LiveScale {
  const medians = series.flatMap((s) => {
    const values = s.points
      .map((p) => p.mbps)
      .filter((v) => v > 0)
      .sort((a, b) => a - b);
    return values.length > 0 ? [values[Math.floor(values.length / 2)]!] : [];
  });
  const spread = medians.length > 1 ? Math.max(...medians) / Math.min(...medians) : 1;
  if (spread < AUTO_LOG_SPREAD) return { log: false, note: 'linear scale', domain: [0, 'auto'] };
  const values = series.flatMap((s) => s.points.map((p) => p.mbps)).filter((v) => v > 0);
  const floor = 10 ** Math.floor(Math.log10(Math.min(...values) / 2));
  const top = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  return { log: true, note: `log scale: the tests' levels span ×${formatNumber(Math.round(spread))}`, domain: [floor, top] };
}

/** On a log axis, a sample of 0 (a stall) on the floor, where it can be drawn. */
export function clampToFloor(series: LiveChartSeries[], scale: LiveScale): LiveChartSeries[] {
  if (!scale.log) return series;
  const floor = scale.domain[0];
  return series.map((s) => ({ ...s, points: s.points.map((p) => (p.mbps < floor ? { ...p, mbps: floor } : p)) }));
}

/**
 * Each test's line on the live chart: a colour and a dash, by the order the tests started.
 * Eight dashes (the grid's eight tests each its own, in greyscale too) against six colours: no
 * two of the first 24 lines look alike. The legend draws its swatches with the same.
 */
export const LIVE_DASHES = [...SERIES_DASHES, '1 3', '14 4 4 4'];
export function liveLineStyle(index: number): { stroke: string; dash: string } {
  return { stroke: SERIES_COLORS[index % SERIES_COLORS.length]!, dash: LIVE_DASHES[index % LIVE_DASHES.length]! };
}
