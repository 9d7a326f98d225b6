// A recorded day replayed as a total time (issue #42 scope 3): from the newest access-curve run
// (the recorder's LRU curve, access-trace.ts), the share of a recorded day's file I/O the page
// cache would NOT have served at this machine's RAM, and the time that share takes on the disk in
// use today and on each candidate. Estimated, never measured; its disk half is checked in the
// lab (REPLAY_LAB), its cache half is not measured in the lab, and every output says both.
//
// THE MODEL (docs/forecast.md › A recorded day replayed says it for users)
//
//   The curve says, per cache size C, the bytes and the touches (whole-file reads or writes) an
//   LRU cache of C bytes would have served. The page cache is taken as an LRU cache of the RAM:
//       hit(RAM) = linear between the two curve points around the RAM (the LRU curve only grows
//                  with the size, so the true hit lies between those two points: that is its range)
//   The programs hold part of the RAM, so the range reaches down to a cache of half the RAM.
//   What the cache misses goes to the disk, per recorded day (days = recordedSeconds / 86,400):
//       stream = missed bytes / sequential read,  accesses = missed touches × 4 KiB / 4K read at QD1
//       today's disk:  stream + accesses       (an HDD's one head seeks, then reads)
//       a candidate:   max(stream, accesses)   (readahead and several programs overlap them, as
//                                               the workload model takes; the lab's cold read
//                                               on a throttled device agrees: docs/forecast.md)
//       range  : both disks adding and overlapping, and the misses at both ends of their range.
//   The gain is today's time ÷ the candidate's; its range every pair of cases with the same misses.
//
//   Assumes: one page cache over the whole recording (a reboot empties it; the curve does not
//   know); whole files (the recorder sees opens, not byte ranges: a file read in part counts
//   whole); writes are counted as reads would be (the recording does not split them: a written
//   file's bytes go at the sequential read rate, one 4K read access each).
//
// Pure: the renderer may bundle it.
import type { RunRecord } from '../model/results.ts';
import { ACCESS_CURVE_TEST, curveOfResult, type KeptCurve } from './access-trace.ts';
import type { DriveFigures } from './candidate.ts';
import { formatCount } from './units.ts';
import { formatDiskSize } from './working-set.ts';

/**
 * The replay's accuracy as measured in the lab (e2e/forecast-lab.test.ts, docs/forecast.md ›
 * Accuracy): only its disk half, a cold cache's misses on a candidate (the recorder's trace of
 * 204 files read once, forecast from the spec sheet of a throttled loop device, then read cold
 * there), forecast ÷ measured per lab run. Its cache half (the page cache at this machine's
 * RAM) and today's disk (adding) are not measured in the lab. The workload lab's figures are not
 * this model's. Re-measure: `npm test -- --only e2e/forecast-lab`, as root.
 */
export const REPLAY_LAB = {
  measuredAt: '2026-12-06',
  checked: 'a cold read of 204 recorded files (45 MB) on a throttled loop device (120 MB/s, 1,000 IOPS) forecast from its spec sheet',
  forecastOverMeasured: [0.873, 0.888, 0.892, 0.894, 0.894],
  notChecked: "the page cache at this machine's RAM (the curve's half) and today's disk",
} as const;

const labRatios = REPLAY_LAB.forecastOverMeasured;
/** What the output says of the replay's accuracy: its disk half measured, its cache half "not measured in the lab". */
export const REPLAY_ACCURACY = `the replay's disk half measured in the lab (${REPLAY_LAB.measuredAt}): forecast ÷ measured ${Math.min(...labRatios)} to ${Math.max(...labRatios)} over ${labRatios.length} runs for ${REPLAY_LAB.checked}; not measured in the lab: ${REPLAY_LAB.notChecked}`;

/** The command that records a day, said when the library holds none (docs/recorder.md). */
export const RECORD_HINT = 'diskdelta record ~/ --for 1d';

const DAY = 86_400;
const ACCESS_BYTES = 4096;

/** A figure with its range: `value` the model's central case, `low`..`high` every case it weighs. */
export interface Ranged {
  value: number;
  low: number;
  high: number;
}

