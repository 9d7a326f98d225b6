// npm run bench:engine [-- --rounds N] [--duration S] [--only zram|throttle] [--tests ID,ID]
//
// Is the worker ever the bottleneck? DiskDelta's worker against fio's best engine (io_uring
// or libaio, the Debian package) on the same file with the same settings, for the 8 grid
// tests plus RND4K Q32T4, in two places (root needed for both):
//
// - /dev/zram0 with ext4 (RAM-backed: the CPU is the limit, so IOPS and CPU per I/O measure
//   the tools, not the disk). Target: DiskDelta ≥ 1.0 × fio's best in IOPS and ≤ 1.0 × its
//   CPU time per I/O, every test. zram0 is shared: the whole part runs under
//   `flock /tmp/zram0.lock`, only if zram0 is unused (disksize 0), and resets it after.
// - A loop device with ext4, capped by the cgroup v1 blkio throttle at 40 MB/s and 150 IOPS
//   each way (e2e/throttled-lab.ts): truth. Target: every test within ±3 % of its cap.
//
// Each round runs the three tools back to back, the order rotating every round, so drift on
// this shared 2-core machine hits all alike; the figures are medians over the rounds, with
// the range (min–max) printed as the spread, and the ratio is the median of the per-round
// ratios to the fio engine whose median is better (scripts/best-engine.ts: not the better of
// the two each round, which favours fio when the tools tie). CPU time (zram) is the
// children's user + system time as bash's `times` reports it, over the whole process
// (start-up included, no warm-up), divided by the I/Os done. The throttled part gives both
// tools a 0.5 s warm-up, as a real run has.
// A benchmark: it prints ratios, it asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../electron/shared/analysis/statistics.ts';
import { locateWorker } from '../electron/node/bench/worker-client.ts';
import { jobSpec, rateParams } from '../electron/node/bench/worker-argv.ts';
import { GRID_TEST_IDS } from '../electron/shared/model/catalog.ts';
import type { TestParams } from '../electron/shared/model/results.ts';
import { expectedIops, HDD_CAPS, labUnavailable, setUpThrottledLab } from '../e2e/throttled-lab.ts';
import { type VersusBest, versusBestEngine } from './best-engine.ts';
import { fioArgs, parseFioJson } from './fio-reference.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '2' },
    only: { type: 'string' },
    tests: { type: 'string' },
    'zram-locked': { type: 'boolean' },
  },
});
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const worker = locateWorker();

interface BenchTest {
  id: string;
  params: TestParams;
  job: string;
}
const ALL_TESTS: BenchTest[] = [
  ...GRID_TEST_IDS.map((id: string) => ({ id, params: rateParams(id), job: jobSpec(id) })),
  {
    id: 'rnd4k-q32t4-read',
    params: { rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 4 } as TestParams,
    job: 'name=rnd4k-q32t4-read,rw=randread,bs=4096,qd=32,threads=4',
  },
];

const selected = values.tests ? ALL_TESTS.filter((t) => values.tests!.split(',').includes(t.id)) : ALL_TESTS;

type Tool = 'diskdelta' | 'fio io_uring' | 'fio libaio';
const TOOLS: Tool[] = ['diskdelta', 'fio io_uring', 'fio libaio'];

interface Measured {
  iops: number;
  /** user + system CPU per I/O, µs */
  cpuUsPerIo: number;
  engine?: string;
}

/** CPU seconds the measured tools used so far, for withOtherWork. */
let toolCpuSec = 0;

