// The surface of a disk (issue 41 item 3): how fast it reads from its first byte (an HDD's outer
// tracks) to its last (the inner ones), as GNOME Disks and HD Tune draw it. The worker's
// `surface` verb reads a few MiB at evenly spread offsets; this turns those reads into the curve
// (offset → bytes/s, with the spread of its reads), cuts the curve into zones where its level
// steps, and names the slowest zone with its range of offsets. Pure: the renderer bundles it.
//
// Zones: binary segmentation (split where the sum of squared deviations falls most, keep the
// split when the two sides' medians differ by at least ZONE_STEP and by more than their scatter
// explains), the classic change-point method. A boundary is placed inside the gap between the last sample of one zone and the first
// of the next, or, when a sample straddles it (its rate lies between the two zones'), solved
// from that sample's time: x bytes at the one zone's rate and the rest at the other's.
import { median, percentile } from './statistics.ts';
import { formatBytes } from './units.ts';
import type { Figure, TestResult } from '../model/results.ts';

export const SURFACE_TEST = 'surface';
/** Two neighbouring levels closer than this (relative) are one zone: an HDD's noise is a few %. */
export const ZONE_STEP = 0.1;
/**
 * The fewest samples a zone holds: one odd sample is noise, not a zone, and a sample straddling
 * a boundary beside one pure sample must not make a zone of its own (their median is the mean).
 */
export const MIN_ZONE_SAMPLES = 3;

/** One offset's reads, as the worker reports them. */
export interface SurfaceRead {
  offset: number;
  bytes: number;
  /** Each read's time in order, ns; their bytes are bytes / readNs.length each. */
  readNs: number[];
}

export interface SurfacePoint {
  offset: number;
  bytes: number;
  /**
   * The bytes the rate is of: the sample's reads after its first. The first read carries the
   * positioning (an HDD's seek to the offset, which the access time measures on its own) and
   * whatever a device let through at once after the pause between samples (a drive's read-ahead,
   * a throttle's burst): the transfer rate is the stream that follows. A one-read sample is all of it.
   */
  timedFrom: number;
  timedTo: number;
  /** The timed bytes over their reads' time. */
  bytesPerSec: number;
  /** The slowest and fastest of its reads. */
  low: number;
  high: number;
}

export interface SurfaceZone {
  /** Byte range the zone covers (boundaries estimated between samples). */
  start: number;
  end: number;
  /** The median of its samples' rates, and their range. */
  bytesPerSec: number;
  low: number;
  high: number;
  samples: number;
}

export interface SurfaceAnalysis {
  deviceBytes: number;
  points: SurfacePoint[];
  zones: SurfaceZone[];
  /** Index into zones of the slowest; null when there are no points. */
  slowest: number | null;
  /** The access time: the median and 90th percentile of the random 4 KiB reads, ns; null without any. */
  accessNs: { median: number; p90: number; count: number } | null;
}

/** One sample's point: its rate is of the reads after its first (SurfacePoint.timedFrom says why). */
function surfacePoint(r: SurfaceRead): SurfacePoint {
  const each = r.bytes / r.readNs.length;
  const timed = r.readNs.length > 1 ? r.readNs.slice(1) : r.readNs;
  const rates = timed.map((ns) => (each * 1e9) / ns);
  const total = timed.reduce((a, b) => a + b, 0);
  return {
    offset: r.offset,
    bytes: r.bytes,
    timedFrom: r.offset + r.bytes - each * timed.length,
    timedTo: r.offset + r.bytes,
    bytesPerSec: (each * timed.length * 1e9) / total,
    low: Math.min(...rates),
    high: Math.max(...rates),
  };
}

/** The curve: one point per sample, in offset order. */
function surfaceCurve(reads: readonly SurfaceRead[]): SurfacePoint[] {
  return [...reads].sort((a, b) => a.offset - b.offset).map(surfacePoint);
}

/** Standard errors of the medians' difference a step must exceed to be one. */
const SIGNIFICANT_ERRORS = 3;

/** The standard error of a median, from the median absolute deviation (normal scatter assumed). */
function medianError(values: number[], mid: number): number {
  const mad = median(values.map((v) => Math.abs(v - mid)));
  return (1.4826 * mad * 1.2533) / Math.sqrt(values.length);
}

