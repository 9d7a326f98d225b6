// The access recorder's trace (native/src/access-recorder.c, worker verb `record`) read back into
// what a run keeps: the distinct bytes touched over time and the LRU miss-ratio curve
// (lru-curve.ts) of the files' reads and writes: "a 256 GB cache would have served 97 % of the
// bytes read in these 9 days". A touch is a record whose kinds include a read (r) or a write
// (w); an open alone moved no data, so it is no access. A touch kept without a size (recorded
// by an older DiskDelta through the helper, which sized files through the folders it could walk)
// is counted and left out of the curve, and said. An "s" line amends a file's last touch: the
// size the recorder saw it reach under the writes merged into that touch.
//
// Pure: the renderer bundles the reading-back half (curveOfResult).
import type { Figure, TestResult } from '../model/results.ts';
import { lruCurve, LruCurveBuilder, type Access, type LruCurve } from './lru-curve.ts';
import { formatCount } from './units.ts';

export const ACCESS_CURVE_TEST = 'access-curve';

export interface TimedAccess extends Access {
  t: number;
}

export interface TraceSummary {
  fsid: string;
  fs: string;
  sessions: number;
  /** Sessions that ended cleanly (an "end" line): fewer than sessions means one was killed or is running. */
  ended: number;
  /** First session start and last line's time, ms since the epoch. */
  startMs: number;
  endMs: number;
  /** Seconds recorded: each session from its start to its end (or last line). */
  recordedSeconds: number;
  /** Reads and writes with a size: the curve's trace. */
  touches: number;
  /** Each file once, at its last size. */
  distinctBytes: number;
  /** Touches without a size (an older recorder's, of files outside the folders it could walk). */
  unsized: number;
  /** Times the kernel's queue overflowed (events lost, how many unknown). */
  lost: number;
  /** Lines that are not a trace's (a torn last line after a crash, zeros a crash left). */
  damaged: number;
}

type Line = Record<string, unknown>;

/**
 * A trace's lines, one at a time, → its summary, or why it is not a DiskDelta trace. Each read
 * or write with a size goes to onAccess, in the order it happened. Holds one entry per distinct
 * file, never the trace: a recording of days is read as a stream.
 */
export function summarizeTrace(
  lines: Iterable<string>,
  onAccess: (access: TimedAccess) => void = () => {},
): TraceSummary | { reason: string } {
  let header: Line | null = null;
  const summary: TraceSummary = {
    fsid: '',
    fs: '',
    sessions: 0,
    ended: 0,
    startMs: Number.NaN,
    endMs: Number.NaN,
    recordedSeconds: 0,
    touches: 0,
    distinctBytes: 0,
    unsized: 0,
    lost: 0,
    damaged: 0,
  };
  const lastSize = new Map<string, number>();
  let sessionStart: number | null = null;
  let last = Number.NaN;
  const closeSession = (at: number) => {
    if (sessionStart !== null) summary.recordedSeconds += Math.max(0, at - sessionStart) / 1000;
    sessionStart = null;
  };
  let first = true;
  for (const text of lines) {
    if (text === '') continue;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      if (first) return { reason: 'its first line is not a DiskDelta trace header' };
      summary.damaged += 1;
      continue;
    }
    if (first) {
      first = false;
      if (line.type !== 'trace' || typeof line.fsid !== 'string') return { reason: 'its first line is not a DiskDelta trace header' };
      header = line;
      continue;
    }
    const t = typeof line.t === 'number' ? line.t : Number.NaN;
    if (Number.isFinite(t)) last = t;
    if (line.type === 'session') {
      closeSession(last);
      sessionStart = t;
      summary.sessions += 1;
      if (!Number.isFinite(summary.startMs)) summary.startMs = t;
    } else if (line.type === 'end') {
      summary.ended += 1;
      closeSession(t);
    } else if (line.type === 'lost') summary.lost += 1;
    else if (typeof line.f === 'string' && typeof line.k === 'string' && Number.isFinite(t)) {
      if (line.k === 's') {
        // The file's last touch, seen later at this size (a file that grew under merged writes).
        const before = lastSize.get(line.f);
        if (typeof line.s === 'number' && before !== undefined) {
          summary.distinctBytes += line.s - before;
          lastSize.set(line.f, line.s);
          onAccess({ key: line.f, bytes: line.s, t, amends: true });
        }
        continue;
      }
      if (!/[rw]/.test(line.k)) continue;
      if (typeof line.s === 'number') {
        summary.touches += 1;
        summary.distinctBytes += line.s - (lastSize.get(line.f) ?? 0);
        lastSize.set(line.f, line.s);
        onAccess({ key: line.f, bytes: line.s, t });
      } else summary.unsized += 1;
    } else summary.damaged += 1;
  }
  if (!header) return { reason: 'it is empty' };
  closeSession(last);
  summary.fsid = header.fsid as string;
  summary.fs = typeof header.fs === 'string' ? header.fs : '';
  summary.endMs = last;
  return summary;
}

