import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costVerdict, type DiscardSetting } from './discard-cost.ts';

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
