// The profiles (`--preset nvme|peak|real-world|flash`): their tests, the statistic each records
// on every result, and what compare says when a median meets CrystalDiskMark's best run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRuns } from '../../shared/analysis/compare.ts';
import { TEST_IDS, testById } from '../../shared/model/catalog.ts';
import { parseImport } from '../formats/index.ts';
import { aggregateTest } from './aggregate.ts';
import { planRun, runBenchmark } from './orchestrator.ts';
import { PRESETS } from '../../shared/catalog/presets.ts';
import type { WorkerPlan } from './worker-argv.ts';
import type { WorkerResult } from './worker-protocol.ts';

const CDM8_NVME = new URL('../formats/fixtures/foreign/crystaldiskmark-8.0.2-crucial-p2.txt', import.meta.url);

/** A worker result line of one run at this rate (the other fields as a 1 MiB read gives them). */
function run(n: number, bytesPerSec: number): WorkerResult {
  const lat = { mean: 1e6, min: 1e5, p50: 1e6, p90: 1e6, p99: 1e6, p999: 1e6, max: 2e6 };
  return {
    v: 1,
    type: 'result',
    job: 0,
    name: 'seq1m-q8t1-read',
    run: n,
    rw: 'read',
    bs: 2 ** 20,
    qd: 8,
    threads: 1,
    engine: 'io_uring',
    direct: true,
    elapsed_ns: 1e9,
    ios: bytesPerSec / 2 ** 20,
    bytes: bytesPerSec,
    reads: bytesPerSec / 2 ** 20,
    writes: 0,
    bytes_per_sec: bytesPerSec,
    iops: bytesPerSec / 2 ** 20,
    lat_ns: lat,
    hist: [[1e6, bytesPerSec / 2 ** 20]],
    cpu: { user_ns: 1e6, sys_ns: 1e6 },
    job_ns: n * 1e9,
  } as WorkerResult;
}

