// `npm run bench:seeks-cv [-- FOLDER]`: the `seeks` preset with 5 runs on the disk under FOLDER
// (default: a temporary folder under /tmp, which is on this machine's disk) and the spread
// of its runs. Target: coefficient of variation ≤ 5 % — a seek figure that resolves on an
// SSD, unlike bonnie++'s fixed 8192 seeks. A benchmark: it prints, it does not assert.
//
// On a shared or virtual disk the spread is partly the machine's, not the tool's. So, where fio
// is installed, the same access pattern is run with fio (8 KiB random reads, 3 jobs, QD1,
// O_DIRECT, same file size, same windows) as the noise floor to read DiskDelta's CV against.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBenchmark } from '../electron/node/bench/orchestrator.ts';
import { PRESETS } from '../electron/shared/catalog/presets.ts';
import { coefficientOfVariation } from '../electron/shared/analysis/statistics.ts';
import { locateWorker } from '../electron/node/bench/worker-client.ts';

const TARGET_CV = 0.05;
const RUNS = 5;

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(2)} %`);

/** fio, same pattern and windows, on a test file the worker prepares (and we remove). */
function fioReference(): void {
  if (spawnSync('fio', ['--version']).status !== 0) {
    console.log('fio reference: skipped (fio is not installed)');
    return;
  }
  const prepared = spawnSync(locateWorker(), ['prepare', '--target', folder, '--size', String(preset.sizeBytes)], { encoding: 'utf8' });
  const file = prepared.stdout
    .split('\n')
    .map((l) => (l ? (JSON.parse(l) as { type: string; file?: string }) : null))
    .find((m) => m?.type === 'prepared')?.file;
  if (!file) {
    console.log(`fio reference: skipped (could not prepare a test file: ${prepared.stderr.trim()})`);
    return;
  }
  try {
    const iops: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const fio = spawnSync(
        'fio',
        [
          '--name=seeks-reference',
          `--filename=${file}`,
          `--size=${preset.sizeBytes}`,
          '--rw=randread',
          '--bs=8k',
          '--numjobs=3',
          '--ioengine=psync',
          '--direct=1',
          '--time_based',
          `--runtime=${preset.durationSec * 1000}ms`,
          // fio takes a ramp per run; DiskDelta warms up once per test: close enough for a noise floor.
          `--ramp_time=${preset.warmupSec * 1000}ms`,
          '--group_reporting',
          '--output-format=json',
        ],
        { encoding: 'utf8' },
      );
      if (fio.status !== 0) throw new Error(fio.stderr.trim());
      const report = JSON.parse(fio.stdout) as { jobs: Array<{ read: { iops: number } }> };
      iops.push(report.jobs[0]!.read.iops);
    }
    console.log(`fio reference (8 KiB random reads, 3 jobs, QD1, O_DIRECT), reads/s per run: ${iops.map((v) => v.toFixed(0)).join(', ')}`);
    console.log(`fio reference CV over ${RUNS} runs: ${pct(coefficientOfVariation(iops))} — the machine's own noise floor`);
  } catch (error) {
    console.log(`fio reference: failed (${(error as Error).message})`);
  } finally {
    rmSync(file, { force: true });
  }
}

const given = process.argv[2];
const folder = given ?? mkdtempSync(join(tmpdir(), 'diskdelta-seeks-cv-'));
const preset = PRESETS.seeks;
console.log(
  `seeks preset on ${folder}: ${RUNS} runs × ${preset.durationSec} s after ${preset.warmupSec} s warm-up, ` +
    `${preset.sizeBytes / 2 ** 20} MiB test file, 3 seekers of 8 KiB`,
);
try {
  const record = await runBenchmark({ target: folder, preset: 'seeks', runs: RUNS, label: 'bench:seeks-cv' });
  const result = record.results.find((r) => r.test === 'seeks');
  if (!result) throw new Error('the run produced no seeks result');
  const perRun = result.runs.map((r) => r.iops);
  const seeksCv = coefficientOfVariation(perRun);
  console.log(`device: ${record.target.device ? `${record.target.device.name} (${record.target.device.class})` : 'unknown'}`);
  console.log(`seeks/s per run: ${perRun.map((v) => v.toFixed(0)).join(', ')}`);
  console.log(
    `median: ${result.iops?.toFixed(0)} seeks/s, best ${result.best?.iops?.toFixed(0)} seeks/s, p50 latency ${((result.latencyNs?.p50 ?? 0) / 1000).toFixed(1)} µs`,
  );
  // The result's cv is over throughput; seeks/s is the same figure divided by a constant
  // block size here (every 10th seek rewrites), printed both ways to show they agree.
  console.log(
    `CV over ${perRun.length} runs: ${pct(result.cv)} (throughput), ${pct(seeksCv)} (seeks/s); target ≤ ${TARGET_CV * 100} %: ${result.cv !== null && result.cv <= TARGET_CV ? 'met' : 'NOT met'}`,
  );
  for (const w of [...record.warnings, ...result.warnings]) console.log(`warning: ${w.code}: ${w.message}`);
  fioReference();
} finally {
  if (!given) rmSync(folder, { recursive: true, force: true });
}
