// `--preset sweep` (ATTO's shape): sequential read and write at 0.5 KiB … 64 MiB, Q4T1, drawn
// as one line over block size per direction; sizes below the target's logical block are
// skipped by the worker with a warning (native/test/worker.test.ts shows it on a 4Kn device).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRuns } from '../../shared/analysis/compare.ts';
import { testTitle } from '../../shared/model/catalog.ts';
import { rateTestParams } from '../../shared/model/catalog.ts';
import { CHARTS } from '../../shared/charts/charts.ts';
import type { SeriesChartModel } from '../../shared/charts/chart-model.ts';
import { runBenchmark } from './orchestrator.ts';
import { PRESETS, SWEEP_BLOCK_SIZES, SWEEP_QUEUE_DEPTH } from '../../shared/catalog/presets.ts';

test('the sweep preset: 18 powers of two from 512 B to 64 MiB, read and write, its queue depth in every title', () => {
  assert.equal(SWEEP_BLOCK_SIZES.length, 18);
  assert.deepEqual([SWEEP_BLOCK_SIZES[0], SWEEP_BLOCK_SIZES.at(-1)], [512, 64 * 2 ** 20]);
  assert.equal(PRESETS.sweep.tests.length, 36);
  for (const id of PRESETS.sweep.tests) {
    const p = rateTestParams(id);
    assert.ok(p && (p.rw === 'read' || p.rw === 'write') && p.queueDepth === SWEEP_QUEUE_DEPTH && p.threads === 1, id);
  }
  assert.equal(testTitle('seq512-q4t1-read'), 'sequential read 512B Q4T1');
  assert.equal(testTitle('seq64m-q4t1-write'), 'sequential write 64M Q4T1');
});

test(
  '--preset sweep measured: every size read and written (or skipped, said), one chart per direction over block size',
  { timeout: 600_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'diskdelta-sweep-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // 64 MiB: one 64 MiB block, Q4, wraps around in it; short fixed runs, for the shape only.
    const record = await runBenchmark({ target: dir, preset: 'sweep', sizeBytes: 64 * 2 ** 20, durationSec: 0.2, warmupSec: 0, runs: 2 });
    const skipped = record.warnings.filter((w) => w.code === 'block-size-skipped').map((w) => w.message.split(':')[0]);
    const measured = record.results.map((r) => r.test);
    assert.deepEqual(
      [...measured, ...skipped].sort(),
      [...PRESETS.sweep.tests].sort(),
      'every size is measured or skipped with a warning that names it',
    );
    // Only sizes below 4 KiB can be below a logical block.
    for (const id of skipped) assert.ok(rateTestParams(id!)!.blockSize < 4096, `${id} skipped`);
    for (const r of record.results) assert.ok(r.bytesPerSec! > 0 && r.runs.length === 2, r.test);

    const comparison = compareRuns([record]);
    for (const where of ['app', 'report'] as const) {
      const charts = CHARTS.build({ records: [record], comparison, unit: 'MB' }, where);
      const sweeps = charts.filter((c) => c.type === 'block-size-sweep') as SeriesChartModel[];
      assert.equal(sweeps.length, 2, `${where}: one sweep chart for reads, one for writes`);
      for (const s of sweeps)
        assert.deepEqual(
          s.lines.map((l) => l.points.length),
          [18 - skipped.length / 2],
        );
      assert.ok(!charts.some((c) => c.type === 'throughput'), `${where}: the 36 tests are not drawn again as bars`);
    }
  },
);
