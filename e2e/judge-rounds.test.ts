import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeRounds, MAX_SPREAD } from './judge-rounds.ts';

test('steady rounds near 1: within, allowed the base plus a small spread', () => {
  const j = judgeRounds([0.99, 1.02, 0.98, 1.01, 1.0, 1.03], 0.15);
  assert.equal(j.verdict, 'within');
  assert.ok(j.tolerance !== null && j.tolerance > 0.15 && j.tolerance < 0.2, String(j.tolerance));
  assert.match(
    j.text,
    /^per round 0\.99 1\.02 0\.98 1\.01 1\.00 1\.03; median 1\.00, allowed ±\d+ % \(15 % \+ the rounds' spread ±\d+ %\): within$/,
  );
});

test('steady rounds 34 % off: OUTSIDE, the spread cannot explain it', () => {
  const j = judgeRounds([1.33, 1.35, 1.34, 1.36, 1.32, 1.34], 0.1);
  assert.equal(j.verdict, 'outside');
  assert.match(j.text, /OUTSIDE$/);
});

test('rounds spread from 0.5 to 2.1: not judged, and the text says why', () => {
  const j = judgeRounds([0.5, 1.6, 0.9, 2.1, 1.2], 0.15);
  assert.equal(j.verdict, 'not-judged');
  assert.equal(j.tolerance, null);
  assert.ok(j.spread > MAX_SPREAD);
  assert.match(j.text, /not judged \(the rounds' spread is above the ceiling ±35 %/);
});

test('fewer than 3 rounds: not judged, however close to 1', () => {
  const j = judgeRounds([1.0, 1.0], 0.15);
  assert.equal(j.verdict, 'not-judged');
  assert.match(j.text, /2 rounds, fewer than 3/);
});

test('the tolerance never passes the base plus the ceiling, whatever the rounds', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let judged = 0;
  for (let i = 0; i < 500; i++) {
    const ratios = Array.from({ length: 3 + (i % 6) }, () => 0.4 + 1.6 * random());
    const j = judgeRounds(ratios, 0.15);
    if (j.verdict === 'not-judged') continue;
    judged++;
    assert.ok(j.tolerance! <= 0.15 + MAX_SPREAD + 1e-12, `${j.text}`);
    assert.equal(j.verdict === 'within', Math.abs(j.ratio - 1) <= j.tolerance!);
  }
  assert.ok(judged > 50, `some of the random rounds were judged (${judged})`);
});
