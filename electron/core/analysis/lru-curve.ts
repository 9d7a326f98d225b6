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
}

export interface CurvePoint {
  cacheBytes: number;
  /** Share of the accessed bytes a cache of this size would have served, 0..1. */
  hitRatio: number;
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
  constructor(n: number) {
    this.tree = new Float64Array(n + 1);
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

export function lruCurve(trace: readonly Access[], cacheSizes: readonly number[]): LruCurve {
  const distances = byteStackDistances(trace);
  const accessedBytes = trace.reduce((n, a) => n + a.bytes, 0);
  const lastSize = new Map(trace.map((a) => [a.key, a.bytes]));
  const points = [...cacheSizes]
    .sort((a, b) => a - b)
    .map((cacheBytes) => {
      let hit = 0;
      distances.forEach((d, i) => {
        if (d <= cacheBytes) hit += trace[i]!.bytes;
      });
      return { cacheBytes, hitRatio: accessedBytes > 0 ? hit / accessedBytes : 0 };
    });
  return { accesses: trace.length, accessedBytes, distinctBytes: [...lastSize.values()].reduce((n, b) => n + b, 0), points };
}

/** "A 256 GB cache would have served 97 % of the bytes read in these 9 days" (the point of that size). */
export function cacheSentence(curve: LruCurve, cacheBytes: number, days: number, size: (bytes: number) => string): string | null {
  const point = curve.points.find((p) => p.cacheBytes === cacheBytes);
  if (!point) return null;
  const pct = point.hitRatio * 100;
  const span = days >= 1.5 ? `${Math.round(days)} days` : `${Math.round(days * 24)} hours`;
  return `a ${size(cacheBytes)} cache would have served ${pct >= 99.5 || pct < 1 ? pct.toFixed(1) : pct.toFixed(0)} % of the bytes read in these ${span}`;
}
