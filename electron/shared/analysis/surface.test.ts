// The surface analysis on synthetic curves of known truth: a device of two parts of known speed
// (the lab's dm-linear concatenation), a flat disk, an HDD's gradual fall, noise, and the round
// trip through the stored figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSurface, changePoints, surfaceFigures, surfaceOfResult, SURFACE_TEST, type SurfaceRead } from './surface.ts';

const MiB = 2 ** 20;

/** A deterministic noise source in [-1, 1]. */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

/**
 * Samples as the worker takes them over a device whose speed at byte x is speedAt(x): each read
 * of `block` bytes takes the time its bytes take at their speeds (a read across a boundary is
 * part at each), times (1 ± jitter).
 */
function sampled(
  device: number,
  n: number,
  sampleBytes: number,
  block: number,
  speedAt: (x: number) => number,
  jitter = 0,
  seed = 1,
): SurfaceRead[] {
  const rnd = noise(seed);
  const last = device - sampleBytes;
  return Array.from({ length: n }, (_, i) => {
    let offset = Math.floor((last * i) / (n - 1));
    offset -= offset % block;
    const readNs: number[] = [];
    for (let r = 0; r < sampleBytes / block; r++) {
      let ns = 0;
      // 4 KiB steps: exact enough for a boundary inside a read.
      for (let x = offset + r * block; x < offset + (r + 1) * block; x += 4096) ns += (4096 / speedAt(x)) * 1e9;
      readNs.push(ns * (1 + jitter * rnd()));
    }
    return { offset, bytes: sampleBytes, readNs };
  });
}

test('two parts of known speed: each part its speed ±5 %, the boundary within 2 % of its offset, the slower named', () => {
  // The lab's shape: 96 MiB at 8 MiB/s then 160 MiB at 20 MiB/s; the boundary off the sample grid.
  const device = 256 * MiB;
  const boundary = 96 * MiB;
  const speed = (x: number) => (x < boundary ? 8 * MiB : 20 * MiB);
  const a = analyzeSurface(sampled(device, 100, 2 * MiB, 512 * 1024, speed, 0.03), [], device);
  assert.equal(a.zones.length, 2, JSON.stringify(a.zones));
  const [outer, inner] = a.zones as [(typeof a.zones)[0], (typeof a.zones)[0]];
  assert.ok(Math.abs(outer.bytesPerSec / (8 * MiB) - 1) <= 0.05, `outer part ${outer.bytesPerSec / MiB} MiB/s`);
  assert.ok(Math.abs(inner.bytesPerSec / (20 * MiB) - 1) <= 0.05, `inner part ${inner.bytesPerSec / MiB} MiB/s`);
  assert.ok(Math.abs(outer.end - boundary) <= 0.02 * boundary, `boundary at ${outer.end / MiB} MiB, truth 96`);
  assert.equal(outer.end, inner.start);
  assert.equal(outer.start, 0);
  assert.equal(inner.end, device);
  assert.equal(a.slowest, 0, 'the outer part is the slower');
});

test('a sample straddling the boundary places it inside that sample (exact without noise)', () => {
  const device = 100 * MiB;
  // 11 samples of 4 MiB, 9.6 MiB apart: the one at 48 MiB reads 48..52, the boundary at 50.
  const boundary = 50 * MiB;
  const reads = sampled(device, 11, 4 * MiB, MiB, (x) => (x < boundary ? 100 * MiB : 50 * MiB));
  assert.ok(
    reads.some((r) => r.offset < boundary && r.offset + r.bytes > boundary),
    'the grid has a straddling sample',
  );
  const a = analyzeSurface(reads, [], device);
  assert.equal(a.zones.length, 2);
  assert.ok(Math.abs(a.zones[0]!.end - boundary) < 0.001 * boundary, `boundary ${a.zones[0]!.end / MiB} MiB`);
  // The straddling sample is neither zone's speed: kept out of both levels.
  assert.ok(Math.abs(a.zones[0]!.bytesPerSec / (100 * MiB) - 1) < 1e-6);
  assert.ok(Math.abs(a.zones[1]!.bytesPerSec / (50 * MiB) - 1) < 1e-6);
  assert.equal(a.slowest, 1);
});

test('a flat disk with 4 % noise is one zone over the whole device', () => {
  const device = 64 * MiB;
  const a = analyzeSurface(
    sampled(device, 100, MiB, MiB, () => 150e6, 0.04, 7),
    [],
    device,
  );
  assert.equal(a.zones.length, 1);
  assert.deepEqual([a.zones[0]!.start, a.zones[0]!.end], [0, device]);
  assert.ok(Math.abs(a.zones[0]!.bytesPerSec / 150e6 - 1) < 0.02);
});

test("an HDD's fall from 200 to 100 MB/s: zones slower inward, the slowest the innermost, ending at the device's end", () => {
  const device = 1e12;
  const a = analyzeSurface(
    sampled(device, 100, 4 * MiB, 4 * MiB, (x) => 200e6 - (100e6 * x) / device, 0.02, 3),
    [],
    device,
  );
  assert.ok(a.zones.length >= 3, `${a.zones.length} zones`);
  for (let i = 1; i < a.zones.length; i++)
    assert.ok(a.zones[i]!.bytesPerSec < a.zones[i - 1]!.bytesPerSec, 'each zone slower than the one outside it');
  assert.equal(a.slowest, a.zones.length - 1);
  assert.equal(a.zones.at(-1)!.end, device);
  assert.ok(a.zones.at(-1)!.bytesPerSec < 120e6);
});

