// A stopped run keeps the tests it had finished when asked (issue #40, item 6): a real run on
// the disk under the temp folder (hence the need 'disk'), stopped once its second test began.
// Without keepFinished it is cancelled whole and says what a stop could have kept.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CUT_SHORT, runBenchmark } from './orchestrator.ts';

const TESTS = ['seq1m-q1t1-read', 'rnd4k-q1t1-read', 'seq1m-q1t1-write'];

/** A run of TESTS stopped as soon as its second test starts (bounded: stopped after 120 s regardless). */
function stoppedRun(dir: string, keepFinished: boolean) {
  const controller = new AbortController();
  const guard = setTimeout(() => controller.abort(), 120_000);
  return runBenchmark(
    { target: dir, tests: TESTS, sizeBytes: 32 * 2 ** 20, durationSec: 0.5, warmupSec: 0, runs: 2 },
    {
      signal: controller.signal,
      surface: 'cli',
      keepFinished,
      onEvent: (e) => {
        if (e.type === 'progress' && e.testIndex >= 1 && e.phase !== 'prepare') controller.abort();
      },
    },
  ).finally(() => clearTimeout(guard));
}

test('a run stopped in its second test keeps the first, marked as cut short, only when asked', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-keep-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  await assert.rejects(
    stoppedRun(dir, false),
    /the run was cancelled; its test file was removed; the 1 test it had finished \(seq1m-q1t1-read\) were not kept \(--keep-finished keeps them, marked as cut short\)/,
  );

  const record = await stoppedRun(dir, true);
  assert.deepEqual(
    record.results.map((r) => r.test),
    ['seq1m-q1t1-read'],
    'the finished test only, never the one it stopped in',
  );
  assert.equal(record.results[0]!.runs.length, 2, 'every run of the kept test');
  assert.ok(record.results[0]!.bytesPerSec! > 0);
  const cut = record.warnings.find((w) => w.code === CUT_SHORT);
  assert.match(cut?.message ?? '', /^cut short: stopped during .*kept the 1 test that had finished \(seq1m-q1t1-read\)/);
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith('.diskdelta-')),
    [],
    'the test file is removed',
  );
});