/** /proc/stat counts in clock ticks of this many per second. */
const USER_HZ = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU seconds the whole machine spent busy so far (/proc/stat; steal counts: another guest's work). */
function machineBusyCpuSec(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / USER_HZ;
}

/**
 * How many CPUs other work took, on average, while `measure` ran: the machine's busy time
 * less the tools' own. (The load average cannot tell: RND4K Q32T4's four threads alone
 * raise it to 4.)
 */
function withOtherWork<T>(body: () => T): { result: T; otherCpus: number } {
  const start = { wall: performance.now(), busy: machineBusyCpuSec(), tools: toolCpuSec };
  const result = body();
  const wallSec = (performance.now() - start.wall) / 1000;
  const other = machineBusyCpuSec() - start.busy - (toolCpuSec - start.tools);
  return { result, otherCpus: Math.max(0, other) / wallSec };
}

/** Runs argv under bash so that `times` gives the CPU of the whole process tree. */
function timed(argv: string[], outFile: string): { status: number | null; cpuSec: number; stderr: string } {
  const r = spawnSync('bash', ['-c', '"$@" > "$OUT"; s=$?; times; exit $s', 'bench', ...argv], {
    encoding: 'utf8',
    env: { ...process.env, OUT: outFile },
  });
  // `times`: the shell's own line, then its children's: "0m1.234s 0m0.567s".
  const lines = r.stdout.trim().split('\n');
  const children = lines.at(-1)?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  if (!children) throw new Error(`no times output: ${r.stdout}`);
  const cpuSec = Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4]);
  toolCpuSec += cpuSec;
  return { status: r.status, cpuSec, stderr: r.stderr };
}

function runTool(
  tool: Tool,
  test: BenchTest,
  file: string,
  target: string,
  sizeBytes: number,
  wrap: (p: string) => string,
  scratch: string,
  warmupSec: number,
): Measured {
  const out = join(scratch, 'out.json');
  if (tool === 'diskdelta') {
    const argv = [
      wrap(worker),
      'run',
      '--target',
      target,
      '--file',
      file,
      '--size',
      String(sizeBytes),
      '--duration',
      String(durationSec),
      '--warmup',
      String(warmupSec),
      '--runs',
      '1',
      '--sample-ms',
      '0',
      '--job',
      test.job,
    ];
    const r = timed(argv, out);
    const lines = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; iops?: number; ios?: number; engine?: string });
    const result = lines.find((m) => m.type === 'result');
    if (r.status !== 0 || !result) throw new Error(`worker failed: ${r.stderr}${readFileSync(out, 'utf8')}`);
    return { iops: result.iops!, cpuUsPerIo: (r.cpuSec * 1e6) / result.ios!, engine: lines.find((m) => m.type === 'hello')?.engine };
  }
  const ioengine = tool === 'fio io_uring' ? 'io_uring' : 'libaio';
  const r = timed([wrap('/usr/bin/fio'), ...fioArgs({ file, sizeBytes, params: test.params, ioengine, durationSec, warmupSec })], out);
  if (r.status !== 0) throw new Error(`fio failed: ${r.stderr}`);
  const job = parseFioJson(readFileSync(out, 'utf8'));
  const ios = job.read.total_ios + job.write.total_ios;
  return { iops: job.read.iops + job.write.iops, cpuUsPerIo: (r.cpuSec * 1e6) / ios };
}

function prepare(target: string, sizeBytes: number): string {
  const r = spawnSync(worker, ['prepare', '--target', target, '--size', String(sizeBytes)], { encoding: 'utf8' });
  const file = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; file?: string })
    .find((m) => m.type === 'prepared')?.file;
  if (r.status !== 0 || !file) throw new Error(`could not prepare a test file in ${target}: ${r.stderr}`);
  return file;
}

/** "0.97 ±1.8 % io_uring": the ratio, two standard errors of it, and the engine it is against. */
const ratioCell = (v: VersusBest) => `${v.ratio.toFixed(2)} ±${(200 * v.medianNoise).toFixed(1)} % ${v.engine.replace('fio ', '')}`;
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const spread = (xs: number[], d = 0) => `${fmt(median(xs), d)} [${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}]`;