/** Where the rates step: indices that start a new zone (besides 0), ascending. */
export function changePoints(rates: readonly number[], step = ZONE_STEP, minZone = MIN_ZONE_SAMPLES): number[] {
  const cuts: number[] = [];
  // Prefix sums: a segment's sum of squared deviations in O(1), so 10,000 samples stay quick.
  const sum = [0];
  const squares = [0];
  for (const r of rates) {
    sum.push(sum.at(-1)! + r);
    squares.push(squares.at(-1)! + r * r);
  }
  const sse = (lo: number, hi: number) => squares[hi]! - squares[lo]! - (sum[hi]! - sum[lo]!) ** 2 / (hi - lo);
  const split = (lo: number, hi: number) => {
    if (hi - lo < 2 * minZone) return;
    let best = -1;
    let bestCost = Infinity;
    for (let k = lo + minZone; k <= hi - minZone; k++) {
      const cost = sse(lo, k) + sse(k, hi);
      if (cost < bestCost) [best, bestCost] = [k, cost];
    }
    if (best < 0) return;
    const left = rates.slice(lo, best);
    const right = rates.slice(best, hi);
    const a = median(left);
    const b = median(right);
    if (Math.abs(a - b) / Math.max(a, b) < step) return;
    // And more than the samples' own scatter could make: three standard errors of the two
    // medians apart (robust: from the median absolute deviation). A few noisy samples at a
    // disk's edge (a guest's vCPU held up mid-read) are not a zone.
    if (Math.abs(a - b) < SIGNIFICANT_ERRORS * Math.hypot(medianError(left, a), medianError(right, b))) return;
    cuts.push(best);
    split(lo, best);
    split(best, hi);
  };
  split(0, rates.length);
  return cuts.sort((a, b) => a - b);
}

/**
 * Where the boundary between two zones lies. `before` is the last sample of the zone with rate
 * ra, `after` the first of the one with rate rb. A sample whose rate lies between the two
 * straddles the boundary: solved from its time (x/ra + (bytes−x)/rb = its time). Otherwise the
 * middle of the unread gap between the two samples.
 */
function boundaryBetween(before: SurfacePoint, after: SurfacePoint, ra: number, rb: number): number {
  const between = (p: SurfacePoint) => {
    const lo = Math.min(ra, rb);
    const hi = Math.max(ra, rb);
    // Between, by more than a twentieth of the step from either level: a pure sample's noise
    // stays within that, while a boundary a fifth of the way into a sample moves it a fifth.
    const margin = (hi - lo) / 20;
    return p.bytesPerSec > lo + margin && p.bytesPerSec < hi - margin;
  };
  for (const p of [before, after]) {
    if (!between(p)) continue;
    const bytes = p.timedTo - p.timedFrom;
    const time = bytes / p.bytesPerSec;
    const x = (time - bytes / rb) / (1 / ra - 1 / rb);
    return p.timedFrom + Math.min(bytes, Math.max(0, x));
  }
  return (before.timedTo + after.timedFrom) / 2;
}

/** The zones of a curve, each with its byte range and level. */
function surfaceZones(points: readonly SurfacePoint[], deviceBytes: number, step = ZONE_STEP): SurfaceZone[] {
  if (points.length === 0) return [];
  const rates = points.map((p) => p.bytesPerSec);
  const starts = [0, ...changePoints(rates, step), points.length];
  const groups = starts.slice(0, -1).map((s, i) => points.slice(s, starts[i + 1]));
  // A sample straddling a boundary is kept out of its zone's level (it is neither zone's speed).
  const levels = groups.map((g) => median(g.map((p) => p.bytesPerSec)));
  const edges = [0];
  for (let i = 1; i < groups.length; i++) edges.push(boundaryBetween(groups[i - 1]!.at(-1)!, groups[i]![0]!, levels[i - 1]!, levels[i]!));
  edges.push(deviceBytes);
  return groups.map((g, i) => {
    const pure = g.filter((p) => p.timedFrom >= edges[i]! && p.timedTo <= edges[i + 1]!);
    const kept = pure.length ? pure : g;
    const r = kept.map((p) => p.bytesPerSec);
    return {
      start: edges[i]!,
      end: edges[i + 1]!,
      bytesPerSec: median(r),
      low: Math.min(...r),
      high: Math.max(...r),
      samples: g.length,
    };
  });
}

