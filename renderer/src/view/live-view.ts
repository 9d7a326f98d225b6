// The Live run page's figures, derived from the runs slice.
import { testTitle } from '../../../electron/core/model/catalog.ts';
import type { LiveRun, LiveSample } from '../stores/runs.ts';

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

export type TestState = 'done' | 'running' | 'waiting';

export function testStates(run: LiveRun): Array<{ test: string; title: string; state: TestState }> {
  const p = run.progress;
  return run.tests.map((test, i) => {
    const finished = run.status === 'done' || (p !== null && i < run.tests.length - 1);
    return {
      test,
      title: testTitle(test),
      state: finished ? 'done' : run.status === 'running' || run.status === 'cancelling' ? 'running' : 'waiting',
    };
  });
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
    return last ? `${s.title}: ${last.mbps.toFixed(1)} MB/s at ${last.tSec} s` : s.title;
  });
  return `Throughput over time, one line per test. ${lines.join('; ')}`;
}
