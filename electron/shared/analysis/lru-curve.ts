// The hit ratio an LRU cache of each size would have had on a trace of file accesses (a
// miss-ratio curve, as libCacheSim computes them), for the recorder of issue 30 item 2: which
// SSD cache (bcache, lvmcache) would have served what share of the bytes read. Whole files are
// cached (the recorder sees opens, not byte ranges), so an access counts its file's size.
//
// The cache is the longest run of most recently used files that fits in its size, so a file
// hits in a cache of C bytes exactly when its byte stack distance (its own size plus the sizes
// of the distinct files used since its last access) is at most C: one pass gives every size's
// answer (Mattson et al.'s stack algorithm), the distances summed with a Fenwick tree over the
// trace's positions, O(n log n).
//
// Pure: the renderer may bundle it.

export interface Access {
  /** The file's identity (the recorder keeps a hash of it, never its path). */
  key: string;
  bytes: number;
  /**
   * Not a new access: the file's last one, seen later at this size (the recorder's "s" line: a
   * file that grew under the writes merged into one touch). Its place in the stack stays; bytes
   * it grew by were written by that touch, so they count as accessed, and miss.
   */
  amends?: boolean;
}

export interface CurvePoint {
  cacheBytes: number;
  /** Share of the accessed bytes a cache of this size would have served, 0..1. */
  hitRatio: number;
  /**
   * Accesses (touches) it would have served; the rest went to the disk. Absent from a curve kept
   * by an older DiskDelta (before the replay forecast, issue #42): only the bytes were kept.
   */
  hitTouches?: number;
}

export interface LruCurve {
  accesses: number;
  accessedBytes: number;
  /** Distinct bytes: each file once, at its last size. */
  distinctBytes: number;
  points: CurvePoint[];
}

class Fenwick {
  private readonly tree: Float64Array;
  readonly size: number;
  constructor(size: number) {
    this.size = size;
    this.tree = new Float64Array(size + 1);
  }
  add(i: number, value: number): void {
    for (let j = i + 1; j < this.tree.length; j += j & -j) this.tree[j]! += value;
  }
  /** Sum of positions 0..i. */
  prefix(i: number): number {
    let sum = 0;
    for (let j = i + 1; j > 0; j -= j & -j) sum += this.tree[j]!;
    return sum;
  }
}

/**
 * Each access's byte stack distance: the file's size when last used plus the sizes of the
 * distinct files used since; Infinity for a file's first access (a cold miss at any size).
 */
export function byteStackDistances(trace: readonly Access[]): number[] {
  const tree = new Fenwick(trace.length);
  const last = new Map<string, { at: number; bytes: number }>();
  return trace.map((access, t) => {
    const before = last.get(access.key);
    let distance = Infinity;
    if (before) {
      // Its size when it was cached: a file that grew since was held at its old size.
      distance = tree.prefix(t - 1) - tree.prefix(before.at) + before.bytes;
      tree.add(before.at, -before.bytes);
    }
    tree.add(t, access.bytes);
    last.set(access.key, { at: t, bytes: access.bytes });
    return distance;
  });
}

/**
 * The curve built one access at a time, in memory bounded by the distinct files, not by the
 * trace's length (a recording runs for days: issue 38 item 3). Positions in the tree are handed
 * out in access order; only each file's last one holds its size, so when the tree is full the
 * live positions are renumbered in order into a fresh tree twice their count (the distances,
 * sums over a range of positions, are unchanged).
 */
export class LruCurveBuilder {
  private readonly sizes: number[];
  /** Bytes of the accesses whose distance first fits sizes[i]. */
  private readonly servedFrom: Float64Array;
  /** How many accesses' distance first fits sizes[i]. */
  private readonly touchesFrom: Float64Array;
  private tree = new Fenwick(1024);
  private next = 0;
  private readonly last = new Map<string, { at: number; bytes: number }>();
  private accesses = 0;
  private accessedBytes = 0;

  constructor(cacheSizes: readonly number[]) {
    this.sizes = [...cacheSizes].sort((a, b) => a - b);
    this.servedFrom = new Float64Array(this.sizes.length);
    this.touchesFrom = new Float64Array(this.sizes.length);
  }

  add(access: Access): void {
    if (access.amends) {
      this.amend(access);
      return;
    }
    if (this.next === this.tree.size) this.renumber();
    const t = this.next++;
    const before = this.last.get(access.key);
    if (before) {
      // Its size when it was cached: a file that grew since was held at its old size.
      const distance = this.tree.prefix(t - 1) - this.tree.prefix(before.at) + before.bytes;
      this.tree.add(before.at, -before.bytes);
      const fits = this.firstSizeAtLeast(distance);
      if (fits < this.sizes.length) {
        this.servedFrom[fits]! += access.bytes;
        this.touchesFrom[fits]! += 1;
      }
      before.at = t;
      before.bytes = access.bytes;
    } else this.last.set(access.key, { at: t, bytes: access.bytes });
    this.tree.add(t, access.bytes);
    this.accesses += 1;
    this.accessedBytes += access.bytes;
  }

  private amend(access: Access): void {
    const before = this.last.get(access.key);
    if (!before) return; // its touch was not sized: it is not in the curve either
    this.tree.add(before.at, access.bytes - before.bytes);
    this.accessedBytes += Math.max(0, access.bytes - before.bytes);
    before.bytes = access.bytes;
  }

  result(): LruCurve {
    let hit = 0;
    let hitTouches = 0;
    const points = this.sizes.map((cacheBytes, i) => {
      hit += this.servedFrom[i]!;
      hitTouches += this.touchesFrom[i]!;
      return { cacheBytes, hitRatio: this.accessedBytes > 0 ? hit / this.accessedBytes : 0, hitTouches };
    });
    let distinctBytes = 0;
    for (const { bytes } of this.last.values()) distinctBytes += bytes;
    return { accesses: this.accesses, accessedBytes: this.accessedBytes, distinctBytes, points };
  }

  private firstSizeAtLeast(distance: number): number {
    let lo = 0;
    let hi = this.sizes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sizes[mid]! >= distance) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private renumber(): void {
    const live = [...this.last.values()].sort((a, b) => a.at - b.at);
    this.tree = new Fenwick(Math.max(1024, 2 * live.length));
    live.forEach((entry, i) => {
      entry.at = i;
      this.tree.add(i, entry.bytes);
    });
    this.next = live.length;
  }
}

export function lruCurve(trace: Iterable<Access>, cacheSizes: readonly number[]): LruCurve {
  const builder = new LruCurveBuilder(cacheSizes);
  for (const access of trace) builder.add(access);
  return builder.result();
}

/** "A 256 GB cache would have served 97 % of the bytes read in these 9 days" (the point of that size). */
export function cacheSentence(curve: LruCurve, cacheBytes: number, days: number, size: (bytes: number) => string): string | null {
  const point = curve.points.find((p) => p.cacheBytes === cacheBytes);
  if (!point) return null;
  const pct = point.hitRatio * 100;
  const span = days >= 1.5 ? `${Math.round(days)} days` : `${Math.round(days * 24)} hours`;
  return `a ${size(cacheBytes)} cache would have served ${pct >= 99.5 || pct < 1 ? pct.toFixed(1) : pct.toFixed(0)} % of the bytes read in these ${span}`;
}