/** A small trace held in memory (tests, examples): its summary and every access. */
export function parseTrace(text: string): (TraceSummary & { accesses: TimedAccess[] }) | { reason: string } {
  const accesses: TimedAccess[] = [];
  const summary = summarizeTrace(text.split('\n'), (a) => accesses.push(a));
  return 'reason' in summary ? summary : { ...summary, accesses };
}

/**
 * A trace of any length, read twice as a stream (`lines` opens it again each time): the summary
 * first, for the cache sizes the curve is told at, then the curve. Memory grows with the
 * distinct files, not with the touches.
 */
export function streamTraceCurve(lines: () => Iterable<string>): { summary: TraceSummary; curve: LruCurve } | { reason: string } {
  const summary = summarizeTrace(lines());
  if ('reason' in summary) return summary;
  const builder = new LruCurveBuilder(curveSizes(summary.distinctBytes));
  summarizeTrace(lines(), (a) => builder.add(a));
  return { summary, curve: builder.result() };
}

/** Each step where the distinct bytes changed: [ms since the first access, distinct bytes so far]. */
export function distinctBytesOverTime(accesses: readonly TimedAccess[]): Array<{ tMs: number; bytes: number }> {
  const size = new Map<string, number>();
  let total = 0;
  const points: Array<{ tMs: number; bytes: number }> = [];
  const t0 = accesses[0]?.t ?? 0;
  for (const a of accesses) {
    total += a.bytes - (size.get(a.key) ?? 0);
    size.set(a.key, a.bytes);
    const point = { tMs: a.t - t0, bytes: total };
    if (points.at(-1)?.tMs === point.tMs) points[points.length - 1] = point;
    else points.push(point);
  }
  return points;
}

/**
 * The cache sizes the curve is told at: powers of two from 4 KiB to the first that holds every
 * distinct byte (where the curve is flat), and the sizes SSDs are sold in below that.
 */
export function curveSizes(distinctBytes: number): number[] {
  const sizes = new Set<number>();
  let size = 4096;
  for (; size < distinctBytes; size *= 2) sizes.add(size);
  sizes.add(size);
  for (const gb of [32, 64, 120, 128, 240, 256, 480, 500, 512, 1000, 2000, 4000]) if (gb * 1e9 < size) sizes.add(gb * 1e9);
  return [...sizes].sort((a, b) => a - b);
}

export function traceCurve(summary: TraceSummary & { accesses: readonly Access[] }): LruCurve {
  return lruCurve(summary.accesses, curveSizes(summary.distinctBytes));
}

/** The figures an access-curve run keeps: the totals, and the bytes each cache size would have served. */
export function accessCurveFigures(summary: TraceSummary, curve: LruCurve, basis: string): Figure[] {
  const figure = (metric: string, subject: string, value: number, unit: Figure['unit']): Figure => ({
    metric,
    subject,
    value,
    unit,
    provenance: 'measured',
    basis,
  });
  return [
    figure('accessedBytes', '', curve.accessedBytes, 'bytes'),
    figure('distinctBytes', '', curve.distinctBytes, 'bytes'),
    figure('touchCount', '', curve.accesses, 'count'),
    figure('unsizedTouches', '', summary.unsized, 'count'),
    figure('recordedSeconds', '', summary.recordedSeconds, 's'),
    // The curve is a model over the measured trace (what an LRU cache would have served), so estimated.
    ...curve.points.map((p) => ({
      ...figure('cacheServedBytes', String(p.cacheBytes), p.hitRatio * curve.accessedBytes, 'bytes'),
      provenance: 'estimated' as const,
    })),
    // The touches each size would have served: the rest went to the disk, one access each (the
    // replay forecast, analysis/replay-forecast.ts). A run kept before this has only the bytes.
    ...curve.points.flatMap((p) =>
      p.hitTouches === undefined
        ? []
        : [{ ...figure('cacheServedTouches', String(p.cacheBytes), p.hitTouches, 'count'), provenance: 'estimated' as const }],
    ),
  ];
}

