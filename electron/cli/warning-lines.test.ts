// The CLI's warning list: one line per distinct warning, with the tests it concerns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestResult, Warning } from '../shared/model/results.ts';
import { warningLines } from './warning-lines.ts';

const ram: Warning = { code: 'size-below-ram', message: 'The test size 256 MiB fits in RAM.' };
const few: Warning = { code: 'under-resolved', message: 'too little was measured.' };
const result = (test: string, warnings: Warning[]) => ({ test, warnings }) as unknown as TestResult;

test('a warning many tests share is one line naming them all; the others stay their own, the run’s first', () => {
  const tests = ['seq512-q4t1-read', 'seq1k-q4t1-read', 'seq64m-q4t1-read'];
  const lines = warningLines(
    {
      warnings: [{ code: 'loop-buffered', message: 'loop1 reads through the page cache.' }],
      results: [result(tests[0]!, [ram]), result(tests[1]!, [ram]), result(tests[2]!, [ram, few])],
    },
    { codes: true },
  );
  assert.deepEqual(lines, [
    'loop1 reads through the page cache. [loop-buffered]',
    'seq512-q4t1-read, seq1k-q4t1-read and seq64m-q4t1-read (3 tests): The test size 256 MiB fits in RAM. [size-below-ram]',
    'seq64m-q4t1-read: too little was measured. [under-resolved]',
  ]);
  // The same code with another message is another warning, not folded into the first.
  const other = { ...ram, message: 'The test size 1 GiB fits in RAM.' };
  assert.equal(warningLines({ warnings: [], results: [result('a', [ram]), result('b', [other])] }, { codes: false }).length, 2);
});
