import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counted } from './display.ts';

test('counted: singular for one, the plural otherwise ("1 run", "3 runs", "1 timed pass", "0 timed passes")', () => {
  assert.equal(counted(1, 'run'), '1 run');
  assert.equal(counted(3, 'run'), '3 runs');
  assert.equal(counted(1, 'timed pass'), '1 timed pass');
  assert.equal(counted(0, 'timed pass'), '0 timed passes');
});