test('change points: none in a constant series, one at a step, none for a single odd sample', () => {
  assert.deepEqual(changePoints([5, 5, 5, 5, 5, 5]), []);
  assert.deepEqual(changePoints([5, 5, 5, 5, 9, 9, 9, 9]), [4]);
  assert.deepEqual(changePoints([5, 5, 5, 9, 5, 5, 5, 5]), []);
});

test('the access time: median and 90th percentile of the random reads; none without them', () => {
  const a = analyzeSurface([], [9e6, 1e6, 5e6, 7e6, 3e6, 2e6, 4e6, 6e6, 8e6, 10e6], 1);
  // The 90th percentile interpolated between the 9th and 10th of 10 (statistics.ts's percentile).
  assert.deepEqual(a.accessNs, { median: 5.5e6, p90: 9.1e6, count: 10 });
  assert.equal(analyzeSurface([], [], 1).accessNs, null);
  assert.equal(analyzeSurface([], [], 1).slowest, null);
});

test('stored as figures and read back: the same curve, zones and access time', () => {
  const device = 256 * MiB;
  const reads = sampled(device, 40, 2 * MiB, 512 * 1024, (x) => (x < 96 * MiB ? 8 * MiB : 20 * MiB), 0.03);
  const access = [1e6, 2e6, 3e6];
  const figures = surfaceFigures(reads, access, device);
  const back = surfaceOfResult({ test: SURFACE_TEST, figures });
  const direct = analyzeSurface(reads, access, device);
  assert.ok(back);
  assert.equal(back.zones.length, direct.zones.length);
  back.zones.forEach((z, i) => {
    assert.ok(Math.abs(z.bytesPerSec / direct.zones[i]!.bytesPerSec - 1) < 1e-9);
    assert.ok(Math.abs(z.end - direct.zones[i]!.end) < 1);
  });
  assert.deepEqual(back.accessNs, direct.accessNs);
  const slowest = figures.find((f) => f.metric === 'slowestZoneBytesPerSec');
  assert.ok(slowest && Math.abs(slowest.value! / (8 * MiB) - 1) < 0.05);
  assert.equal(surfaceOfResult({ test: 'seq-read', figures }), null, 'another test is not a surface');
});

test("each stored sample's rate is its curve point's (the first read left out), not the whole sample's", () => {
  const device = 64 * MiB;
  const reads = sampled(device, 12, 4 * MiB, MiB, () => 10 * MiB).map((r) => ({
    ...r,
    readNs: r.readNs.map((ns, i) => (i === 0 ? ns * 5 : ns)), // the seek in the first read
  }));
  const points = analyzeSurface(reads, [], device).points;
  const stored = surfaceFigures(reads, [], device).filter((f) => f.metric === 'surfaceBytesPerSec');
  assert.equal(stored.length, points.length);
  for (const f of stored) {
    const point = points.find((p) => `${p.offset}+${p.bytes}` === f.subject)!;
    assert.ok(Math.abs(f.value! / point.bytesPerSec - 1) < 1e-9, `${f.subject}: stored ${f.value}, drawn ${point.bytesPerSec}`);
    assert.ok(Math.abs(f.value! / (10 * MiB) - 1) < 1e-6, 'the transfer rate, not dragged down by the seek');
  }
});

test("a sample's first read is not its rate: a burst after the pause (a throttle's bucket) or a seek does not move the curve", () => {
  // QEMU's throttle lets a tenth of a second's bytes through at once after a pause, so the first
  // read of each sample is near-instant; on an HDD the first read carries the seek instead.
  const device = 128 * MiB;
  const speed = (x: number) => (x < 48 * MiB ? 8 * MiB : 16 * MiB);
  for (const factor of [0.1, 5]) {
    const reads = sampled(device, 40, 4 * MiB, MiB, speed).map((r) => ({
      ...r,
      readNs: r.readNs.map((ns, i) => (i === 0 ? ns * factor : ns)),
    }));
    const a = analyzeSurface(reads, [], device);
    assert.equal(a.zones.length, 2, `first read ×${factor}`);
    assert.ok(Math.abs(a.zones[0]!.bytesPerSec / (8 * MiB) - 1) < 1e-6, `first read ×${factor}: ${a.zones[0]!.bytesPerSec / MiB}`);
    assert.ok(Math.abs(a.zones[1]!.bytesPerSec / (16 * MiB) - 1) < 1e-6);
    assert.ok(Math.abs(a.zones[0]!.end - 48 * MiB) <= 0.02 * 48 * MiB);
  }
});

test('a few scattered samples at the start of a part are not a zone of their own (the lab guest under load)', () => {
  // Measured in the QEMU lab (8 and 16 MiB/s parts): the second disk's first three samples
  // scattered as a loaded host held the guest's vCPU up mid-read.
  const rates = [8.0, 8.01, 7.98, 8.02, 8.0, 8.01, 20.96, 13.07, 18.73, 16.08, 16.84, 16.11, 15.83, 16.97, 15.39, 16.2, 15.9, 16.05];
  assert.deepEqual(changePoints(rates), [6]);
});
