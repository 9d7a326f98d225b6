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
//
// --throttle (root, cgroup v1 blkio): the same comparison on a loop-mounted ext4 capped at
// 150 MB/s and 4,000 IOPS each way, with both tools inside the capped cgroup. The cap, not
// the host's drifting cache, then sets the speed, so the two must agree if each counts bytes
// and time right; what is left of the difference is measurement, not weather.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBenchmark } from '../electron/core/bench/orchestrator.ts';
import { median } from '../electron/core/bench/statistics.ts';
import { locateWorker } from '../electron/core/bench/worker-client.ts';
import { parseSize } from '../electron/cli/args.ts';
import { GRID_TEST_IDS } from '../electron/core/model/catalog.ts';
import { rateParams } from '../electron/core/bench/worker-argv.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0.5' },
    size: { type: 'string', default: '1GiB' },
    tests: { type: 'string' },
    throttle: { type: 'boolean' },
  },
});
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const warmupSec = Number(values.warmup);
const sizeBytes = parseSize(values.size!, '--size');
const tests = (values.tests ? values.tests.split(',') : [...GRID_TEST_IDS]);

if (spawnSync('fio', ['--version']).status !== 0) {
  console.error('bench:vs-fio needs fio: apt-get install fio');
  process.exit(1);
}
const ownFolder = !values.target || values.throttle === true;
const folder = ownFolder ? mkdtempSync(join(tmpdir(), 'diskdelta-vs-fio-')) : values.target!;
const lab = values.throttle ? setUpThrottledLab(folder) : null;
const target = lab ? lab.mountPoint : folder;
const worker = locateWorker();
// In throttle mode both tools start through a wrapper that joins the capped cgroup first.
const workerPath = lab ? lab.wrap(worker) : worker;
const fioPath = lab ? lab.wrap('fio') : 'fio';

interface Lab {
  mountPoint: string;
  wrap(program: string): string;
  tearDown(): void;
}

function sh(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

function setUpThrottledLab(dir: string): Lab {
  const CAP_BPS = 150_000_000;
  const CAP_IOPS = 4000;
  const image = join(dir, 'lab.img');
  const mountPoint = join(dir, 'mnt');
  mkdirSync(mountPoint);
  sh('truncate', ['-s', `${Math.ceil((sizeBytes * 1.3) / 2 ** 20) + 64}M`, image]);
  const device = sh('losetup', ['-f', '--show', image]);
  const group = `/sys/fs/cgroup/blkio/diskdelta-vs-fio-${process.pid}`;
  const tearDown = () => {
    spawnSync('umount', [mountPoint]);
    spawnSync('losetup', ['-d', device]);
    for (let i = 0; i < 50 && existsSync(group); i++) {
      try {
        rmdirSync(group);
      } catch {
        spawnSync('sleep', ['0.1']);
      }
    }
  };
  try {
    sh('mkfs.ext4', ['-q', device]);
    sh('mount', [device, mountPoint]);
    const majMin = readFileSync(`/sys/block/${basename(device)}/dev`, 'utf8').trim();
    mkdirSync(group);
    for (const [file, cap] of [['read_bps', CAP_BPS], ['write_bps', CAP_BPS], ['read_iops', CAP_IOPS], ['write_iops', CAP_IOPS]] as const) {
      writeFileSync(join(group, `blkio.throttle.${file}_device`), `${majMin} ${cap}`);
    }
  } catch (error) {
    tearDown();
    console.error(`--throttle needs root, losetup, mkfs.ext4 and cgroup v1 blkio: ${(error as Error).message}`);
    process.exit(1);
  }
  console.log(`throttled lab: ${device} (ext4 at ${mountPoint}) capped at ${CAP_BPS / 1e6} MB/s and ${CAP_IOPS} IOPS each way`);
  return {
    mountPoint,
    tearDown,
    wrap(program: string) {
      const wrapper = join(dir, `in-cgroup-${basename(program)}.sh`);
      writeFileSync(wrapper, `#!/bin/sh\necho $$ > ${group}/cgroup.procs || exit 8\nexec '${program}' "$@"\n`);
      chmodSync(wrapper, 0o755);
      return wrapper;
    },
  };
}

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
  const p = rateParams(id);
  const write = p.rw === 'write' || p.rw === 'randwrite';
  const args = [
    '--name=vs', `--filename=${file}`, `--size=${sizeBytes}`, '--direct=1', '--ioengine=libaio',
    `--rw=${p.rw}`, `--bs=${p.blockSize}`, `--iodepth=${p.queueDepth}`, `--numjobs=${p.threads}`,
    '--time_based', `--runtime=${durationSec}`, `--ramp_time=${warmupSec}`, '--norandommap', '--randrepeat=0',
    '--scramble_buffers=0', '--group_reporting', '--output-format=json', ...(write ? ['--end_fsync=1'] : []),
  ];
  const r = spawnSync(fioPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`fio failed: ${r.stderr}`);
  type FioJob = Record<'read' | 'write', { bw_bytes: number }> & { usr_cpu: number; sys_cpu: number };
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { jobs: FioJob[] };
  const job = json.jobs[0]!;
  return { bytesPerSec: write ? job.write.bw_bytes : job.read.bw_bytes, cpuPercent: job.usr_cpu + job.sys_cpu };
}

async function diskdeltaOnce(id: string): Promise<Measured> {
  const record = await runBenchmark(
    { target, tests: [id], sizeBytes, durationSec, warmupSec, runs: 1 },
    { reuseFile: file, workerPath },
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
  lab?.tearDown();
  if (ownFolder) rmSync(folder, { recursive: true, force: true });
}
console.log(`\n${tests.length - failures} of ${tests.length} tests within ±5 % of fio`);