describe('profiles: tests and statistics', () => {
  test("nvme is CrystalDiskMark's NVMe SSD set, RND4K Q32T16 with 16 threads; its profiles keep the best run, as its source does", () => {
    assert.deepEqual(
      PRESETS.nvme.tests.map((t) => testById(t)?.label),
      [
        'SEQ1M Q8T1 read',
        'SEQ1M Q8T1 write',
        'SEQ128K Q32T1 read',
        'SEQ128K Q32T1 write',
        'RND4K Q32T16 read',
        'RND4K Q32T16 write',
        'RND4K Q1T1 read',
        'RND4K Q1T1 write',
      ],
    );
    assert.equal(testById('rnd4k-q32t16-read')?.params?.threads, 16);
    assert.deepEqual(
      ['nvme', 'peak', 'real-world', 'flash'].map((p) => PRESETS[p as keyof typeof PRESETS].statistic),
      ['median', 'best', 'best', 'best'],
    );
    // CrystalDiskMark 9's source (DiskMarkDlg.cpp SettingsQueuesThreads case 2, DiskBench.cpp):
    // Flash Memory keeps the default four tests and the test size, measures 1 s, idles 30 s,
    // 3 counted runs after a preparation pass of the measure time, the best kept (issue #40, item 9).
    assert.deepEqual(PRESETS.flash.tests, PRESETS.standard.tests);
    assert.equal(PRESETS.flash.sizeBytes, PRESETS.standard.sizeBytes);
    assert.deepEqual(
      [PRESETS.flash.durationSec, PRESETS.flash.warmupSec, PRESETS.flash.pauseSec, PRESETS.flash.runs, PRESETS.flash.precision],
      [1, 1, 30, 3, 0],
    );
    // Peak Performance under its default settings: SEQ1M Q8T1 and RND4K Q32T1; 5 s, 5 s idle, 3 runs.
    assert.deepEqual(PRESETS.peak.tests, ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q32t1-read', 'rnd4k-q32t1-write']);
    for (const p of ['peak', 'real-world'] as const)
      assert.deepEqual([PRESETS[p].durationSec, PRESETS[p].pauseSec, PRESETS[p].runs], [5, 5, 3], p);
    // Every preset naming CrystalDiskMark says where DiskDelta's timing differs from it.
    for (const p of ['standard', 'nvme'] as const) assert.match(PRESETS[p].description, /not CrystalDiskMark's best of 3 × 5 s/);
  });

  test('the plan carries the preset statistic and rest; the figure combines the runs by it and the result records which', async () => {
    const { steps } = await planRun({ target: tmpdir(), preset: 'flash' });
    const plan = steps[0]!.plan as WorkerPlan;
    assert.deepEqual([plan.statistic, plan.pauseSec], ['best', 30]);
    assert.equal(((await planRun({ target: tmpdir(), preset: 'peak' })).steps[0]!.plan as WorkerPlan).statistic, 'best');
    const runs = [run(1, 100e6), run(2, 400e6), run(3, 130e6)];
    const of = (statistic: 'median' | 'best' | 'mean') => aggregateTest('seq1m-q8t1-read', runs, new Map(), { precision: 0, statistic });
    assert.deepEqual([of('median').bytesPerSec, of('median').statistic], [130e6, 'median']);
    assert.deepEqual([of('best').bytesPerSec, of('best').statistic], [400e6, 'best']);
    assert.deepEqual([of('mean').bytesPerSec, of('mean').statistic], [210e6, 'mean']);
    assert.equal(of('best').iops, 400e6 / 2 ** 20, 'IOPS combine the same way');
  });

  test('imports record how their tool combines runs: CrystalDiskMark the best, KDiskMark the mean', () => {
    const [cdm] = parseImport(readFileSync(CDM8_NVME, 'utf8'), 'crucial-p2.txt');
    assert.ok(cdm);
    assert.ok(cdm.results.length > 0 && cdm.results.every((r) => r.statistic === 'best'));
    const rnd = cdm.results.find((r) => r.test === 'rnd4k-q32t16-read');
    assert.ok(rnd, 'the Q32T16 line lines up with the catalog test');
    const kdm = parseImport(readFileSync(new URL('../formats/fixtures/kdiskmark-3.x.txt', import.meta.url), 'utf8'), 'k.txt')[0]!;
    assert.ok(kdm.results.every((r) => r.statistic === 'mean'));
  });
});

describe('--preset nvme measured, compared with a CrystalDiskMark 8 NVMe import', () => {
  test('RND4K Q32T16 runs with 16 threads as a median; compare says median against best, test by test', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'diskdelta-nvme-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // The preset's tests at a small size and short fixed runs: what is checked is the shape.
    const measured = await runBenchmark({
      target: dir,
      preset: 'nvme',
      sizeBytes: 32 * 2 ** 20,
      durationSec: 0.2,
      warmupSec: 0,
      runs: 3,
      label: 'this machine',
    });
    assert.deepEqual(
      measured.results.map((r) => r.test),
      PRESETS.nvme.tests,
    );
    assert.ok(measured.results.every((r) => r.statistic === 'median' && r.runs.length === 3));
    const q32t16 = measured.results.find((r) => r.test === 'rnd4k-q32t16-read')!;
    assert.equal(q32t16.params?.threads, 16);
    assert.equal(measured.settings.preset, 'nvme');

    const [cdm] = parseImport(readFileSync(CDM8_NVME, 'utf8'), 'crucial-p2.txt');
    const c = compareRuns([measured, cdm!]);
    // One sentence for the whole set, every test named, not eight copies.
    const notes = c.notes.filter((n) => n.includes('combine their runs'));
    assert.deepEqual(notes, [
      `${TEST_IDS.filter((id) => PRESETS.nvme.tests.includes(id)).join(', ')}: the figures combine their runs differently (the median of 3 runs in #1, the best run in #2): ` +
        'not the same statistic. A best run reads higher than the median or mean of the same disk.',
    ]);
    // Two measured medians: no such note.
    assert.ok(!compareRuns([measured, measured]).notes.some((n) => n.includes('combine their runs')));
  });
});
