// GROUND TRUTH for `diskdelta fleet run` and `fleet compare` (issue #26): five fio servers,
// each in a network namespace of its own (fleet-lab.ts) on ext4 on a loop device of its own
// capped by the cgroup v1 blkio throttle at a different known speed; the fifth is a slow,
// hard-disk-like host. The real CLI runs the quick preset on all five through fio --client
// and the fleet compare must name the slow host the outlier (and its disk a hard disk), each
// host's figures must be its caps, and a host killed mid-run must be named while the others'
// results are kept. Needs root, loop devices, cgroup v1 blkio, ip netns and fio; skips with
// the reason elsewhere.
//
// The tolerance. fio gives one mean per job: a single fleet run has no spread. So the fleet is
// run twice; each figure's spread is its attempts' range over their maximum, and each figure is
// judged on its attempt nearest the cap (the cap is a ceiling a busy CPU only falls short of:
// judge-against-cap.ts). It must lie within ±3 % of the cap, or within ±spread when the attempts
// differ by more; past a spread of CEILING the figure is printed "not judged" (this machine, not
// the tool, decided it). A host with a figure outside is run once more, alone with the others
// that missed (a busy minute can shorten both attempts alike). Above the cap no spread excuses a
// figure: more than 3 % over a ceiling is a counting error (a cache, a wrong unit), judged always.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FLEET_FILE_PATTERN } from '../electron/node/bench/fleet/fio-job-file.ts';
import type { FleetComparison, FleetFigureId } from '../electron/shared/analysis/fleet-compare.ts';
import { percentile } from '../electron/shared/analysis/statistics.ts';
import { expectedIops, type LabCaps } from './throttled-lab.ts';
import { fleetLabUnavailable, leftovers, reachableFrom, setUpFleetLab, type FleetLab, type FleetLabHost } from './fleet-lab.ts';

const CLI = join(import.meta.dirname, '..', 'bin', 'diskdelta.js');
const NAME = 'ddfleet';
const TOLERANCE = 0.03;
const CEILING = 0.1;
/** Four SSD-like hosts (random 4K QD1 reads above fleet-compare's HDD_MAX_IOPS) and a slow hard-disk-like one. */
// Rates near the device lab's 40 MB/s: far higher ones fall short by 5 % at load 13 here (the
// throttle's dispatch is late), far lower ones give too few 1 MiB I/Os per job to resolve 1 %.
const CAPS: LabCaps[] = [
  { bytesPerSec: 30e6, iops: 500 },
  { bytesPerSec: 36e6, iops: 600 },
  { bytesPerSec: 42e6, iops: 700 },
  { bytesPerSec: 48e6, iops: 800 },
  { bytesPerSec: 8e6, iops: 120 },
];
const SLOW = 4;
/** The host killed mid-run: a fast one, so the slow host still stands out in what is kept. */
const VICTIM = 1;
/** Seconds per test: 1 MiB I/Os at 30 MB/s give ~90 per job (and the slow host ~25, +8 in flight drained at the end). */
const RUN_ARGS = ['--preset', 'quick', '--size', '16M', '--duration', '3'];

/** Each figure of the fleet view, the cap that sets it, and its unit. */
const FIGURES: Array<{ id: FleetFigureId; truth: (caps: LabCaps) => number; unit: string }> = [
  { id: 'seqRead', truth: (c) => c.bytesPerSec, unit: 'B/s' },
  { id: 'seqWrite', truth: (c) => c.bytesPerSec, unit: 'B/s' },
  { id: 'rndRead', truth: (c) => expectedIops(c, 4096), unit: 'IOPS' },
  { id: 'rndWrite', truth: (c) => expectedIops(c, 4096), unit: 'IOPS' },
];

let reason = fleetLabUnavailable();
let lab: FleetLab | null = null;
const dir = mkdtempSync(join(tmpdir(), 'ddfleet-lab-'));
const db = join(dir, 'library.sqlite');
const hostsFile = join(dir, 'hosts');
/** The fleet compare after each full attempt, in order. */
const attempts: FleetComparison[] = [];
const started = Date.now();