export function analyzeSurface(reads: readonly SurfaceRead[], accessNs: readonly number[], deviceBytes: number): SurfaceAnalysis {
  const points = surfaceCurve(reads);
  const zones = surfaceZones(points, deviceBytes);
  let slowest: number | null = null;
  zones.forEach((z, i) => {
    if (slowest === null || z.bytesPerSec < zones[slowest]!.bytesPerSec) slowest = i;
  });
  const sorted = [...accessNs].sort((a, b) => a - b);
  return {
    deviceBytes,
    points,
    zones,
    slowest,
    accessNs: sorted.length ? { median: median(sorted), p90: percentile(sorted, 0.9), count: sorted.length } : null,
  };
}

// ---- Stored as figures (the library, JSON and CSV carry them, compare shows them). ----

/** A point's subject: "OFFSET+BYTES", so the curve comes back from the stored figures alone. */
const subjectOf = (r: SurfaceRead) => `${r.offset}+${r.bytes}`;

/** The result's figures: the device's span, one per sample (each read's rate as passes), the access times, the slowest zone. */
export function surfaceFigures(reads: readonly SurfaceRead[], accessNs: readonly number[], deviceBytes: number): Figure[] {
  const analysis = analyzeSurface(reads, accessNs, deviceBytes);
  const figures: Figure[] = [
    { metric: 'surfaceDeviceBytes', subject: '', value: deviceBytes, unit: 'bytes', provenance: 'measured' },
    ...reads.map((r): Figure => ({
      metric: 'surfaceBytesPerSec',
      subject: subjectOf(r),
      // The curve's rate (the first read left out), so what is stored is what is drawn.
      value: surfacePoint(r).bytesPerSec,
      unit: 'bytes/s',
      provenance: 'measured',
      passes: r.readNs.map((ns) => (r.bytes / r.readNs.length / ns) * 1e9),
    })),
  ];
  if (analysis.accessNs)
    figures.push({
      metric: 'accessTimeNs',
      subject: '',
      value: analysis.accessNs.median,
      unit: 'ns',
      provenance: 'measured',
      basis: `median of ${accessNs.length} random 4 KiB reads, one at a time`,
      passes: [...accessNs],
    });
  const slow = analysis.slowest === null ? null : analysis.zones[analysis.slowest]!;
  if (slow)
    figures.push({
      metric: 'slowestZoneBytesPerSec',
      subject: '',
      value: slow.bytesPerSec,
      unit: 'bytes/s',
      provenance: 'measured',
      basis: `${formatBytes(slow.start)} to ${formatBytes(slow.end)} of ${formatBytes(deviceBytes)}, from the disk's start (its outer tracks)`,
    });
  return figures;
}

/** The analysis of a stored surface result (from its figures); null when it is not one. */
export function surfaceOfResult(result: Pick<TestResult, 'test' | 'figures'>): SurfaceAnalysis | null {
  if (result.test !== SURFACE_TEST || !result.figures) return null;
  const device = result.figures.find((f) => f.metric === 'surfaceDeviceBytes')?.value;
  if (device === undefined || device === null) return null;
  const reads: SurfaceRead[] = [];
  for (const f of result.figures) {
    if (f.metric !== 'surfaceBytesPerSec' || f.value === null) continue;
    const m = /^(\d+)\+(\d+)$/.exec(f.subject);
    if (!m) continue;
    const bytes = Number(m[2]);
    // Each read's time back from its rate; a figure without passes is one read.
    const rates = f.passes?.length ? f.passes : [f.value];
    reads.push({ offset: Number(m[1]), bytes, readNs: rates.map((r) => (bytes / rates.length / r) * 1e9) });
  }
  const access = result.figures.find((f) => f.metric === 'accessTimeNs')?.passes ?? [];
  return analyzeSurface(reads, access, device);
}
