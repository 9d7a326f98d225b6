// fio files with many jobs (#23 item 6): 200,000 jobs is a 33 MB file, under the import limit,
// and once took minutes to import because of steps that were quadratic in the number of jobs.
// These tests count work instead of timing it (scripts/bench-import.ts prints the times).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseImport } from './index.ts';
import { manyJobsFio } from './fixtures/many-jobs-fio.ts';

const NOW = new Date('2026-12-01T12:00:00.000Z');

/**
 * Element steps of everything the import does through Set lookups and array iteration (for…of,
 * spreads, Array.from, destructuring): the steps a quadratic loop repeats. Counting them is the
 * same on every machine, unlike a time.
 */
function workOf(fn: () => void): number {
  let steps = 0;
  // Saved to be put back, and called with .call(this): never detached from a Set.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const setHas = Set.prototype.has;
  const iteratorProto = Object.getPrototypeOf([][Symbol.iterator]()) as { next: (...a: unknown[]) => unknown };
  const next = iteratorProto.next;
  Set.prototype.has = function (this: Set<unknown>, value: unknown) {
    steps++;
    return setHas.call(this, value);
  };
  iteratorProto.next = function (this: unknown, ...a: unknown[]) {
    steps++;
    return next.apply(this, a);
  };
  try {
    fn();
  } finally {
    Set.prototype.has = setHas;
    iteratorProto.next = next;
  }
  return steps;
}

describe('fio JSON with many jobs', () => {
  for (const shape of ['distinct', 'clones', 'same-name'] as const) {
    it(`${shape} jobs: twice the jobs is about twice the work, not four times`, () => {
      const small = manyJobsFio(1500, shape);
      const large = manyJobsFio(3000, shape);
      const a = workOf(() => parseImport(small, 'small.json', { now: NOW }));
      const b = workOf(() => parseImport(large, 'large.json', { now: NOW }));
      assert.ok(a > 1500, `the counter saw the import's work (${a} steps)`);
      assert.ok(b / a < 2.5, `1500 jobs: ${a} steps, 3000 jobs: ${b} steps (ratio ${(b / a).toFixed(2)}; linear is 2)`);
    });
  }

  it('200,000 clones of one job are summed into one result', () => {
    const [run] = parseImport(manyJobsFio(200_000, 'clones'), 'clones.json', { now: NOW });
    assert.equal(run?.results.length, 1);
    assert.equal(run.results[0]?.iops, 200_000 * 1000);
    assert.equal(run.results[0]?.latencyNs?.max, 2000);
  });

  it('jobs of one name and shape are named apart: job, job:job, job:job#2 …', () => {
    const [run] = parseImport(manyJobsFio(5, 'same-name'), 'same.json', { now: NOW });
    assert.deepEqual(
      run?.results.map((r) => r.test),
      ['seq4k-q1t1-read', 'seq4k-q1t1-read:job', 'seq4k-q1t1-read:job#2', 'seq4k-q1t1-read:job#3', 'seq4k-q1t1-read:job#4'],
    );
  });

  it('a control character written as a JSON escape in one of many jobs is still found and named', () => {
    const text = manyJobsFio(2000, 'distinct').replace('"jobname":"job1234"', '"jobname":"job\\u001b]0;x\\u0007"');
    assert.throws(
      () => parseImport(text, 'esc.json', { now: NOW }),
      (e: Error) => /run 1\.results\[1234\]\.test holds the control character U\+001B/.test(e.message),
    );
  });
});
