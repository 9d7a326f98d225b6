// npm run bench:vs-fio [-- --target DIR] [--rounds N] [--duration S] [--size SIZE]
//
// Accuracy check of the 8 grid tests against fio (the Debian package) on the SAME file with
// the same settings: the worker's `prepare` verb makes and fills one test file, then for each
// test DiskDelta and fio take turns (DD, fio, DD, fio, …) so that the machine's drift hits
// both alike. Prints each side's median and the median of the per-round ratios DiskDelta / fio
// (target: 0.95–1.05): each round's two runs are seconds apart, so on a disk whose speed
// drifts (a VM's shared host disk drifts by 2x over minutes) the paired ratio cancels the
// drift that a ratio of the two medians would keep. Also printed: each tool's CPU use. Where
// a tool keeps a core busy the device is not what limits it, and the ratio then compares the
// tools' overheads, not their accuracy (zram shows this for the 4K tests).
//
// fio runs with --scramble_buffers=0: by default it stamps offsets into every 512-byte
// sector, which makes its data ~9 % compressible and a compressing device (zram, some SSDs)
// faster or slower for reasons that are not the I/O path. The worker's data is incompressible.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBenchmark } from '../electron/core/bench/orchestrator.ts';
import { TEST_DEFINITIONS } from '../electron/core/bench/presets.ts';
import { median } from '../electron/core/bench/statistics.ts';
import { locateWorker } from '../electron/core/bench/worker-client.ts';
import { parseSize } from '../electron/cli/args.ts';
import { GRID_TEST_IDS, type TestId } from '../electron/core/model/results.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0.5' },
    size: { type: 'string', default: '1GiB' },
    tests: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const warmupSec = Number(values.warmup);
const sizeBytes = parseSize(values.size!, '--size');
const tests = (values.tests ? values.tests.split(',') : [...GRID_TEST_IDS]) as TestId[];

if (spawnSync('fio', ['--version']).status !== 0) {
  console.error('bench:vs-fio needs fio: apt-get install fio');
  process.exit(1);
}
const ownFolder = !values.target;
const folder = values.target ?? mkdtempSync(join(tmpdir(), 'diskdelta-vs-fio-'));
const worker = locateWorker();

const prepared = spawnSync(worker, ['prepare', '--target', folder, '--size', String(sizeBytes)], { encoding: 'utf8' });
const file = prepared.stdout
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { type: string; file?: string })
  .find((m) => m.type === 'prepared')?.file;
if (prepared.status !== 0 || !file) {
  console.error(`could not prepare a test file in ${folder}:\n${prepared.stderr}`);
  process.exit(1);
}

interface Measured {
  bytesPerSec: number;
  /** user + system CPU in percent of one core over the window */
  cpuPercent: number;
}

function fioOnce(id: TestId): Measured {
  const p = TEST_DEFINITIONS[id].params;
  const write = p.rw === 'write' || p.rw === 'randwrite';
  const args = [
    '--name=vs', `--filename=${file}`, `--size=${sizeBytes}`, '--direct=1', '--ioengine=libaio',
    `--rw=${p.rw}`, `--bs=${p.blockSize}`, `--iodepth=${p.queueDepth}`, `--numjobs=${p.threads}`,
    '--time_based', `--runtime=${durationSec}`, `--ramp_time=${warmupSec}`, '--norandommap', '--randrepeat=0',
    '--scramble_buffers=0', '--group_reporting', '--output-format=json', ...(write ? ['--end_fsync=1'] : []),
  ];
  const r = spawnSync('fio', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`fio failed: ${r.stderr}`);
  type FioJob = Record<'read' | 'write', { bw_bytes: number }> & { usr_cpu: number; sys_cpu: number };
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { jobs: FioJob[] };
  const job = json.jobs[0]!;
  return { bytesPerSec: write ? job.write.bw_bytes : job.read.bw_bytes, cpuPercent: job.usr_cpu + job.sys_cpu };
}

async function diskdeltaOnce(id: TestId): Promise<Measured> {
  const record = await runBenchmark(
    { target: folder, tests: [id], sizeBytes, durationSec, warmupSec, runs: 1 },
    { reuseFile: file, workerPath: worker },
  );
  const result = record.results[0]!;
  const run = result.runs[0]!;
  return { bytesPerSec: result.bytesPerSec!, cpuPercent: ((run.cpu.userNs + run.cpu.systemNs) / run.elapsedNs) * 100 };
}

const mb = (x: number) => (x / 1e6).toFixed(1).padStart(9);
console.log(`DiskDelta vs fio ${spawnSync('fio', ['--version'], { encoding: 'utf8' }).stdout.trim()} on ${file}`);
console.log(`${sizeBytes / 2 ** 20} MiB file, ${rounds} alternating rounds of ${warmupSec} s warm-up + ${durationSec} s per test\n`);
console.log(`${'test'.padEnd(20)} ${'DiskDelta MB/s'.padStart(15)} ${'fio MB/s'.padStart(10)}  ratio  CPU DD/fio  verdict`);
console.log(`${''.padEnd(20)} ${'(median)'.padStart(15)} ${'(median)'.padStart(10)}  (median of paired rounds)`);
let failures = 0;
try {
  for (const id of tests) {
    const dd: Measured[] = [];
    const fio: Measured[] = [];
    for (let r = 0; r < rounds; r++) {
      dd.push(await diskdeltaOnce(id));
      fio.push(fioOnce(id));
    }
    const ddMedian = median(dd.map((m) => m.bytesPerSec));
    const fioMedian = median(fio.map((m) => m.bytesPerSec));
    const cpu = `${median(dd.map((m) => m.cpuPercent)).toFixed(0)}/${median(fio.map((m) => m.cpuPercent)).toFixed(0)} %`;
    const ratio = median(dd.map((m, i) => m.bytesPerSec / fio[i]!.bytesPerSec));
    const ok = ratio >= 0.95 && ratio <= 1.05;
    if (!ok) failures++;
    console.log(`${id.padEnd(20)} ${mb(ddMedian).padStart(15)} ${mb(fioMedian).padStart(10)}  ${ratio.toFixed(3)}  ${cpu.padStart(10)}  ${ok ? 'within ±5 %' : 'OUTSIDE ±5 %'}`);
    const list = (ms: Measured[]) => ms.map((m) => (m.bytesPerSec / 1e6).toFixed(1)).join(' ');
    console.log(`${''.padEnd(20)} runs: DD ${list(dd)} | fio ${list(fio)} | ratios ${dd.map((m, i) => (m.bytesPerSec / fio[i]!.bytesPerSec).toFixed(2)).join(' ')}`);
  }
} finally {
  unlinkSync(file);
  if (ownFolder) rmSync(folder, { recursive: true, force: true });
}
console.log(`\n${tests.length - failures} of ${tests.length} tests within ±5 % of fio`);