export interface KeptCurve {
  accessedBytes: number;
  distinctBytes: number;
  touches: number;
  unsized: number;
  recordedSeconds: number;
  curve: LruCurve;
}

/** A kept access-curve result read back (the chart, the report, `diskdelta show`); null for another test. */
export function curveOfResult(result: Pick<TestResult, 'test' | 'figures'>): KeptCurve | null {
  if (result.test !== ACCESS_CURVE_TEST || !result.figures) return null;
  const figures = result.figures;
  const value = (metric: string) => figures.find((f) => f.metric === metric && f.subject === '')?.value ?? 0;
  const accessedBytes = value('accessedBytes');
  const servedTouches = new Map(
    figures.filter((f) => f.metric === 'cacheServedTouches' && f.value !== null).map((f) => [f.subject, f.value!] as const),
  );
  const points = figures
    .filter((f) => f.metric === 'cacheServedBytes' && f.value !== null)
    .map((f) => {
      const hitTouches = servedTouches.get(f.subject);
      const hitRatio = accessedBytes > 0 ? f.value! / accessedBytes : 0;
      return { cacheBytes: Number(f.subject), hitRatio, ...(hitTouches === undefined ? {} : { hitTouches }) };
    })
    .sort((a, b) => a.cacheBytes - b.cacheBytes);
  return {
    accessedBytes,
    distinctBytes: value('distinctBytes'),
    touches: value('touchCount'),
    unsized: value('unsizedTouches'),
    recordedSeconds: value('recordedSeconds'),
    curve: { accesses: value('touchCount'), accessedBytes, distinctBytes: value('distinctBytes'), points },
  };
}

/** The recording's span in words: "9 days", "5 hours", "40 minutes", "50 seconds". */
function span(seconds: number): string {
  if (seconds >= 1.5 * 86_400) return `${Math.round(seconds / 86_400)} days`;
  if (seconds >= 1.5 * 3600) return `${Math.round(seconds / 3600)} hours`;
  if (seconds >= 90) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.round(seconds)} seconds`;
}

/**
 * The answer in words: the distinct bytes, and the smallest cache size told that serves at least
 * 95 % of the bytes touched, or (when first touches alone are more than 5 %) what one that holds
 * every distinct byte would have served.
 */
export function curveVerdict(kept: KeptCurve, size: (bytes: number) => string): string {
  const { curve } = kept;
  if (kept.touches === 0)
    return `No file was read or written on this filesystem in these ${span(kept.recordedSeconds)} (that the recorder could size).`;
  const pct = (r: number) => `${(r * 100).toFixed(r >= 0.995 || r < 0.01 ? 1 : 0)} %`;
  const enough = curve.points.find((p) => p.hitRatio >= 0.95);
  const best = curve.points.at(-1);
  const head = `In these ${span(kept.recordedSeconds)} you read or wrote ${size(kept.distinctBytes)} of distinct files (${size(kept.accessedBytes)} in all, ${formatCount(kept.touches)} touches)`;
  // The largest size told holds every distinct byte: what it misses are first touches, which miss at any size.
  const served = enough
    ? `a ${size(enough.cacheBytes)} cache would have served ${pct(enough.hitRatio)} of those bytes`
    : best
      ? `a cache that holds them all (${size(best.cacheBytes)}) would have served ${pct(best.hitRatio)} of those bytes: the rest were first touches, which miss at any size`
      : '';
  const unsized =
    kept.unsized === 1
      ? ' 1 touch kept without a size is not counted.'
      : kept.unsized > 1
        ? ` ${formatCount(kept.unsized)} touches kept without a size are not counted.`
        : '';
  return `${head}; ${served}.${unsized}`;
}
