// The LRU curve against a tiny reference simulator written here the plain way (a list in
// recency order, evicting the least recent until what is left fits), on a scripted trace with
// files of different sizes, re-reads, a file that grows, and one larger than the smaller caches.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byteStackDistances, cacheSentence, lruCurve, type Access } from './lru-curve.ts';
import { formatDiskSize } from './working-set.ts';

/** Bytes served by an LRU cache of `capacity` bytes, simulated access by access. */
function simulate(trace: readonly Access[], capacity: number): number {
  return simulateServed(trace, capacity).bytes;
}

/** Bytes and accesses an LRU cache of `capacity` bytes would have served. */
function simulateServed(trace: readonly Access[], capacity: number): { bytes: number; touches: number } {
  let cache: Access[] = []; // most recent first
  let served = 0;
  let touches = 0;
  for (const access of trace) {
    if (cache.some((c) => c.key === access.key)) {
      served += access.bytes;
      touches += 1;
    }
    cache = [access, ...cache.filter((c) => c.key !== access.key)];
    let total = cache.reduce((n, c) => n + c.bytes, 0);
    while (total > capacity && cache.length > 0) total -= cache.pop()!.bytes;
  }
  return { bytes: served, touches };
}

// A scripted hour: a project's files read over and over, a film read once, a log that grows.
const HOUR: Access[] = [];
for (let minute = 0; minute < 60; minute++) {
  HOUR.push({ key: `src-${minute % 5}`, bytes: 10 + (minute % 5) });
  if (minute % 10 === 0) HOUR.push({ key: 'log', bytes: 20 + minute });
  if (minute === 30) HOUR.push({ key: 'film', bytes: 500 });
  if (minute % 7 === 0) HOUR.push({ key: `doc-${minute % 3}`, bytes: 40 });
}

describe('LRU miss-ratio curve', () => {
  it('matches the reference simulator at every cache size of the scripted hour', () => {
    const total = HOUR.reduce((n, a) => n + a.bytes, 0);
    const sizes = [0, 10, 30, 60, 100, 150, 200, 400, 600, 1000];
    const curve = lruCurve(HOUR, sizes);
    assert.equal(curve.accessedBytes, total);
    for (const point of curve.points) assert.equal(point.hitRatio, simulate(HOUR, point.cacheBytes) / total, `${point.cacheBytes} bytes`);
    // The accesses each size serves (the replay forecast's accesses that went to the disk are the rest).
    for (const point of curve.points)
      assert.equal(point.hitTouches, simulateServed(HOUR, point.cacheBytes).touches, `${point.cacheBytes} bytes: touches`);
    assert.ok(curve.points.at(-1)!.hitRatio > curve.points[1]!.hitRatio, 'a larger cache serves more');
  });

  it('distances by hand: a b a c b a with sizes 1, 2, 4', () => {
    const trace = [
      { key: 'a', bytes: 1 },
      { key: 'b', bytes: 2 },
      { key: 'a', bytes: 1 },
      { key: 'c', bytes: 4 },
      { key: 'b', bytes: 2 },
      { key: 'a', bytes: 1 },
    ];
    assert.deepEqual(byteStackDistances(trace), [Infinity, Infinity, 3, Infinity, 7, 7]);
    const curve = lruCurve(trace, [3, 7]);
    assert.equal(curve.distinctBytes, 7);
    assert.deepEqual(
      curve.points.map((p) => p.hitRatio),
      [1 / 11, 4 / 11],
    );
    assert.equal(cacheSentence(curve, 7, 9, formatDiskSize), 'a 7 B cache would have served 36 % of the bytes read in these 9 days');
    assert.equal(cacheSentence(curve, 5, 9, formatDiskSize), null, 'a size the curve was not computed for');
  });

  it('built one access at a time past many renumberings of its tree, it matches the simulator', () => {
    // 5,000 accesses of 40 files (sizes 1..40, some growing): the tree of 1,024 positions is
    // renumbered every ~950 accesses, and the answer must not move.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const trace: Access[] = Array.from({ length: 5000 }, (_, i) => {
      const n = Math.floor(next() * next() * 40);
      return { key: `f${n}`, bytes: n + 1 + (n % 7 === 0 ? Math.floor(i / 1000) : 0) };
    });
    const total = trace.reduce((n, a) => n + a.bytes, 0);
    const sizes = [0, 5, 50, 200, 400, 800, 1000];
    for (const point of lruCurve(trace, sizes).points) {
      assert.equal(point.hitRatio, simulate(trace, point.cacheBytes) / total, `${point.cacheBytes} bytes`);
      assert.equal(point.hitTouches, simulateServed(trace, point.cacheBytes).touches, `${point.cacheBytes} bytes: touches`);
    }
  });
});