/** Alternating rounds of the three tools on one file; per test, every tool's figures. */
function measure(
  label: string,
  file: string,
  target: string,
  sizeBytes: number,
  wrap: (p: string) => string,
  warmupSec: number,
): Map<string, Record<Tool, Measured[]>> {
  const scratch = mkdtempSync(join(tmpdir(), 'diskdelta-bench-engine-'));
  const all = new Map<string, Record<Tool, Measured[]>>();
  try {
    for (const test of selected) {
      const byTool = { diskdelta: [], 'fio io_uring': [], 'fio libaio': [] } as Record<Tool, Measured[]>;
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < TOOLS.length; k++) {
          const tool = TOOLS[(round + k) % TOOLS.length]!;
          byTool[tool].push(runTool(tool, test, file, target, sizeBytes, wrap, scratch, warmupSec));
        }
      }
      all.set(test.id, byTool);
      process.stderr.write(`${label}: ${test.id} done\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return all;
}

function zramPart(): void {
  const sizeBytes = 1024 * 2 ** 20;
  if (readFileSync('/sys/block/zram0/disksize', 'utf8').trim() !== '0') {
    console.log('zram0 is in use by someone else (disksize ≠ 0): the zram part is skipped, nothing was touched');
    return;
  }
  const mnt = mkdtempSync(join(tmpdir(), 'diskdelta-zram-'));
  try {
    writeFileSync('/sys/block/zram0/disksize', String(2 * 2 ** 30));
    const sh = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
    };
    sh('mkfs.ext4', ['-q', '/dev/zram0']);
    sh('mount', ['/dev/zram0', mnt]);
    const file = prepare(mnt, sizeBytes);
    // No warm-up: the CPU time of the whole process is divided by the I/Os it did.
    const { result: all, otherCpus } = withOtherWork(() => measure('zram0', file, mnt, sizeBytes, (p) => p, 0));
    console.log(
      `\n/dev/zram0 with ext4 (CPU-bound), ${sizeBytes / 2 ** 20} MiB file, ${rounds} rounds × ${durationSec} s per tool and test, order rotating`,
    );
    console.log(
      "IOPS: median [min–max]; CPU: µs of user + system time per I/O, median; ratios: median of the per-round ratios to fio's better engine (by its median over the rounds), ± two standard errors of that median\n",
    );
    const head = [
      'test',
      'DiskDelta IOPS',
      'fio io_uring IOPS',
      'fio libaio IOPS',
      'IOPS ×best',
      'CPU µs/IO DD',
      'io_uring',
      'libaio',
      'CPU ×best',
      'verdict',
    ];
    const rows: string[][] = [];
    let met = 0;
    for (const [id, m] of all) {
      const dd = m.diskdelta;
      const fioFigures = (figure: keyof Measured) =>
        Object.fromEntries((['fio io_uring', 'fio libaio'] as const).map((tool) => [tool, m[tool].map((x) => x[figure] as number)]));
      const iops = versusBestEngine(
        dd.map((x) => x.iops),
        fioFigures('iops'),
        true,
      );
      const cpu = versusBestEngine(
        dd.map((x) => x.cpuUsPerIo),
        fioFigures('cpuUsPerIo'),
        false,
      );
      const ok = iops.ratio >= 1 && cpu.ratio <= 1;
      if (ok) met++;
      // A miss smaller than two standard errors of the median is said as such: the rounds
      // cannot tell it from a tie.
      const withinNoise = (v: VersusBest, short: number) => short <= 2 * v.medianNoise;
      const tie = !ok && withinNoise(iops, 1 - iops.ratio) && withinNoise(cpu, cpu.ratio - 1);
      rows.push([
        id,
        spread(dd.map((x) => x.iops)),
        spread(m['fio io_uring'].map((x) => x.iops)),
        spread(m['fio libaio'].map((x) => x.iops)),
        ratioCell(iops),
        fmt(median(dd.map((x) => x.cpuUsPerIo)), 2),
        fmt(median(m['fio io_uring'].map((x) => x.cpuUsPerIo)), 2),
        fmt(median(m['fio libaio'].map((x) => x.cpuUsPerIo)), 2),
        ratioCell(cpu),
        ok ? 'met' : tie ? 'NOT met, by less than the noise' : 'NOT met',
      ]);
    }
    printTable(head, rows);
    console.log(
      `\nzram0: ${met} of ${all.size} tests at ≥ 1.0 × fio's best IOPS and ≤ 1.0 × its CPU per I/O (DiskDelta's engine: ${all.values().next().value?.diskdelta[0]?.engine ?? '?'})`,
    );
    // On zram every tool is a CPU hog (the worker's I/O thread was seen making 2 voluntary
    // context switches in 1.5 s): its IOPS is its CPU time over its CPU per I/O. When other
    // work wants more CPUs than there are, the CPU time each tool gets is the scheduler's
    // share of the moment, and the IOPS ratio measures that, not the engine.
    const cpus = availableParallelism();
    const other = `other work took ${otherCpus.toFixed(2)} of ${cpus} CPUs on average (the machine's busy time less the tools' own)`;
    console.log(
      otherCpus > 0.25
        ? `${other}: the IOPS ratios above measure each tool's share of the scheduler as much as its engine; judge the engine by CPU per I/O, and its IOPS on a quiet machine`
        : `${other}: quiet enough for the IOPS ratios to be the engines'`,
    );
    rmSync(file, { force: true });
  } finally {
    spawnSync('umount', [mnt]);
    rmdirSync(mnt);
    writeFileSync('/sys/block/zram0/reset', '1');
  }
}

