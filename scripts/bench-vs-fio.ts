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
// fio runs as scripts/fio-reference.ts sets it up (incompressible data, like the worker's).
//
// --throttle (root, cgroup v1 blkio): the same comparison on a loop-mounted ext4 capped at
// 150 MB/s and 4,000 IOPS each way, with both tools inside the capped cgroup. The cap, not
// the host's drifting cache, then sets the speed, so the two must agree if each counts bytes
// and time right; what is left of the difference is measurement, not weather.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBenchmark } from '../electron/node/bench/orchestrator.ts';
import { median } from '../electron/shared/analysis/statistics.ts';
import { pairedVerdict } from './paired-ratio.ts';
import { locateWorker } from '../electron/node/bench/worker-client.ts';
import { parseCount, parseDuration, parseDurationOrZero, parseFlags, parseSize, UsageError } from '../electron/cli/args.ts';
import { GRID_TEST_IDS } from '../electron/shared/model/catalog.ts';
import { rateParams } from '../electron/node/bench/worker-argv.ts';
import { setUpThrottledLab, type ThrottledLab } from '../e2e/throttled-lab.ts';
import { fioArgs, parseFioJson } from './fio-reference.ts';

/** The flags, checked by the CLI's own parsers: a bad value is a usage error, not a NaN run. */
function readOptions() {
  const { values } = parseFlags(process.argv.slice(2), {
    target: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0.5' },
    size: { type: 'string', default: '1GiB' },
    tests: { type: 'string' },
    throttle: { type: 'boolean' },
  });
  const tests = values.tests ? values.tests.split(',').map((t) => t.trim()) : [...GRID_TEST_IDS];
  const unknown = tests.find((t) => !GRID_TEST_IDS.includes(t));
  if (unknown !== undefined) throw new UsageError(`--tests: '${unknown}' is not a grid test; use ${GRID_TEST_IDS.join(', ')}`);
  return {
    values,
    tests,
    rounds: parseCount(values.rounds, '--rounds', 1, 1000),
    durationSec: parseDuration(values.duration, '--duration'),
    warmupSec: parseDurationOrZero(values.warmup, '--warmup'),
    sizeBytes: parseSize(values.size, '--size'),
  };
}

let options: ReturnType<typeof readOptions>;
try {
  options = readOptions();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`bench:vs-fio: ${error.message}`);
  process.exit(2);
}
const { values, tests, rounds, durationSec, warmupSec, sizeBytes } = options;

if (spawnSync('fio', ['--version']).status !== 0) {
  console.error('bench:vs-fio needs fio: apt-get install fio');
  process.exit(1);
}
const ownFolder = !values.target || values.throttle === true;
const folder = ownFolder ? mkdtempSync(join(tmpdir(), 'diskdelta-vs-fio-')) : values.target!;
const lab = values.throttle ? setUpLab() : null;
const target = lab ? lab.mountPoint! : folder;
const worker = locateWorker();

function setUpLab(): ThrottledLab {
  const caps = { bytesPerSec: 150_000_000, iops: 4000 };
  try {
    const lab = setUpThrottledLab({
      name: 'diskdelta-vs-fio',
      sizeBytes: Math.ceil(sizeBytes * 1.3) + 64 * 2 ** 20,
      caps,
      filesystem: true,
    });
    console.log(
      `throttled lab: ${lab.device} (ext4 at ${lab.mountPoint}) capped at ${caps.bytesPerSec / 1e6} MB/s and ${caps.iops} IOPS each way`,
    );
    return lab;
  } catch (error) {
    console.error(`--throttle needs root, losetup, mkfs.ext4 and cgroup v1 blkio: ${(error as Error).message}`);
    process.exit(1);
  }
}
// In throttle mode both tools start through a wrapper that joins the capped cgroup first.
const workerPath = lab ? lab.wrap(worker) : worker;
const fioPath = lab ? lab.wrap('fio') : 'fio';

