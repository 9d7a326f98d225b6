// The sustained write's ground truth (issue "What decides an SSD purchase"): QEMU's throttle with
// bursts is an SLC cache of known size, speeds and recovery. `throttling.bps-write-max` and
// `-max-length` over `throttling.bps-write` make util/throttle.c's leaky bucket let writes run at
// the burst rate until the bucket's level reaches max × length, then at the average rate; idle
// time drains it at the average rate. The figures a measurement is held to are derived here by
// running that algorithm itself, request by request, for the stream the worker writes.
//
// util/throttle.c (QEMU 7.2), for one write bucket with avg, max and burst_length > 1:
//   leak(Δt):    level -= avg·Δt (≥ 0); burst_level -= max·Δt (≥ 0)
//   wait:        level > max·burst_length         → (level − max·burst_length) / avg
//                else burst_level > max / 10      → (burst_level − max/10) / max
//   account(n):  level += n; burst_level += n     (when a request goes through)
// The guest writes at QD1 with no time of its own (the disk is a sparse file on a fast host), so
// each request goes out as soon as the one before is through.

export interface ThrottleShape {
  /** throttling.bps-write: the speed past the cache, bytes/s. */
  avg: number;
  /** throttling.bps-write-max: the speed in the cache, bytes/s. */
  max: number;
  /** throttling.bps-write-max-length, whole seconds (> 1: QEMU keeps the burst rate only then). */
  lengthSec: number;
}

export interface ThrottleTruth {
  /** Bytes written when the first request waited on the main bucket: the cache. */
  cacheBytes: number;
  fastBytesPerSec: number;
  slowBytesPerSec: number;
  /** Bytes written after the rest before the first such wait: the cache that came back. */
  regainedBytes: number;
}

interface Bucket {
  level: number;
  burst: number;
}

/**
 * One stream of `total` bytes in `block` requests through the bucket; `bucket` carries the levels
 * in and out. Returns the bytes that went through before the first wait on the main bucket
 * (all of them when none waited) and the stream's duration.
 */
function stream(shape: ThrottleShape, bucket: Bucket, total: number, block: number): { fastBytes: number; sec: number } {
  const size = shape.max * shape.lengthSec;
  let t = 0;
  let last = 0;
  let bytes = 0;
  let fastBytes: number | null = null;
  const leak = () => {
    const dt = t - last;
    last = t;
    bucket.level = Math.max(0, bucket.level - shape.avg * dt);
    bucket.burst = Math.max(0, bucket.burst - shape.max * dt);
  };
  while (bytes < total) {
    leak();
    // (A wait under a byte's worth is rounding, not a wait: QEMU computes whole nanoseconds.)
    const main = bucket.level - size;
    if (main > 1e-3) {
      fastBytes ??= bytes;
      t += Math.max(main / shape.avg, 1e-9);
      continue;
    }
    const burst = bucket.burst - shape.max / 10;
    if (burst > 1e-3) {
      t += Math.max(burst / shape.max, 1e-9);
      continue;
    }
    const n = Math.min(block, total - bytes);
    bucket.level += n;
    bucket.burst += n;
    bytes += n;
  }
  return { fastBytes: fastBytes ?? bytes, sec: t };
}

/**
 * What a sustained write of `span` bytes, then `recovery` bytes after `restSec` idle, meets on a
 * disk so throttled: the cache size, the two speeds and the cache regained, by the algorithm.
 */
export function throttleTruth(shape: ThrottleShape, o: { span: number; block: number; restSec: number; recovery: number }): ThrottleTruth {
  const bucket: Bucket = { level: 0, burst: 0 };
  const fill = stream(shape, bucket, o.span, o.block);
  bucket.level = Math.max(0, bucket.level - shape.avg * o.restSec);
  bucket.burst = Math.max(0, bucket.burst - shape.max * o.restSec);
  const again = stream(shape, bucket, o.recovery, o.block);
  return { cacheBytes: fill.fastBytes, fastBytesPerSec: shape.max, slowBytesPerSec: shape.avg, regainedBytes: again.fastBytes };
}

/** The closed form of the same: bytes at the burst rate until level = max·length (level grows at max − avg). */
export function throttleClosedForm(shape: ThrottleShape, restSec: number): { cacheBytes: number; regainedBytes: number } {
  const { avg, max, lengthSec } = shape;
  // The burst bucket lets max/10 through at once, then max per second.
  const fillSec = (max * lengthSec - max / 10) / (max - avg);
  const regainSec = Math.max(0, (avg * restSec - max / 10) / (max - avg));
  return { cacheBytes: max / 10 + max * fillSec, regainedBytes: Math.min(max / 10 + max * regainSec, max / 10 + max * fillSec) };
}

/** QEMU's -drive options for the shape. */
export function throttleOptions(shape: ThrottleShape): string {
  return `throttling.bps-write=${shape.avg},throttling.bps-write-max=${shape.max},throttling.bps-write-max-length=${shape.lengthSec}`;
}

/**
 * The tolerance a figure is judged with: the issue's, widened by the noise this run measured in
 * it (two standard errors of the mean interval rate: spread / √intervals × 2). Past `ceiling`,
 * or from under 3 intervals, the run was too noisy to say anything: null, "not judged".
 */
export function toleranceOf(base: number, spread: number | null, intervals: number, ceiling: number): number | null {
  // Under 3 intervals there is no spread to speak of (a starved guest leaves a segment that short).
  if (spread === null || intervals < 3) return null;
  const noise = (2 * spread) / Math.sqrt(intervals);
  return noise > ceiling ? null : base + noise;
}
