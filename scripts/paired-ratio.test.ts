import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairedVerdict } from './paired-ratio.ts';

test('steady rounds near 1: within ±5 %', () => {
  const v = pairedVerdict([0.99, 1.01, 1.0, 1.02, 0.98, 1.0, 1.01]);
  assert.equal(v.verdict, 'within');
  assert.equal(v.text, 'within ±5 %');
});

test('steady rounds far from 1: OUTSIDE, since the noise cannot explain it', () => {
  const v = pairedVerdict([1.2, 1.21, 1.19, 1.2, 1.22, 1.18, 1.2]);
  assert.equal(v.verdict, 'outside');
  assert.equal(v.text, 'OUTSIDE ±5 %');
});

test('rounds spread from 0.75 to 3.4 (an unthrottled shared disk): undecided, with the noise said', () => {
  const v = pairedVerdict([0.75, 1.4, 3.4, 0.9, 1.3, 2.1, 1.1]);
  assert.equal(v.verdict, 'undecided');
  assert.equal(v.min, 0.75);
  assert.equal(v.max, 3.4);
  assert.match(v.text, /^undecided: this machine's noise \(±\d+ % on the median\) is larger than ±5 %$/);
  assert.ok(v.medianNoise > 0.05);
});