export interface RecordedDay {
  runId: number | null;
  label: string;
  /** When the recording started and ended (its run's createdAt and finishedAt; null: not kept). */
  from: string;
  to: string | null;
  recordedSeconds: number;
  days: number;
  ramBytes: number;
  /** Where the RAM size was read: the recording's run, or the current disk's run. */
  ramFrom: string;
  /** Per recorded day, every touch (the cache's and the disk's). */
  accessedBytesPerDay: number;
  touchesPerDay: number;
  /** Per recorded day, what the page cache would not have served. */
  diskBytesPerDay: Ranged;
  diskTouchesPerDay: Ranged;
  /** How the hit at the RAM's size was read off the curve, in words. */
  cacheHow: string;
  /** The run keeps no count of touches served (an older DiskDelta): they are taken in the bytes' share. */
  touchesEstimated: boolean;
  /** What the reader must know: writes counted as reads, touches without a size, touches estimated. */
  notes: string[];
  sentence: string;
}

export interface DiskReplay extends Ranged {
  /** Seconds per recorded day, the streaming part and the accesses (central case). */
  streamSeconds: number;
  accessSeconds: number;
}

export type ReplayOnDisk = DiskReplay | { why: string };
export type CandidateReplay = (DiskReplay & { gain: Ranged | null }) | { why: string };

export interface ReplayForecast {
  provenance: 'estimated';
  /** The recorded day, or why none is replayed (no recording, under a day, no RAM size, nothing touched). */
  recorded: RecordedDay | { sentence: string };
  today: ReplayOnDisk | null;
  candidates: CandidateReplay[];
  accuracy: string;
}

/**
 * The hit ratio and the touches served at a cache of `size` bytes, with their range: linear
 * between the two curve points around it, bounded by them (an LRU cache serves at least what any
 * smaller one does). Past the largest point: the curve is flat there when that point holds every
 * distinct byte; else all that is known is that first touches miss at any size.
 */
export function hitAt(kept: KeptCurve, size: number): { ratio: Ranged; touches: Ranged | null; how: string } {
  const points = kept.curve.points;
  const below = points.filter((p) => p.cacheBytes <= size).at(-1) ?? null;
  const above = points.find((p) => p.cacheBytes >= size) ?? null;
  const touchesOf = (p: (typeof points)[number] | null) => (p === null ? 0 : p.hitTouches);
  if (below && above) {
    const span = above.cacheBytes - below.cacheBytes;
    const at = span > 0 ? (size - below.cacheBytes) / span : 0;
    const lerp = (a: number, b: number) => a + (b - a) * at;
    const t0 = touchesOf(below);
    const t1 = touchesOf(above);
    return {
      ratio: { value: lerp(below.hitRatio, above.hitRatio), low: below.hitRatio, high: above.hitRatio },
      touches: t0 === undefined || t1 === undefined ? null : { value: lerp(t0, t1), low: t0, high: t1 },
      how:
        span > 0
          ? `between the curve's points at ${formatDiskSize(below.cacheBytes)} and ${formatDiskSize(above.cacheBytes)}, taken linearly, those two its range`
          : `the curve's point at ${formatDiskSize(below.cacheBytes)}`,
    };
  }
  if (above) {
    // Smaller than every point (a cache under 4 KiB): it serves between nothing and that point.
    const t = touchesOf(above);
    return {
      ratio: { value: 0, low: 0, high: above.hitRatio },
      touches: t === undefined ? null : { value: 0, low: 0, high: t },
      how: `under the curve's smallest point (${formatDiskSize(above.cacheBytes)})`,
    };
  }
  if (below) {
    const t = touchesOf(below);
    if (below.cacheBytes >= kept.distinctBytes)
      return {
        ratio: { value: below.hitRatio, low: below.hitRatio, high: below.hitRatio },
        touches: t === undefined ? null : { value: t, low: t, high: t },
        how: `the cache holds every distinct byte recorded (${formatDiskSize(kept.distinctBytes)}): only first touches miss`,
      };
    // The largest point told does not hold every distinct byte: a larger cache serves at most what first touches leave.
    const most = kept.accessedBytes > 0 ? Math.max(below.hitRatio, 1 - kept.distinctBytes / kept.accessedBytes) : below.hitRatio;
    return {
      ratio: { value: below.hitRatio, low: below.hitRatio, high: most },
      touches: t === undefined ? null : { value: t, low: t, high: Math.max(t, kept.touches * most) },
      how: `past the curve's largest point (${formatDiskSize(below.cacheBytes)}): the nearest point not larger is taken, up to every byte but first touches`,
    };
  }
  return { ratio: { value: 0, low: 0, high: 0 }, touches: null, how: 'the run keeps no curve: nothing served' };
}

