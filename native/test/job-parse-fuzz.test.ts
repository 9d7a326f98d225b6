// A bounded libFuzzer run (by input count, not time) on the worker's --job parser; the target is
// native/fuzz/fuzz-job-parse.c, `npm run fuzz` runs it for minutes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const NATIVE = fileURLToPath(new URL('..', import.meta.url));

test('libFuzzer: 200,000 job specs, no crash, no sanitizer report, every accepted job within bounds', (t) => {
  const build = spawnSync('make', ['-s', '-C', NATIVE, 'fuzz'], { encoding: 'utf8' });
  if (build.status !== 0) {
    t.skip(
      `the libFuzzer build needs clang and its runtime (apt-get install clang-14 libclang-rt-14-dev): ${build.stderr.trim().split('\n').at(-1) ?? ''}`,
    );
    return;
  }
  // libFuzzer adds what it finds to the first folder; the checked-in seeds (native/fuzz/seeds) stay as they are.
  const corpus = mkdtempSync(join(tmpdir(), 'diskdelta-fuzz-job-'));
  try {
    const run = spawnSync(join(NATIVE, 'build', 'fuzz-job-parse'), ['-runs=200000', '-seed=1', corpus, join(NATIVE, 'fuzz', 'seeds')], {
      encoding: 'utf8',
      cwd: corpus,
    });
    assert.equal(run.status, 0, run.stderr.slice(-3000));
    assert.match(run.stderr, /Done 200000 runs/);
  } finally {
    rmSync(corpus, { recursive: true, force: true });
  }
});
