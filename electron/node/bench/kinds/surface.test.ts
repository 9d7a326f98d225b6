// The surface kind's read size: every sample a whole number of reads, at least two where it can
// be (a sample's rate is its reads after the first), none over 1 MiB, each a multiple of 4 KiB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { surfaceBlock } from './surface.ts';

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
