// The surface kind's read size: every sample a whole number of reads, at least two where it can
// be (a sample's rate is its reads after the first), none over 1 MiB, each a multiple of 4 KiB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { surfaceBlock, surfaceKind, surfaceReadOf } from './surface.ts';
import { surfaceArgv } from '../worker-argv.ts';
import { DEFAULT_PRESET, PRESETS } from '../../../shared/catalog/presets.ts';

const KiB = 1024;
const MiB = 2 ** 20;

test('the read size: a whole number of reads, at least two, at most 1 MiB, a multiple of 4 KiB', () => {
  for (const sample of [4 * KiB, 8 * KiB, 12 * KiB, 64 * KiB, MiB, 1.5 * MiB, 2 * MiB, 4 * MiB, 8 * MiB + 4 * KiB, 64 * MiB]) {
    const block = surfaceBlock(sample);
    assert.equal(sample % block, 0, `${sample}: whole reads`);
    assert.equal(block % 4096, 0, `${sample}: a multiple of 4 KiB`);
    assert.ok(block <= MiB, `${sample}: at most 1 MiB`);
    if (sample > 4 * KiB) assert.ok(sample / block >= 2, `${sample}: at least two reads (${block})`);
  }
  assert.equal(surfaceBlock(4 * MiB), MiB);
  assert.equal(surfaceBlock(MiB), 512 * KiB, 'a 1 MiB sample: two reads, the second timed');
});

test('an odd sample size is a few long reads, not a thousand 4 KiB ones (the transfer, not the latency)', () => {
  // 4 MiB + 4 KiB is 1025 pages = 5 x 5 x 41: the largest divisor up to 256 is 205.
  assert.equal(surfaceBlock(4 * MiB + 4 * KiB), 205 * 4 * KiB);
  // 12 KiB: three pages, a prime: only 4 KiB reads split it into two or more.
  assert.equal(surfaceBlock(12 * KiB), 4 * KiB);
  assert.equal(surfaceBlock(1.5 * MiB), 768 * KiB);
  for (let pages = 2; pages <= 2048; pages++) {
    const sample = pages * 4 * KiB;
    const block = surfaceBlock(sample);
    const larger = Array.from({ length: 256 }, (_, i) => (i + 1) * 4 * KiB).filter((b) => b > block && sample % b === 0 && b <= sample / 2);
    assert.deepEqual(larger, [], `${sample}: ${block} is the largest fitting read`);
  }
});

test("the worker's argv from the run settings table: each setting once, by its worker option", () => {
  const plan = surfaceKind.plan(
    { target: '/dev/sdz', surfaceSamples: 7, surfaceSampleBytes: 4 * MiB + 4 * KiB, surfaceAccesses: 3 },
    PRESETS[DEFAULT_PRESET],
    ['surface'],
  );
  assert.deepEqual(surfaceKind.planSchema.parse(plan), plan);
  const argv = surfaceArgv(surfaceKind.planSchema.parse(plan));
  assert.deepEqual(argv, [
    'surface',
    '--target',
    '/dev/sdz',
    '--samples',
    '7',
    '--sample-bytes',
    String(4 * MiB + 4 * KiB),
    '--accesses',
    '3',
    '--block',
    String(205 * 4 * KiB),
  ]);
});

test("surfaceReadOf: a worker's sample line as the analysis takes it; any other line is not one", () => {
  assert.deepEqual(surfaceReadOf({ v: 1, type: 'surface-sample', index: 2, offset: 8192, bytes: 8192, ns: 30, read_ns: [10, 20] }), {
    offset: 8192,
    bytes: 8192,
    readNs: [10, 20],
  });
  assert.equal(surfaceReadOf({ v: 1, type: 'surface-access', offset: 0, bytes: 4096, ns: 5 }), null);
});
