// The sustained write's figures (issue "What decides an SSD purchase"): where a sequential
// stream of writes falls off the drive's fast (SLC) cache, how fast it wrote before and after,
// and how much of the cache came back after an idle rest. The worker only logs the rate per
// interval (native/src/sustained.c); everything found here is found from those intervals.
//
// The cliffs are change points of the interval rates (binary segmentation: the split that most
// reduces the time-weighted squared error, kept when the two sides differ by DROP_RATIO or
// more). The interval a cliff falls in is a mix of both speeds, so the cache size is
// interpolated inside it from the speeds on either side, not rounded to an interval's bytes.
//
// Pure functions: the report and the renderer read them too.
import type { FailureSurface } from '../model/failures.ts';
import type { RunSettings, Sample, TestResult } from '../model/results.ts';
import { formatBytes, groupedDecimals, groupedFormat } from './units.ts';

/** The catalog's test id (model/catalog.ts). */
export const SUSTAINED_TEST = 'sustained-write';

/** One logged interval of a stream: bytes completed by its end, and its own bytes and length. */
export interface SustainedInterval {
  /** Bytes of the stream completed by the end of the interval. */
  bytes: number;
  intervalBytes: number;
  intervalNs: number;
  /**
   * The share of the interval the writer waited, runnable, for a CPU (its threads' schedstat
   * wait over the interval's time: 0.3 = 30 %); absent where not logged.
   */
  cpuWait?: number;
}

export interface SustainedStream {
  bytes: number;
  elapsedNs: number;
  /** Idle time before the stream (the recovery's rest), ns. */
  restNs: number;
  /** false: a stop cut it short. */
  complete: boolean;
  intervals: SustainedInterval[];
}

export interface SustainedCliff {
  /** Bytes written when the speed fell. */
  atBytes: number;
  beforeBytesPerSec: number;
  afterBytesPerSec: number;
  /** Intervals and seconds the slow stretch lasted (to the next change of speed or the end). */
  lastedIntervals: number;
  lastedSec: number;
  /** The share of the time the writer waited for a CPU before the fall and while it lasted; null where not logged. */
  cpuWait: { before: number; during: number } | null;
}

/** Why a fall of the speed was not called a cache. */
export type FallSetAside = 'short' | 'noise' | 'dip' | 'busy';

export interface SetAsideFall extends SustainedCliff {
  why: FallSetAside;
  /** The larger relative spread of the intervals either side (0.05: ±5 %); null when unknown. */
  spread: number | null;
}

export interface SegmentSpeed {
  bytesPerSec: number;
  /** Coefficient of variation of the interval rates it is made of (0.05: 5 %); null under 2 intervals. */
  spread: number | null;
  intervals: number;
}

export interface SustainedAnalysis {
  cliffs: SustainedCliff[];
  /** Falls that were not called a cache: too short, within the stream's own noise, or the speed came back. */
  setAside: SetAsideFall[];
  /** The first cliff's bytes; null when the speed never fell by DROP_RATIO. */
  cacheBytes: number | null;
  /** The speed up to the first cliff (the whole stream's when there is none). */
  before: SegmentSpeed;
  /** The speed between the first cliff and the next (null without a cliff). */
  after: SegmentSpeed | null;
  recovery: SustainedRecovery | null;
  /** Why no cache can be told from this stream (its noise is past SUSTAINED_NOISE_CEILING); null: judged. */
  notJudged: string | null;
  /** The intervals in which other processes took the CPU from the writer; null when none did or it was not logged. */
  starved: StarvedIntervals | null;
}

/**
 * The intervals in which the writer waited for a CPU FALL_CPU_WAIT of the time or more, wherever
 * they fell: the machine, not the drive, may have set their speed. Said even when no fall was
 * found (the slow intervals can alternate with fast ones, so no stretch is slow enough to cut:
 * the busy lab's 7.2, 20.9, 17.2, 20.9, 9.5 MB/s).
 */
