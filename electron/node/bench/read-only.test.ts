// Read-only mode (`--read-only`, New run's "write nothing"): for worn or precious drives. Not a
// byte is written: write tests are refused when named, skipped (and said) when a preset has
// them, and a folder is refused, since measuring it needs a test file written in it. The worker
// refuses the same on its own (native/test/worker.test.ts), whatever a caller sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchError } from './errors.ts';
import { planRun, runBenchmark } from './orchestrator.ts';
import { runArgv, type WorkerPlan } from './worker-argv.ts';

const isRoot = process.getuid?.() === 0;

test('--read-only on a folder is refused before anything is written, saying what to give instead', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-ro-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await assert.rejects(
    runBenchmark({ target: dir, preset: 'quick', readOnly: true }),
    (e: unknown) =>
      e instanceof BenchError &&
      e.code === 'read-only-mode' &&
      /needs a test file written in it: measure the disk's block device instead/.test(e.message),
  );
  assert.deepEqual(readdirSync(dir), [], 'no test file');
});

test('--read-only on a block device: named write tests refused, a preset runs its reads only and says it skipped the writes', async (t) => {
  if (!isRoot) return t.skip('needs root to attach a loop device');
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-ro-dev-'));
  const image = join(dir, 'disk.img');
  writeFileSync(image, randomBytes(48 * 2 ** 20));
  const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
  if (l.status !== 0) return t.skip(`losetup failed: ${l.stderr.trim()}`);
  const device = l.stdout.trim();
  t.after(() => {
    spawnSync('losetup', ['-d', device]);
    rmSync(dir, { recursive: true, force: true });
  });
  const before = createHash('sha256').update(readFileSync(image)).digest('hex');
  await assert.rejects(
    planRun({ target: device, tests: ['seq1m-q8t1-read', 'rnd4k-q1t1-write'], readOnly: true }),
    (e: unknown) =>
      e instanceof BenchError && e.code === 'read-only-mode' && /the write tests rnd4k-q1t1-write were refused/.test(e.message),
  );
  const { steps, warnings } = await planRun({ target: device, preset: 'quick', readOnly: true });
  assert.ok(runArgv(steps[0]!.plan as WorkerPlan).includes('--read-only'), 'the worker is told too');
  assert.match(
    warnings.find((w) => w.code === 'writes-skipped')?.message ?? '',
    /read-only mode: the write tests of the preset were skipped/,
  );

  const record = await runBenchmark({
    target: device,
    preset: 'quick',
    readOnly: true,
    sizeBytes: 32 * 2 ** 20,
    durationSec: 0.2,
    warmupSec: 0,
  });
  assert.deepEqual(
    record.results.map((r) => r.test),
    ['seq1m-q8t1-read', 'rnd4k-q1t1-read'],
  );
  assert.equal(record.settings.readOnly, true, 'the run records that it was read-only');
  assert.ok(record.warnings.some((w) => w.code === 'writes-skipped'));
  assert.equal(createHash('sha256').update(readFileSync(image)).digest('hex'), before, 'not one byte written');
});
