// Issue #43: names and figures in table cells broke over lines at 390 px.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unbrokenLabel, wholeTokens } from './whole-tokens.ts';

const whole = (text: string) => wholeTokens(text).flatMap((p) => (p.whole ? [p.text] : []));

test('hyphenated names and figures with their units are whole; the prose between them is not', () => {
  assert.deepEqual(whole('#3 Intel 320 SSD + dm-crypt (LUKS, AES-256), ThinkPad X201i (2011)'), ['dm-crypt', 'AES-256),']);
  assert.deepEqual(whole('41.27 MB/s (estimated)'), ['41.27 MB/s']);
  assert.deepEqual(whole('aes-xts-plain64, 256 bit: 3,826 ±16 % at 1,051 IOPS'), ['aes-xts-plain64,', '256 bit', '±16 %', '1,051 IOPS']);
  assert.deepEqual(whole('10,524 seeks/s (under-resolved) ×69.5'), ['10,524 seeks/s', '(under-resolved)']);
});

test('a number with no unit, a lone hyphen or a dash between words is left to wrap', () => {
  assert.deepEqual(whole('run 12 - of 20 — done'), []);
  assert.deepEqual(whole('2 cores'), []);
});

test('joined again, the pieces are the text exactly', () => {
  for (const text of ['', 'plain', ' 41.27 MB/s ', 'a-b c-d', 'x 1 MB/sx'])
    assert.equal(
      wholeTokens(text)
        .map((p) => p.text)
        .join(''),
      text,
    );
});

test('a path with hyphens in it is whole between its slashes, and may break after each', () => {
  assert.deepEqual(wholeTokens('working set of /tmp/dd-e2e/home'), [
    { text: 'working set of ', whole: false },
    { text: '/', whole: true, breakAfter: true },
    { text: 'tmp/', whole: true, breakAfter: true },
    { text: 'dd-e2e/', whole: true, breakAfter: true },
    { text: 'home', whole: true },
  ]);
});

test('a CSS-drawn label keeps its hyphenated words whole (U+2011); a dash between words stays a dash', () => {
  assert.equal(unbrokenLabel('#3 SSD + dm-crypt (LUKS, AES-256) - x'), '#3 SSD + dm\u2011crypt (LUKS, AES\u2011256) - x');
});