export interface StarvedIntervals {
  count: number;
  of: number;
  /** Bytes written at the start of the first such interval and the end of the last. */
  fromBytes: number;
  toBytes: number;
  /** The writer's wait for a CPU over them (time-weighted share). */
  wait: number;
  /** The speed over them and over the other intervals (null when there are none). */
  bytesPerSec: number;
  elsewhereBytesPerSec: number | null;
}

export interface SustainedRecovery {
  restSec: number;
  /** Bytes written at the cache's speed after the rest. */
  regainedBytes: number;
  /** The recovery stream never left the cache: regainedBytes is a lower bound. */
  atLeast: boolean;
}

/** A fall to 1/DROP_RATIO of the speed or below is a cliff: real caches fall 2–40× (the issue's reviews). */
export const DROP_RATIO = 1.25;
/** The fewest intervals on each side of a cliff. */
const MIN_SIDE = 2;
/**
 * A fall is a cache running out only when the slow speed lasts: at least this many intervals
 * and seconds (a drive past its cache stays slow; issue 40 item 2: a flat throttled stream at
 * load 10 slowed for 2 intervals at its end and was called a 935 MiB cache).
 */
export const MIN_FALL_INTERVALS = 4;
export const MIN_FALL_SEC = 2;
/** And it stands out of the stream's own noise: the fall is at least this many of the intervals' standard deviations, either side's. */
export const FALL_NOISE_SIGMAS = 3;
/**
 * The noise rule widens with the noise it measured, so it has a ceiling: past intervals varying
 * ±25 % (a fall would have to be ¾ of the speed to stand out), a fall set aside as noise leaves
 * the stream "not judged", never "never fell": a cache may well be there, hidden.
 */
export const SUSTAINED_NOISE_CEILING = 0.25;
/** How a not-judged stream's verdict begins, stored as the cache figure's basis. */
export const NOT_JUDGED = 'not judged: ';
/** The warning a not-judged stream's result carries: what the charts read, not the basis' words. */
export const SUSTAINED_NOT_JUDGED = 'sustained-not-judged';

const rateOf = (xs: readonly SustainedInterval[]) => {
  const ns = xs.reduce((n, x) => n + x.intervalNs, 0);
  return ns > 0 ? (xs.reduce((n, x) => n + x.intervalBytes, 0) * 1e9) / ns : 0;
};

/** Time-weighted squared error of the interval rates around their pooled rate. */
function cost(xs: readonly SustainedInterval[]): number {
  const mean = rateOf(xs);
  return xs.reduce((n, x) => n + x.intervalNs * ((x.intervalBytes * 1e9) / x.intervalNs - mean) ** 2, 0);
}

/** The split indices (the first interval of each later segment), in order. */
function splits(xs: readonly SustainedInterval[], offset = 0): number[] {
  if (xs.length < 2 * MIN_SIDE) return [];
  const whole = cost(xs);
  let best = -1;
  let gain = 0;
  for (let k = MIN_SIDE; k <= xs.length - MIN_SIDE; k++) {
    const g = whole - cost(xs.slice(0, k)) - cost(xs.slice(k));
    if (g > gain) [best, gain] = [k, g];
  }
  if (best < 0) return [];
  const left = rateOf(xs.slice(0, best));
  const right = rateOf(xs.slice(best));
  if (Math.max(left, right) < DROP_RATIO * Math.min(left, right)) return [];
  return [...splits(xs.slice(0, best), offset), offset + best, ...splits(xs.slice(best), offset + best)];
}

