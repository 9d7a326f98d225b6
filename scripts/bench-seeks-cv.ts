// `npm run bench:seeks-cv [-- FOLDER]`: the `seeks` preset with 5 runs on the disk under FOLDER
// (default: a temporary folder under /tmp, which is on this machine's disk) and the spread
// of its runs. Target: coefficient of variation ≤ 5 % — a seek figure that resolves on an
// SSD, unlike bonnie++'s fixed 8192 seeks. A benchmark: it prints, it does not assert.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBenchmark } from '../electron/core/bench/orchestrator.ts';
import { PRESETS } from '../electron/core/bench/presets.ts';
import { coefficientOfVariation } from '../electron/core/bench/statistics.ts';

const TARGET_CV = 0.05;
const RUNS = 5;

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
  console.log(`median: ${result.iops?.toFixed(0)} seeks/s, best ${result.best?.iops?.toFixed(0)} seeks/s, p50 latency ${((result.latencyNs?.p50 ?? 0) / 1000).toFixed(1)} µs`);
  // The result's cv is over throughput; seeks/s is the same figure divided by a constant
  // block size here (every 10th seek rewrites), printed both ways to show they agree.
  console.log(`CV over ${perRun.length} runs: ${result.cv === null ? '—' : `${(result.cv * 100).toFixed(2)} %`} (throughput), ${seeksCv === null ? '—' : `${(seeksCv * 100).toFixed(2)} %`} (seeks/s); target ≤ ${TARGET_CV * 100} %: ${result.cv !== null && result.cv <= TARGET_CV ? 'met' : 'NOT met'}`);
  for (const w of [...record.warnings, ...result.warnings]) console.log(`warning: ${w.code}: ${w.message}`);
} finally {
  if (!given) rmSync(folder, { recursive: true, force: true });
}