before(async () => {
  if (reason) return;
  try {
    lab = await setUpFleetLab({ name: NAME, caps: CAPS, sizeBytes: 96 * 2 ** 20 });
    writeFileSync(hostsFile, lab.hostsFile);
  } catch (error) {
    reason = `cannot set the fleet lab up: ${(error as Error).message}`;
  }
});

// Runs even when a test failed, and checks it left nothing behind.
after(() => {
  try {
    lab?.tearDown();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    console.log(`fleet lab: ${((Date.now() - started) / 1000).toFixed(1)} s in all, load average ${loadavg()[0]!.toFixed(1)}`);
  }
  assert.deepEqual(leftovers(NAME), [], 'the fleet lab left namespaces, veths, loop devices or groups behind');
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  // A bound on a hang (a client waiting forever on a silent server), not on a speed: a run takes ~30 s at load 20.
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function fleetRun(hosts: readonly FleetLabHost[]): { status: number | null; stdout: string; stderr: string } {
  const file = join(dir, `hosts-${hosts.length}`);
  writeFileSync(file, hosts.map((h) => h.address).join('\n') + '\n');
  return cli(['fleet', 'run', '--hosts', file, '--folder', lab!.folder, ...RUN_ARGS, '--db', db]);
}

function fleetCompare(): FleetComparison {
  const r = cli(['fleet', 'compare', '--json', '--db', db]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as FleetComparison;
}

const rowOf = (fleet: FleetComparison, host: FleetLabHost) => {
  const row = fleet.rows.find((r) => r.host === host.key);
  assert.ok(row, `${host.key} has a row in the fleet compare`);
  return row;
};

test('each namespace reaches only the address the lab gave its peer', { timeout: 60_000 }, (t) => {
  if (reason) return t.skip(`fleet lab: ${reason}`);
  const mine = spawnSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' })
    .stdout.split('\n')
    .flatMap((l) => /inet (\d+\.\d+\.\d+\.\d+)\//.exec(l)?.slice(1, 2) ?? []);
  for (const host of lab!.hosts) {
    const routes = spawnSync('ip', ['-n', host.netns, '-4', 'route', 'show'], { encoding: 'utf8' }).stdout.trim().split('\n');
    assert.equal(routes.length, 1, `${host.netns} has one route, its link: ${routes.join(' | ')}`);
    assert.match(routes[0]!, new RegExp(`^${host.peerAddress.replace(/\d+$/, '')}\\d+/30 dev `));
    assert.ok(reachableFrom(host.netns, host.peerAddress), `${host.netns} reaches its peer ${host.peerAddress}`);
    const others = [
      ...lab!.hosts.filter((h) => h !== host).flatMap((h) => [h.address, h.peerAddress]),
      ...mine.filter((a) => a !== host.peerAddress && !a.startsWith('127.')),
      '1.1.1.1',
    ];
    for (const a of others) assert.equal(reachableFrom(host.netns, a), false, `${host.netns} must not reach ${a}`);
  }
});

test('fleet run measures each namespaced host at its caps, and fleet compare names the slow one', { timeout: 900_000 }, (t) => {
  if (reason) return t.skip(`fleet lab: ${reason}`);
  const hosts = lab!.hosts;
  /** Each host's figures, one entry per attempt it ran in. */
  const measured = new Map<FleetLabHost, Array<FleetComparison['rows'][number]['figures']>>(hosts.map((h) => [h, []]));
  const attempt = (which: readonly FleetLabHost[]) => {
    const t0 = Date.now();
    const r = fleetRun(which);
    console.log(
      `fleet lab: attempt on ${which.length} hosts took ${((Date.now() - t0) / 1000).toFixed(1)} s at load average ${loadavg()[0]!.toFixed(1)}`,
    );
    assert.equal(r.status, 0, `fleet run exit ${r.status}: ${r.stderr}`);
    // The hosts are reached over veths, not loopback: said before anything runs.
    assert.match(
      r.stderr,
      new RegExp(`${which[0]!.key.replace(/\./g, '\\.')}.* reached over the network: fio --server has no authentication`),
    );
    assert.match(r.stdout, new RegExp(`Saved ${which.length} host run\\(s\\) to the library`));
    const fleet = fleetCompare();
    for (const h of which) measured.get(h)!.push(rowOf(fleet, h).figures);
    return fleet;
  };
  attempt(hosts);
  const second = attempt(hosts);
  attempts.push(second);

  type Verdict = { line: string; status: 'within' | 'outside' | 'over' | 'not judged' };
  const judge = (host: FleetLabHost, f: (typeof FIGURES)[number]): Verdict => {
    const truth = f.truth(host.caps);
    const values = measured.get(host)!.map((m) => m[f.id] ?? NaN);
    const kept = values.reduce((x, y) => (Math.abs(y / truth - 1) < Math.abs(x / truth - 1) ? y : x));
    const spread = (Math.max(...values) - Math.min(...values)) / Math.max(...values);
    const off = kept / truth - 1;
    const allowed = Math.max(TOLERANCE, spread);
    const line = `${host.key} ${f.id}: ${values.map((v) => v.toFixed(0)).join(', ')} ${f.unit}, cap ${truth}, kept ${(off * 100).toFixed(1)} %, spread ${(spread * 100).toFixed(1)} %`;
    if (!Number.isFinite(kept)) return { line: `${line}: not measured`, status: 'outside' };
    if (off > TOLERANCE)
      return { line: `${line}: more than ${TOLERANCE * 100} % above its cap, which no busy machine explains`, status: 'over' };
    if (Math.abs(off) <= TOLERANCE) return { line: `${line}: within ±${TOLERANCE * 100} %`, status: 'within' };
    if (allowed > CEILING)
      return {
        line: `${line}: not judged: the attempts differ by more than the ${CEILING * 100} % ceiling (a busy machine)`,
        status: 'not judged',
      };
    return {
      line: `${line}: ${Math.abs(off) <= allowed ? 'within' : 'OUTSIDE'} ±${(allowed * 100).toFixed(1)} %`,
      status: Math.abs(off) <= allowed ? 'within' : 'outside',
    };
  };
  const missed = hosts.filter((h) => FIGURES.some((f) => judge(h, f).status === 'outside'));
  if (missed.length > 0) {
    console.log(`fleet lab: ${missed.map((h) => h.key).join(', ')} outside the tolerance: measured once more`);
    attempt(missed);
  }
  const verdicts = hosts.flatMap((h) => FIGURES.map((f) => judge(h, f)));
  for (const v of verdicts) console.log(`fleet lab ${v.line}`);
  const count = (s: Verdict['status']) => verdicts.filter((v) => v.status === s).length;
  console.log(
    `fleet lab: ${verdicts.length - count('not judged')} of ${verdicts.length} figures judged, ${count('not judged')} not judged`,
  );
  assert.deepEqual(
    verdicts.filter((v) => v.status === 'outside' || v.status === 'over').map((v) => v.line),
    [],
    'every judged figure within its tolerance of its cap',
  );

  // The fleet view of the second attempt (the newest run of each host), checked by hand.
  const slow = hosts[SLOW]!;
  for (const host of hosts) {
    const row = rowOf(second, host);
    if (host === slow) {
      assert.equal(row.deviceClass, 'hdd', `the slow host reads ${row.figures.rndRead} random IOPS: a hard disk's`);
      assert.deepEqual(
        row.outliers.map((o) => `${o.side} ${o.figure}`).sort(),
        FIGURES.map((f) => `low ${f.id}`).sort(),
        'the slow host is the low outlier on every figure',
      );
    } else {
      assert.equal(row.deviceClass, 'ssd', `${host.key}`);
      assert.deepEqual(row.outliers, [], `${host.key} is no outlier`);
    }
  }
  assert.deepEqual(second.superseded.sort(), hosts.map((h) => h.key).sort(), 'every host ran twice: the newest run stands for it');
  for (const f of FIGURES) {
    const caps = hosts.map((h) => f.truth(h.caps)).sort((x, y) => x - y);
    const stat = second.stats.find((s) => s.figure === f.id);
    assert.ok(stat, `a fleet statistic for ${f.id}`);
    assert.equal(stat.hosts, 5);
    // By hand, from the caps: type-7 percentiles of five values.
    for (const [name, p] of [
      ['p10', 0.1],
      ['median', 0.5],
      ['p90', 0.9],
    ] as const) {
      const expected = percentile(caps, p);
      const off = stat[name] / expected - 1;
      console.log(
        `fleet lab ${f.id} ${name}: ${stat[name].toFixed(0)}, from the caps ${expected.toFixed(0)} (${(off * 100).toFixed(1)} %)`,
      );
      assert.ok(
        Math.abs(off) <= CEILING,
        `${f.id} ${name} ${stat[name].toFixed(0)} is not within ±${CEILING * 100} % of ${expected.toFixed(0)} from the caps`,
      );
    }
  }
  // The upgrade verdict: the SSDs' median over the slow host's figure, from the caps ×4.9 and ×5.4.
  const ssd = (pick: (c: LabCaps) => number) =>
    percentile(
      hosts
        .filter((h) => h !== slow)
        .map((h) => pick(h.caps))
        .sort((x, y) => x - y),
      0.5,
    );
  const m = /would give ×([\d.]+) sequential and ×([\d.]+) random reads/.exec(rowOf(second, slow).verdict);
  assert.ok(m, rowOf(second, slow).verdict);
  const bySeq = ssd((c) => c.bytesPerSec) / slow.caps.bytesPerSec;
  const byRnd = ssd((c) => expectedIops(c, 4096)) / expectedIops(slow.caps, 4096);
  console.log(`fleet lab verdict: ${rowOf(second, slow).verdict} (from the caps ×${bySeq.toFixed(2)} and ×${byRnd.toFixed(2)})`);
  assert.ok(Math.abs(Number(m[1]) / bySeq - 1) <= CEILING, `sequential ×${m[1]} against ×${bySeq.toFixed(2)} from the caps`);
  assert.ok(Math.abs(Number(m[2]) / byRnd - 1) <= CEILING, `random ×${m[2]} against ×${byRnd.toFixed(2)} from the caps`);
  assert.match(second.summary, /^1 of 5 hosts are on hard disks/);
});

test('a host killed mid-run is named and the other hosts’ results are kept', { timeout: 600_000 }, async (t) => {
  if (reason) return t.skip(`fleet lab: ${reason}`);
  if (attempts.length === 0) return t.skip('needs the fleet runs of the test before it');
  const hosts = lab!.hosts;
  const victim = hosts[VICTIM]!;
  const before = fleetCompare();
  const stat = `/sys/block/${basename(victim.lab.device)}/stat`;
  const reads = () => Number(readFileSync(stat, 'utf8').trim().split(/\s+/)[0]);
  const readsBefore = reads();
  const child = spawn(process.execPath, [CLI, 'fleet', 'run', '--hosts', hostsFile, '--folder', lab!.folder, ...RUN_ARGS, '--db', db], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    // Mid-run: its test file is laid out and its first job has read 40 MiB from its device.
    // Its test file's name is new and unpredictable for every run: any of that shape.
    const laidOut = () => readdirSync(victim.lab.mountPoint!).some((n) => FLEET_FILE_PATTERN.test(n));
    for (let i = 0; !(laidOut() && reads() - readsBefore >= 40); i++) {
      assert.ok(i < 3000 && child.exitCode === null, `the victim's first job never started: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    lab!.kill(victim);
    console.log(`fleet lab: killed ${victim.key}'s fio --server after ${reads() - readsBefore} reads of its device`);
    const code = await exited;
    assert.equal(code, 1, `fleet run exits 1 when a host gave no results: ${stderr}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  assert.match(
    stderr,
    new RegExp(
      `${victim.key.replace(/\./g, '\\.')} answered the probe but reported no results: it stopped or lost its connection during the run`,
    ),
  );
  assert.match(stdout, /Saved 4 host run\(s\) to the library/);
  for (const host of hosts)
    if (host !== victim) assert.match(stdout, new RegExp(`^${host.key.replace(/\./g, '\\.')}: seq1m-q8t1-read `, 'm'));
  // In the library: the four others' new runs, and the victim still as its run before.
  const now = fleetCompare();
  for (const host of hosts) {
    const fresh = rowOf(now, host).runId !== rowOf(before, host).runId;
    assert.equal(fresh, host !== victim, `${host.key}: ${host === victim ? 'keeps its earlier run' : 'has the new run'}`);
  }
  assert.equal(now.rows.find((r) => r.host === hosts[SLOW]!.key)?.outliers.length, FIGURES.length, 'the slow host still stands out');
});