function speedOf(xs: readonly SustainedInterval[]): SegmentSpeed {
  const rates = xs.filter((x) => x.intervalNs > 0).map((x) => (x.intervalBytes * 1e9) / x.intervalNs);
  const mean = rates.reduce((a, b) => a + b, 0) / (rates.length || 1);
  const sd = Math.sqrt(rates.reduce((n, r) => n + (r - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { bytesPerSec: rateOf(xs), spread: rates.length >= 2 && mean > 0 ? sd / mean : null, intervals: xs.length };
}

/**
 * A segment's speed from its "pure" intervals: the stream's first interval (a drive's DRAM
 * buffer, a throttle's initial allowance) and the intervals a cliff falls in are mixes, left
 * out when enough remain.
 */
function pureSpeed(xs: readonly SustainedInterval[], dropFirst: boolean, dropLast: boolean): SegmentSpeed {
  const start = dropFirst ? 1 : 0;
  const end = xs.length - (dropLast ? 1 : 0);
  return end - start >= 2 ? speedOf(xs.slice(start, end)) : speedOf(xs);
}

/** Where in the intervals around a split the speed fell, interpolated from the speeds either side. */
function cliffBytes(xs: readonly SustainedInterval[], k: number, fast: number, slow: number): number {
  // The fall lies in interval k-1 or k (the split puts a mixed interval on either side).
  const from = Math.max(0, k - 1);
  const pair = xs.slice(from, k + 1);
  const startBytes = from > 0 ? xs[from - 1]!.bytes : 0;
  const bytes = pair.reduce((n, x) => n + x.intervalBytes, 0);
  const sec = pair.reduce((n, x) => n + x.intervalNs, 0) / 1e9;
  if (fast <= slow) return startBytes + bytes / 2;
  // bytes = fast·t + slow·(sec − t): the time spent at the fast speed.
  const t = Math.min(sec, Math.max(0, (bytes - slow * sec) / (fast - slow)));
  return startBytes + fast * t;
}

function segmentsOf(xs: readonly SustainedInterval[], cuts: readonly number[]): SustainedInterval[][] {
  const segments: SustainedInterval[][] = [];
  let from = 0;
  for (const k of [...cuts, xs.length]) {
    segments.push(xs.slice(from, k));
    from = k;
  }
  return segments;
}

/** Each segment's speed without its mixed intervals: the stream's first, and those a cut falls between. */
const segmentSpeeds = (segments: readonly SustainedInterval[][]) =>
  segments.map((seg, i) => pureSpeed(i === 0 ? seg : seg.slice(1), i === 0, i < segments.length - 1));

/**
 * The cuts that are real changes of speed. The interval a cliff falls in sits between the two
 * speeds, and with MIN_SIDE intervals a side, binary segmentation can cut again right after it
 * ([9.6, 3.0] against 3.0 MiB/s differs by 1.25×): a sliver whose pure speed is its neighbour's.
 * Such a cut is dropped (the weakest first) until every cut left changes the speed by DROP_RATIO,
 * so the speed past the cache is taken over the whole slow stretch, not the one interval between
 * the cuts (the sustained-write lab's quiet runs: 1 interval of 15).
 */
function realCuts(xs: readonly SustainedInterval[], cuts: readonly number[]): number[] {
  const kept = [...cuts];
  for (;;) {
    const speeds = segmentSpeeds(segmentsOf(xs, kept));
    const ratios = kept.map((_, i) => {
      const [a, b] = [speeds[i]!.bytesPerSec, speeds[i + 1]!.bytesPerSec];
      return Math.max(a, b) / Math.max(Number.MIN_VALUE, Math.min(a, b));
    });
    const weakest = ratios.reduce((w, r, i) => (r < DROP_RATIO && (w < 0 || r < ratios[w]!) ? i : w), -1);
    if (weakest < 0) return kept;
    kept.splice(weakest, 1);
  }
}

/** The writer's wait for a CPU over intervals, time-weighted; null when not logged. */
function cpuWaitOver(xs: readonly SustainedInterval[]): number | null {
  const logged = xs.filter((x) => x.cpuWait !== undefined && x.intervalNs > 0);
  const ns = logged.reduce((n, x) => n + x.intervalNs, 0);
  return logged.length > 0 && ns > 0 ? logged.reduce((n, x) => n + x.cpuWait! * x.intervalNs, 0) / ns : null;
}

/**
 * Other processes took the CPU from the writer while the speed was down: it waited for a CPU a
 * fifth of the time more than before the fall. A writer that loses a fifth of its time writes a
 * fifth less, which alone is a fall of DROP_RATIO (1/1.25 = 0.8): the fall may be the machine's,
 * not the drive's. (The machine's load cannot tell: on a shared machine it is high all along.)
 */
export const FALL_CPU_WAIT = 0.2;

export function fallWhileBusy(fall: Pick<SustainedCliff, 'cpuWait'>): boolean {
  const wait = fall.cpuWait;
  return wait !== null && wait.during - wait.before >= FALL_CPU_WAIT;
}

function starvedOf(xs: readonly SustainedInterval[]): StarvedIntervals | null {
  const isStarved = (x: SustainedInterval) => x.cpuWait !== undefined && x.cpuWait >= FALL_CPU_WAIT;
  const starved = xs.filter(isStarved);
  if (starved.length === 0) return null;
  const first = xs.indexOf(starved[0]!);
  const others = xs.filter((x) => !isStarved(x));
  return {
    count: starved.length,
    of: xs.length,
    fromBytes: first > 0 ? xs[first - 1]!.bytes : 0,
    toBytes: starved.at(-1)!.bytes,
    wait: cpuWaitOver(starved)!,
    bytesPerSec: rateOf(starved),
    elsewhereBytesPerSec: others.length > 0 ? rateOf(others) : null,
  };
}

/** Each fall of the speed between the segments `cuts` make, with why it is no cache (null: it is one). */
function fallsOf(
  xs: readonly SustainedInterval[],
  cuts: readonly number[],
): Array<{ cut: number; fall: SustainedCliff; why: FallSetAside | null; spread: number | null }> {
  const segments = segmentsOf(xs, cuts);
  const speeds = segmentSpeeds(segments);
  const out: Array<{ cut: number; fall: SustainedCliff; why: FallSetAside | null; spread: number | null }> = [];
  cuts.forEach((k, i) => {
    const before = speeds[i]!;
    const after = speeds[i + 1]!;
    if (after.bytesPerSec * DROP_RATIO > before.bytesPerSec) return; // a rise (the drive caught up), not a fall
    const slow = segments[i + 1]!;
    const lastedSec = slow.reduce((n, x) => n + x.intervalNs, 0) / 1e9;
    const sd = (v: SegmentSpeed) => (v.spread ?? 0) * v.bytesPerSec;
    const next = speeds[i + 2];
    const waitBefore = cpuWaitOver(segments[i]!);
    const waitDuring = cpuWaitOver(slow);
    const fall: SustainedCliff = {
      atBytes: cliffBytes(xs, k, before.bytesPerSec, after.bytesPerSec),
      beforeBytesPerSec: before.bytesPerSec,
      afterBytesPerSec: after.bytesPerSec,
      lastedIntervals: slow.length,
      lastedSec,
      cpuWait: waitBefore !== null && waitDuring !== null ? { before: waitBefore, during: waitDuring } : null,
    };
    const why: FallSetAside | null =
      slow.length < MIN_FALL_INTERVALS || lastedSec < MIN_FALL_SEC
        ? 'short'
        : before.bytesPerSec - after.bytesPerSec < FALL_NOISE_SIGMAS * Math.max(sd(before), sd(after))
          ? 'noise'
          : next && next.bytesPerSec * DROP_RATIO > before.bytesPerSec
            ? 'dip'
            : fallWhileBusy(fall)
              ? 'busy'
              : null;
    const spreads = [before.spread, after.spread].filter((x): x is number => x !== null);
    out.push({ cut: k, fall, why, spread: spreads.length ? Math.max(...spreads) : null });
  });
  return out;
}

/** The cliffs, the cache size and the speeds of a fill stream; the recovery from the stream after the rest. */
export function analyzeSustained(fill: SustainedStream, recovery?: SustainedStream | null): SustainedAnalysis {
  const xs = fill.intervals.filter((x) => x.intervalNs > 0);
  // A fall that is no cache is set aside and its cut dropped (the first such at a time), so the
  // speeds either side are taken over the stretches it had split.
  const setAside: SetAsideFall[] = [];
  let cuts = realCuts(xs, splits(xs));
  let falls = fallsOf(xs, cuts);
  for (let rejected = falls.find((f) => f.why); rejected; rejected = falls.find((f) => f.why)) {
    setAside.push({ ...rejected.fall, why: rejected.why!, spread: rejected.spread });
    cuts = realCuts(
      xs,
      cuts.filter((k) => k !== rejected.cut),
    );
    falls = fallsOf(xs, cuts);
  }
  const cliffs = falls.map((f) => f.fall);
  const firstCut = falls[0]?.cut ?? -1;
  const first = cliffs[0];
  const nextCut = cuts.find((k) => k > firstCut) ?? xs.length;
  const before = first ? pureSpeed(xs.slice(0, firstCut), true, true) : pureSpeed(xs, true, false);
  const after = first ? pureSpeed(xs.slice(firstCut + 1, nextCut), false, nextCut < xs.length) : null;
  const hidden = first ? undefined : setAside.find((f) => f.why === 'noise' && (f.spread ?? 0) > SUSTAINED_NOISE_CEILING);
  return {
    notJudged: hidden
      ? `${NOT_JUDGED}the write speed varied ±${Math.round(hidden.spread! * 100)} % between intervals, past the ±${SUSTAINED_NOISE_CEILING * 100} % within which a cache can be told from noise; measure again on an idle machine`
      : null,
    cliffs,
    setAside,
    starved: starvedOf(xs),
    cacheBytes: first?.atBytes ?? null,
    before,
    after,
    recovery: recovery && first && after ? recoveryOf(recovery, before.bytesPerSec, after.bytesPerSec) : null,
  };
}

/**
 * The bytes written fast after the rest, from the recovery stream's whole bytes and time and the
 * fill's two speeds: bytes/fast + (rest of the bytes)/slow = time. A stream that never slowed
 * down only shows that at least its bytes came back.
 */
export function recoveryOf(stream: SustainedStream, fast: number, slow: number): SustainedRecovery | null {
  if (stream.bytes <= 0 || stream.elapsedNs <= 0 || fast <= slow) return null;
  const sec = stream.elapsedNs / 1e9;
  const regained = (sec - stream.bytes / slow) / (1 / fast - 1 / slow);
  const clamped = Math.min(stream.bytes, Math.max(0, regained));
  return { restSec: stream.restNs / 1e9, regainedBytes: clamped, atLeast: clamped >= stream.bytes * 0.95 };
}

/** "4.1 GB", "812 MB": decimal units, as a drive's box and a file manager's copy dialog say them. */
export function decimalBytes(bytes: number): string {
  if (bytes >= 1e12) return `${groupedDecimals(bytes / 1e12, bytes >= 1e13 ? 0 : 1)} TB`;
  if (bytes >= 1e9) return `${groupedDecimals(bytes / 1e9, bytes >= 1e10 ? 0 : 1)} GB`;
  if (bytes >= 1e6) return `${groupedDecimals(bytes / 1e6, 0)} MB`;
  return `${Math.round(bytes / 1e3)} kB`;
}

/** "4 min 20 s", "80 s", "1 h 5 min". */
export function durationWords(sec: number): string {
  const s = Math.round(sec);
  if (s < 100) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const min = Math.round(s / 60);
  return `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

/** A speed in MB/s to three significant digits, as a sentence says it: "40 MB/s", "152 MB/s", "1,770 MB/s". */
function speedWords(bytesPerSec: number): string {
  return `${groupedFormat(bytesPerSec / 1e6, { maximumSignificantDigits: 3 })} MB/s`;
}

/** A copy about ten times the cache, in a round figure (1, 2 or 5 × a power of ten). */
function copySize(cache: number): number {
  const target = cache * 10;
  const power = 10 ** Math.floor(Math.log10(target));
  return ([1, 2, 5, 10] as const).map((m) => m * power).reduce((a, b) => (Math.abs(b - target) < Math.abs(a - target) ? b : a));
}

/**
 * What the figures mean to a buyer: "after 4.1 GB this drive writes at 152 MB/s: a 40 GB copy
 * would take 4 min 20 s, not 80 s".
 */
export function buyerSentence(
  a: Pick<SustainedAnalysis, 'cacheBytes' | 'before' | 'after'> & { notJudged?: string | null },
  writtenBytes: number,
): string {
  // Too noisy to tell (SUSTAINED_NOISE_CEILING): never "no cache ran out".
  if (a.notJudged) return `this drive's fast cache is ${a.notJudged}`;
  const fast = a.before.bytesPerSec;
  if (a.cacheBytes === null || !a.after) {
    return `over ${decimalBytes(writtenBytes)} written this drive kept ${speedWords(fast)}: no cache ran out within the span`;
  }
  const slow = a.after.bytesPerSec;
  const copy = copySize(a.cacheBytes);
  const real = a.cacheBytes / fast + (copy - a.cacheBytes) / slow;
  return (
    `after ${decimalBytes(a.cacheBytes)} this drive writes at ${speedWords(slow)}: ` +
    `a ${decimalBytes(copy)} copy would take ${durationWords(real)}, not ${durationWords(copy / fast)}`
  );
}

/** "sustained write: 16 GiB in one stream of 1 MiB writes, 1 in flight; 4 GiB again after 30 s idle". */
export function sustainedSettingsText(s: RunSettings): string {
  const again = s.sustainedRecoveryBytes ? `; ${formatBytes(s.sustainedRecoveryBytes)} again after ${s.sustainedRestSec ?? 0} s idle` : '';
  const rated = s.ratedEnduranceBytes ? `; the drive rated for ${decimalBytes(s.ratedEnduranceBytes)} written` : '';
  return `sustained write: ${formatBytes(s.sustainedSpanBytes ?? 0)} in one stream of ${formatBytes(s.sustainedBlockBytes ?? 0)} writes, ${s.sustainedDepth ?? 1} in flight${again}${rated}`;
}

export interface SustainedPoint {
  stream: 'fill' | 'recovery';
  /** Bytes of the stream written by the end of the interval. */
  bytes: number;
  bytesPerSec: number;
}

/**
 * A sustained write's series over bytes written (run 1: the fill, run 2: the recovery), or null
 * for any other result: what the chart draws and the CSV lists.
 */
export function sustainedSeries(result: Pick<TestResult, 'test' | 'runs'>): SustainedPoint[] | null {
  if (result.test !== SUSTAINED_TEST) return null;
  return result.runs.flatMap((run) =>
    intervalsOfSamples(run.samples).map((x, i) => ({
      stream: run.run === 1 ? ('fill' as const) : ('recovery' as const),
      bytes: x.bytes,
      bytesPerSec: run.samples[i]!.bytesPerSec,
    })),
  );
}

const GiB = 2 ** 30;

/** The write speed over one stretch of a stream's bytes: [fromBytes, toBytes) in `seconds`. */
export interface RateSpan {
  fromBytes: number;
  toBytes: number;
  seconds: number;
  bytesPerSec: number;
}

/**
 * The stream's write speed per `step` bytes written (per GiB by default), from its logged
 * intervals: each interval's bytes and time are shared out among the steps it covers in
 * proportion to its bytes (its speed taken as even within its 500 ms), so a step's time is the
 * sum of the times spent writing it and its speed is its bytes over that time, never a mean of
 * rates. An interval that wrote nothing (a stall) counts its time in the step it stalled in. The
 * last step is what was written of it (a span that is no whole number of steps, a stop).
 */
export function ratePerSpan(intervals: readonly SustainedInterval[], step = GiB): RateSpan[] {
  const bytes: number[] = [];
  const seconds: number[] = [];
  const add = (k: number, b: number, sec: number) => {
    bytes[k] = (bytes[k] ?? 0) + b;
    seconds[k] = (seconds[k] ?? 0) + sec;
  };
  let end = 0;
  for (const x of intervals) {
    const sec = x.intervalNs / 1e9;
    const to = x.bytes;
    const from = to - x.intervalBytes;
    end = Math.max(end, to);
    if (x.intervalBytes <= 0) {
      add(to > 0 ? Math.ceil(to / step) - 1 : 0, 0, sec);
      continue;
    }
    for (let at = from; at < to;) {
      const k = Math.floor(at / step);
      const upTo = Math.min(to, (k + 1) * step);
      add(k, upTo - at, (sec * (upTo - at)) / (to - from));
      at = upTo;
    }
  }
  const out: RateSpan[] = [];
  for (let k = 0; k < seconds.length; k++) {
    const sec = seconds[k];
    if (sec === undefined || !(sec > 0)) continue;
    out.push({ fromBytes: k * step, toBytes: Math.min((k + 1) * step, end), seconds: sec, bytesPerSec: (bytes[k] ?? 0) / sec });
  }
  return out;
}

/**
 * A stored stream's samples back to logged intervals: each sample is a back-to-back interval
 * ending at tMs, its bytes its rate × its time, rounded to whole bytes (the worker writes whole
 * blocks; rounding keeps a float's residue from making a step of a millionth of a byte).
 */
export function intervalsOfSamples(samples: readonly Sample[]): SustainedInterval[] {
  let t = 0;
  let bytes = 0;
  return samples.map((s) => {
    const ns = Math.round((s.tMs - t) * 1e6);
    const next = Math.round(bytes + (s.bytesPerSec * ns) / 1e9);
    const x = { bytes: next, intervalBytes: next - bytes, intervalNs: ns };
    [t, bytes] = [s.tMs, next];
    return x;
  });
}

/** A sustained write's speed per `step` bytes written, per stream (run 1: the fill, run 2: the recovery); null for any other result. */
export function sustainedPerSpan(
  result: Pick<TestResult, 'test' | 'runs'>,
  step = GiB,
): Array<{ stream: SustainedPoint['stream']; spans: RateSpan[] }> | null {
  if (result.test !== SUSTAINED_TEST) return null;
  return result.runs.map((run) => ({
    stream: run.run === 1 ? ('fill' as const) : ('recovery' as const),
    spans: ratePerSpan(intervalsOfSamples(run.samples), step),
  }));
}

/** The most rows a listing of the speed per step shows per stream (`diskdelta show`). */
export const LISTING_ROWS = 64;

/**
 * The step a listing uses for a stream of `totalBytes`: 1 GiB up to 64 GiB, so the default 16 GiB
 * span and the static SLC cache of any consumer drive (a few GB to some tens) are read GiB by
 * GiB; beyond, the smallest power-of-two GiB step that keeps 64 rows or fewer (a 1 TB span: 16
 * GiB steps, 59 rows, not 931). One uniform step per listing keeps the rows comparable; the fall
 * still shows within a step, and the figures place it exactly. The CSV has every GiB.
 */
export function listingStep(totalBytes: number): number {
  let step = GiB;
  while (Math.ceil(totalBytes / step) > LISTING_ROWS) step *= 2;
  return step;
}

/** The speeds the cost's time is given at: a SATA SSD's cache, and a slow drive past its cache. */
const COST_SPEEDS = [500e6, 50e6] as const;

/** What the cost is worked out from: the run's settings (model/run-settings.ts), the rated endurance optional (0: not given). */
export interface SustainedCostSettings {
  sustainedSpanBytes: number;
  sustainedRecoveryBytes: number;
  sustainedRestSec: number;
  ratedEnduranceBytes?: number;
}

export interface SustainedCost {
  spanBytes: number;
  /** What the recovery writes again: at most the span. */
  recoveryBytes: number;
  totalBytes: number;
  /** Seconds the whole test takes (the rest included) at 500 MB/s and at 50 MB/s. */
  seconds: [number, number];
  /** The written bytes' share of the drive's rated endurance (0.0001: 0.01 %); null when the rating was not given. */
  enduranceShare: number | null;
  ratedEnduranceBytes: number | null;
}

/** What a sustained write will cost before it starts: its bytes, its time at a fast and a slow speed, its share of the rated endurance. */
export function sustainedCost(s: SustainedCostSettings): SustainedCost {
  const recoveryBytes = Math.min(s.sustainedRecoveryBytes, s.sustainedSpanBytes);
  const totalBytes = s.sustainedSpanBytes + recoveryBytes;
  const rest = recoveryBytes > 0 ? s.sustainedRestSec : 0;
  const rated = s.ratedEnduranceBytes && s.ratedEnduranceBytes > 0 ? s.ratedEnduranceBytes : null;
  return {
    spanBytes: s.sustainedSpanBytes,
    recoveryBytes,
    totalBytes,
    seconds: [totalBytes / COST_SPEEDS[0] + rest, totalBytes / COST_SPEEDS[1] + rest],
    enduranceShare: rated === null ? null : totalBytes / rated,
    ratedEnduranceBytes: rated,
  };
}

/** A share as a percentage a person reads: "0.0029 %", "0.021 %", "12.5 %". */
function shareWords(share: number): string {
  const pct = share * 100;
  const digits = pct >= 1 ? { maximumFractionDigits: 1 } : { maximumSignificantDigits: 2 };
  return `${groupedFormat(pct, digits)} %`;
}

/** How to give the rating where it is not known, in the words of the place the text is shown (the app names no CLI flag). */
const GIVE_RATING: Record<FailureSurface, string> = {
  cli: "give the TBW of the drive's data sheet with --rated-endurance, e.g. --rated-endurance 600TB",
  app: "type the TBW of the drive's data sheet into Rated endurance",
};

/**
 * The warning a sustained write gives before it starts (the CLI prints it, New run shows it as
 * the span is typed, Live run lists it): "the sustained write writes 17 GB: about 34 s at 500
 * MB/s, 5 min 44 s at 50 MB/s. 17 GB is 0.0029 % of the drive's rated write endurance of 600 TB.
 * Stopping it keeps what it measured so far". The kernel knows no drive's rating, so without one
 * it says so and how to give it.
 */
export function sustainedCostText(s: SustainedCostSettings, surface: FailureSurface): string {
  const c = sustainedCost(s);
  const again = c.recoveryBytes > 0 ? `, rests ${durationWords(s.sustainedRestSec)} and writes ${decimalBytes(c.recoveryBytes)} again` : '';
  const endurance =
    c.enduranceShare === null
      ? `${decimalBytes(c.totalBytes)} counts against the drive's rated write endurance; what share of it is not known (a drive does not tell the kernel its rating): ${GIVE_RATING[surface]}.`
      : `${decimalBytes(c.totalBytes)} is ${shareWords(c.enduranceShare)} of the drive's rated write endurance of ${decimalBytes(c.ratedEnduranceBytes!)}.`;
  return (
    `the sustained write writes ${decimalBytes(c.spanBytes)}${again}: ` +
    `about ${durationWords(c.seconds[0])} at 500 MB/s, ${durationWords(c.seconds[1])} at 50 MB/s. ${endurance} ` +
    'Stopping it keeps what it measured so far'
  );
}