const span = (seconds: number): string =>
  seconds >= 1.5 * DAY ? `${(seconds / DAY).toFixed(1)} days` : `${(seconds / 3600).toFixed(1)} hours`;

/** The recorded day read off the newest access-curve run, or the sentence saying why there is none. */
export function recordedDay(recording: RunRecord | null, currentRun: RunRecord | null): RecordedDay | { sentence: string } {
  if (!recording) return { sentence: `not judged: no recorded day of file accesses in the library (record one: ${RECORD_HINT})` };
  const result = recording.results.find((r) => r.test === ACCESS_CURVE_TEST);
  const kept = result ? curveOfResult(result) : null;
  const named = `run ${recording.id ?? '?'} "${recording.label}"`;
  if (!kept) return { sentence: `not judged: ${named} keeps no access curve` };
  if (kept.recordedSeconds < DAY)
    return {
      sentence: `not judged: ${named} recorded ${span(kept.recordedSeconds)}, under one day (record a day or more: ${RECORD_HINT})`,
    };
  if (kept.touches === 0 || kept.accessedBytes <= 0)
    return {
      sentence: `not judged: ${named} recorded no file read or written that the recorder could size, so there is nothing to replay`,
    };
  const ram = recording.system?.memoryBytes ?? currentRun?.system?.memoryBytes ?? null;
  const ramFrom = recording.system?.memoryBytes ? 'the recording' : 'the current disk run';
  if (!ram) return { sentence: `not judged: the RAM size of this machine is not kept with ${named} or the current disk run` };
  const days = kept.recordedSeconds / DAY;
  // The page cache gets at most the RAM; the programs hold some of it: half the RAM is the other end.
  const full = hitAt(kept, ram);
  const half = hitAt(kept, ram / 2);
  const missBytes = (r: number) => (kept.accessedBytes * (1 - r)) / days;
  const diskBytesPerDay: Ranged = { value: missBytes(full.ratio.value), low: missBytes(full.ratio.high), high: missBytes(half.ratio.low) };
  const touchesEstimated = full.touches === null || half.touches === null;
  const missTouches = (served: number) => Math.max(0, kept.touches - served) / days;
  const diskTouchesPerDay: Ranged = touchesEstimated
    ? {
        value: (kept.touches * (1 - full.ratio.value)) / days,
        low: (kept.touches * (1 - full.ratio.high)) / days,
        high: (kept.touches * (1 - half.ratio.low)) / days,
      }
    : { value: missTouches(full.touches!.value), low: missTouches(full.touches!.high), high: missTouches(half.touches!.low) };
  const notes = [
    'writes are counted as reads would be: the recording does not split them (a written file goes at the sequential read rate, one 4K read access)',
    'whole files: the recorder sees opens, not byte ranges, so a file read in part counts whole',
  ];
  if (kept.unsized > 0) notes.push(`${formatCount(kept.unsized)} touches kept without a size are not counted`);
  if (touchesEstimated)
    notes.push(
      'the accesses that went to the disk are estimated in the bytes’ share: this run was kept by an older DiskDelta, which kept no count of the touches served (record again to count them)',
    );
  const when = `${recording.createdAt.slice(0, 10)}${typeof recording.sourceMeta.finishedAt === 'string' ? ` to ${recording.sourceMeta.finishedAt.slice(0, 10)}` : ''}`;
  return {
    runId: recording.id ?? null,
    label: recording.label,
    from: recording.createdAt,
    to: typeof recording.sourceMeta.finishedAt === 'string' ? recording.sourceMeta.finishedAt : null,
    recordedSeconds: kept.recordedSeconds,
    days,
    ramBytes: ram,
    ramFrom,
    accessedBytesPerDay: kept.accessedBytes / days,
    touchesPerDay: kept.touches / days,
    diskBytesPerDay,
    diskTouchesPerDay,
    cacheHow: full.how,
    touchesEstimated,
    notes,
    sentence:
      `${named}, ${when}, ${span(kept.recordedSeconds)} recorded: a day read or wrote ${formatDiskSize(kept.accessedBytes / days)} in ${formatCount(Math.round(kept.touches / days))} file touches; ` +
      `with this machine's ${formatDiskSize(ram)} of RAM (from ${ramFrom}) as the page cache (${full.how}; down to half the RAM for the programs' share), ` +
      `${formatDiskSize(diskBytesPerDay.value)} (${formatDiskSize(diskBytesPerDay.low)}–${formatDiskSize(diskBytesPerDay.high)}) in ${formatCount(Math.round(diskTouchesPerDay.value))} (${formatCount(Math.round(diskTouchesPerDay.low))}–${formatCount(Math.round(diskTouchesPerDay.high))}) accesses a day went to the disk`,
  };
}