const prepared = spawnSync(worker, ['prepare', '--target', target, '--size', String(sizeBytes)], { encoding: 'utf8' });
const file = prepared.stdout
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { type: string; file?: string })
  .find((m) => m.type === 'prepared')?.file;
if (prepared.status !== 0 || !file) {
  console.error(`could not prepare a test file in ${target}:\n${prepared.stderr}`);
  lab?.tearDown();
  process.exit(1);
}

interface Measured {
  bytesPerSec: number;
  /** user + system CPU in percent of one core over the window */
  cpuPercent: number;
}

function fioOnce(id: string): Measured {
  const params = rateParams(id);
  const write = params.rw === 'write' || params.rw === 'randwrite';
  const args = fioArgs({ file: file!, sizeBytes, params, ioengine: 'libaio', durationSec, warmupSec });
  const r = spawnSync(fioPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`fio failed: ${r.stderr}`);
  const job = parseFioJson(r.stdout);
  return { bytesPerSec: write ? job.write.bw_bytes : job.read.bw_bytes, cpuPercent: job.usr_cpu + job.sys_cpu };
}

async function diskdeltaOnce(id: string): Promise<Measured> {
  const record = await runBenchmark({ target, tests: [id], sizeBytes, durationSec, warmupSec, runs: 1 }, { reuseFile: file, workerPath });
  const result = record.results[0]!;
  const run = result.runs[0]!;
  return { bytesPerSec: result.bytesPerSec!, cpuPercent: ((run.cpu.userNs + run.cpu.systemNs) / run.elapsedNs) * 100 };
}

const mb = (x: number) => (x / 1e6).toFixed(1).padStart(9);
console.log(`DiskDelta vs fio ${spawnSync('fio', ['--version'], { encoding: 'utf8' }).stdout.trim()} on ${file}`);
console.log(`${sizeBytes / 2 ** 20} MiB file, ${rounds} alternating rounds of ${warmupSec} s warm-up + ${durationSec} s per test\n`);
console.log(`${'test'.padEnd(20)} ${'DiskDelta MB/s'.padStart(15)} ${'fio MB/s'.padStart(10)}  ratio  CPU DD/fio  verdict`);
console.log(`${''.padEnd(20)} ${'(median)'.padStart(15)} ${'(median)'.padStart(10)}  (median of paired rounds)`);
const counts = { within: 0, outside: 0, undecided: 0 };
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
    const ratios = dd.map((m, i) => m.bytesPerSec / fio[i]!.bytesPerSec);
    const v = pairedVerdict(ratios);
    counts[v.verdict]++;
    console.log(
      `${id.padEnd(20)} ${mb(ddMedian).padStart(15)} ${mb(fioMedian).padStart(10)}  ${v.ratio.toFixed(3)}  ${cpu.padStart(10)}  ${v.text}`,
    );
    const list = (ms: Measured[]) => ms.map((m) => (m.bytesPerSec / 1e6).toFixed(1)).join(' ');
    console.log(`${''.padEnd(20)} runs: DD ${list(dd)} | fio ${list(fio)} | ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
    console.log(
      `${''.padEnd(20)} ratios spread ${v.min.toFixed(2)}–${v.max.toFixed(2)}: one round ±${(v.roundNoise * 100).toFixed(0)} %, the median ±${(2 * v.medianNoise * 100).toFixed(1)} %`,
    );
  }
} finally {
  unlinkSync(file);
  lab?.tearDown();
  if (ownFolder) rmSync(folder, { recursive: true, force: true });
}
console.log(`\n${counts.within} of ${tests.length} tests within ±5 % of fio, ${counts.outside} outside, ${counts.undecided} undecided`);
if (counts.undecided > 0) {
  console.log(
    "Undecided: the rounds' own spread is larger than the tolerance, so this machine's noise, not the tools, decides\n" +
      'the figure. Run on a quiet disk, with more --rounds, or with --throttle (a capped loop device the noise cannot reach).',
  );
}