function throttlePart(): void {
  const why = labUnavailable();
  if (why) {
    console.log(`throttled lab skipped: ${why}`);
    return;
  }
  const sizeBytes = 256 * 2 ** 20;
  const lab = setUpThrottledLab({ name: 'diskdelta-bench-engine', sizeBytes: 400 * 2 ** 20, caps: HDD_CAPS, filesystem: true });
  try {
    const file = prepare(lab.mountPoint!, sizeBytes);
    spawnSync('sync');
    // Truth: a 0.5 s warm-up (fio's ramp_time), as a real run has, so neither tool's start counts.
    const all = measure('throttled', file, lab.mountPoint!, sizeBytes, (p) => lab.wrap(p), 0.5);
    console.log(
      `\nthrottled loop device with ext4 (${lab.device}, ${HDD_CAPS.bytesPerSec / 1e6} MB/s and ${HDD_CAPS.iops} IOPS each way): truth, ${rounds} rounds × ${durationSec} s`,
    );
    console.log('IOPS: median [min–max]; ×cap: median IOPS over the cap that binds (bytes/s ÷ block size, or IOPS)\n');
    const rows: string[][] = [];
    let met = 0;
    for (const [id, m] of all) {
      const test = ALL_TESTS.find((t) => t.id === id)!;
      const cap = expectedIops(HDD_CAPS, test.params.blockSize);
      const ratio = (tool: Tool) => median(m[tool].map((x) => x.iops)) / cap;
      const ok = Math.abs(ratio('diskdelta') - 1) <= 0.03;
      if (ok) met++;
      rows.push([
        id,
        fmt(cap, 1),
        spread(
          m.diskdelta.map((x) => x.iops),
          1,
        ),
        ratio('diskdelta').toFixed(3),
        spread(
          m['fio io_uring'].map((x) => x.iops),
          1,
        ),
        ratio('fio io_uring').toFixed(3),
        spread(
          m['fio libaio'].map((x) => x.iops),
          1,
        ),
        ratio('fio libaio').toFixed(3),
        ok ? 'within ±3 %' : 'OUTSIDE ±3 %',
      ]);
    }
    printTable(['test', 'cap IOPS', 'DiskDelta IOPS', '×cap', 'fio io_uring', '×cap', 'fio libaio', '×cap', 'verdict'], rows);
    console.log(
      `\nthrottled: ${met} of ${all.size} DiskDelta figures within ±3 % of the cap (engine ${all.values().next().value?.diskdelta[0]?.engine ?? '?'}: io_uring declines a cgroup-throttled device; on the raw device the throttle charges io_uring's reads twice, see README)`,
    );
    rmSync(file, { force: true });
  } finally {
    lab.tearDown();
  }
}

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

if (process.getuid?.() !== 0) {
  console.error('bench:engine needs root (zram0, loop devices, the blkio throttle)');
  process.exit(1);
}
if (spawnSync('fio', ['--version']).status !== 0) {
  console.error('bench:engine needs fio: apt-get install fio');
  process.exit(1);
}
if (values['zram-locked']) {
  zramPart();
} else {
  if (values.only !== 'throttle') {
    // zram0 is one device shared by everyone on this machine: hold its lock for the whole part.
    const self = fileURLToPath(import.meta.url);
    const passOn = ['--rounds', String(rounds), '--duration', String(durationSec), ...(values.tests ? ['--tests', values.tests] : [])];
    const r = spawnSync('flock', ['/tmp/zram0.lock', process.execPath, self, '--zram-locked', ...passOn], { stdio: 'inherit' });
    if (r.status !== 0) process.exitCode = 1;
  }
  if (values.only !== 'zram') throttlePart();
}
