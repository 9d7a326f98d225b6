import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counted } from './display.ts';

test('counted: singular for one, the plural otherwise ("1 run", "3 runs", "1 timed pass", "0 timed passes")', () => {
  assert.equal(counted(1, 'run'), '1 run');
  assert.equal(counted(3, 'run'), '3 runs');
  assert.equal(counted(1, 'timed pass'), '1 timed pass');
  assert.equal(counted(0, 'timed pass'), '0 timed passes');
});

test('counted: a count of a thousand or more with its separator, as every figure ("12,345 files", not "12345 files")', () => {
  assert.equal(counted(12_345, 'file'), '12,345 files');
  assert.equal(counted(1_000_000, 'run'), '1,000,000 runs');
  assert.equal(counted(999, 'run'), '999 runs');
});