/** One case of the replay: the bytes and accesses that reach the disk, the two adding or overlapping. */
export type ReplayCase = { bytes: number; touches: number; how: 'add' | 'overlap' };
type Case = ReplayCase;

const ENDS = ['value', 'low', 'high'] as const;
type End = (typeof ENDS)[number];
type How = ReplayCase['how'];

/** The misses at one end of their range, the two adding or overlapping. */
function caseOf(day: RecordedDay, end: End, how: How): Case {
  return { bytes: day.diskBytesPerDay[end], touches: day.diskTouchesPerDay[end], how };
}

/** Seconds on a disk of these figures: the bytes at its sequential read, one 4K QD1 read per access; null without those figures. */
export function replaySecondsOn(figures: DriveFigures, c: ReplayCase): number | null {
  const seq = figures.seqRead;
  const small = figures.rnd4kQ1Read;
  if (seq === null || small === null || seq <= 0 || small <= 0) return null;
  const stream = c.bytes / seq;
  const access = (c.touches * ACCESS_BYTES) / small;
  return c.how === 'add' ? stream + access : Math.max(stream, access);
}

/** Seconds per case on one disk: `seconds[end][how]`, and the central case (`central` at the misses' value). */
type Cases = Record<End, Record<How, number>>;

function replayOn(
  day: RecordedDay,
  figures: DriveFigures,
  central: How,
  whose: string,
): { replay: DiskReplay; each: Cases } | { why: string } {
  const each = {} as Cases;
  for (const end of ENDS) {
    const add = replaySecondsOn(figures, caseOf(day, end, 'add'));
    const overlap = replaySecondsOn(figures, caseOf(day, end, 'overlap'));
    if (add === null || overlap === null) return { why: `${whose} has no sequential read or 4K random read at QD1 figure` };
    each[end] = { add, overlap };
  }
  const all = ENDS.flatMap((end) => [each[end].add, each[end].overlap]);
  const middle = caseOf(day, 'value', central);
  return {
    replay: {
      value: each.value[central],
      low: Math.min(...all),
      high: Math.max(...all),
      streamSeconds: middle.bytes / figures.seqRead!,
      accessSeconds: (middle.touches * ACCESS_BYTES) / figures.rnd4kQ1Read!,
    },
    each,
  };
}

/** The recorded day on today's disk and on each candidate (its rates as they would be here). */
export function forecastReplay(
  recording: RunRecord | null,
  currentRun: RunRecord | null,
  today: DriveFigures,
  candidates: readonly DriveFigures[],
): ReplayForecast {
  const recorded = recordedDay(recording, currentRun);
  const base = { provenance: 'estimated' as const, recorded, accuracy: REPLAY_ACCURACY };
  if (!('runId' in recorded)) return { ...base, today: null, candidates: candidates.map(() => ({ why: recorded.sentence })) };
  // Today's disk: the two add (an HDD's one head seeks, then reads); a candidate: they overlap (readahead,
  // several programs; what the workload model takes, and what the lab measured: docs/forecast.md).
  const now = replayOn(recorded, today, 'add', "today's disk");
  return {
    ...base,
    today: 'why' in now ? now : now.replay,
    candidates: candidates.map((figures): CandidateReplay => {
      const there = replayOn(recorded, figures, 'overlap', 'the candidate');
      if ('why' in there) return there;
      if ('why' in now || there.replay.value <= 0) return { ...there.replay, gain: null };
      // The same misses on both disks (one recording), each disk adding or overlapping: the gain's
      // range is every such pair's. A case where the candidate takes no time has no ratio (nor JSON an Infinity).
      const gains = ENDS.flatMap((end) =>
        (['add', 'overlap'] as const).flatMap((a) =>
          (['add', 'overlap'] as const).flatMap((b) => (there.each[end][b] > 0 ? [now.each[end][a] / there.each[end][b]] : [])),
        ),
      );
      return { ...there.replay, gain: { value: now.replay.value / there.replay.value, low: Math.min(...gains), high: Math.max(...gains) } };
    }),
  };
}
