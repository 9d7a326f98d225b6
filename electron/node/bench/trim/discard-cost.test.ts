import { chownSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costVerdict, sweepDiscardImages, type DiscardSetting } from './discard-cost.ts';

const setting = (option: DiscardSetting['option'], deleteRuns: number[]): DiscardSetting => ({
  option,
  figures: [
    {
      metric: 'phaseSeconds',
      subject: 'delete',
      value: [...deleteRuns].sort((x, y) => x - y)[1] ?? deleteRuns[0]!,
      unit: 's',
      provenance: 'measured',
    },
  ],
  deleteRuns,
  discards: null,
  countedOn: 'disk vda',
});
const fstrim = { seconds: 0.5, bytes: 1e9 };
const verdict = (off: number[], on: number[]) =>
  costVerdict([setting('nodiscard', off), setting('discard', on)], fstrim, 45_000, off.length);

test('a delete clearly slower with discard: the cost in seconds, beside the seed', () => {
  assert.match(
    verdict([0.7, 0.71, 0.72], [2.6, 2.7, 2.8]),
    /^online discard costs 1\.99 s per 45k-file delete here \(0\.71 s without, 2\.70 s with\); a fstrim after 4 such trees took 0\.50 s\. The seed's Intel 525/,
  );
});

test('a difference inside both ranges is noise, said so, never a negative cost', () => {
  const text = verdict([0.7, 0.76, 0.8], [0.68, 0.7, 0.79]);
  assert.match(
    text,
    /^online discard costs nothing measurable per 45k-file delete here \(0\.76 s without, 0\.70 s with: within each other's range over 3 runs\)/,
  );
  assert.doesNotMatch(text, /costs -/);
});

test('faster with discard beyond both ranges: "nothing", with how much less', () => {
  assert.match(
    verdict([1.0, 1.1, 1.2], [0.5, 0.55, 0.6]),
    /^online discard costs nothing per 45k-file delete here \(1\.10 s without, 0\.55 s with: 0\.55 s less with it\)/,
  );
});

test('one run each: the difference is printed, and that it cannot be told from noise', () => {
  assert.match(
    verdict([0.7], [0.64]),
    /^online discard costs nothing per 45k-file delete here .*; one run each: no range to tell a cost from noise \(--runs 3\)/,
  );
});

test("a killed run's scratch image that no loop holds is removed; look-alikes of other shapes, owners and live pids stay", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-discard-sweep-'));
  try {
    const gone = 4194305; // above the kernel's largest pid: never running
    const image = (pid: number | string) => join(dir, `.diskdelta-${pid}-discard-cost.tmp`);
    writeFileSync(image(gone), 'a killed run of ours');
    writeFileSync(image(process.pid), 'this run’s own');
    mkdirSync(image(gone + 1));
    writeFileSync(join(dir, 'notes'), 'the user’s');
    symlinkSync(join(dir, 'notes'), image(gone + 2));
    linkSync(join(dir, 'notes'), image(gone + 3));
    writeFileSync(image('my-thesis'), 'a look-alike name');
    const isRoot = process.getuid?.() === 0;
    if (isRoot) {
      writeFileSync(image(gone + 4), 'another user’s');
      chownSync(image(gone + 4), 65534, 65534);
    }
    const said = await sweepDiscardImages(dir);
    assert.deepEqual(said, [`removed ${image(gone)}, the scratch image of a killed run (pid ${gone}) that no loop device held`]);
    const left = [process.pid, gone + 1, gone + 2, gone + 3, 'my-thesis', ...(isRoot ? [gone + 4] : [])].map((p) =>
      image(p).slice(dir.length + 1),
    );
    assert.deepEqual(readdirSync(dir).sort(), [...left, 'notes'].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
