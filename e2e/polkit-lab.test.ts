// THE REAL PARTS: a system D-Bus and polkitd started here (stopped by pid afterwards), DiskDelta's
// policy installed by `diskdelta helper install`, a polkit rule for user `nobody`, and the real
// setuid pkexec. As `nobody` (no terminal, so no textual agent), DiskDelta measures a
// blkio-throttled loop device through the helper; the figures must match a root run on the same
// device within ±10 %. Also: the run outlives the helper (a lapsing authorisation cannot stop
// it), a denying rule, no agent and a missing policy each fail with their code and message,
// and the device's bytes are unchanged at the end. Needs root, pkexec, polkitd, dbus-daemon,
// setpriv, loop devices and cgroup v1 blkio; skips with the reason elsewhere.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { POLICY_FILE } from '../electron/node/bench/privilege/elevation.ts';
import { INSTALLED_HELPER } from '../electron/node/bench/privilege/helper-install.ts';
import { parseWorkerLine, type WorkerMessage } from '../electron/node/bench/worker-protocol.ts';
import { labUnavailable, setUpThrottledLab, type ThrottledLab } from './throttled-lab.ts';
import { measureUntilWithin, missOf } from './judge-against-cap.ts';
import { holdMachineLock } from './machine-lock.ts';
import { ownProcess, signalOwn, type OwnProcess } from '../scripts/own-process.ts';
import { cannotReachCheckout } from '../scripts/other-user.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'diskdelta.js');
const WORKER = join(ROOT, 'native', 'build', 'diskdelta-worker');
const POLKITD = '/usr/lib/polkit-1/polkitd';
const BUS_SOCKET = '/run/dbus/system_bus_socket';
const RULE = `/etc/polkit-1/rules.d/49-diskdelta-test-${process.pid}.rules`;
const NOBODY = 65534;
const CAP_BPS = 40_000_000;
const CAP_IOPS = 150;
const TOLERANCE = 0.1;
const SIZE = 256 * 2 ** 20;

function unavailable(): string | null {
  const lab = labUnavailable();
  if (lab) return lab;
  for (const [path, pkg] of [
    ['/usr/bin/pkexec', 'pkexec'],
    [POLKITD, 'polkitd'],
    ['/usr/bin/dbus-daemon', 'dbus'],
    ['/usr/bin/setpriv', 'util-linux'],
  ]) {
    if (!existsSync(path!)) return `needs ${path} (Debian package ${pkg})`;
  }
  if (!(statSync('/usr/bin/pkexec').mode & 0o4000)) return '/usr/bin/pkexec is not setuid root';
  // The lab runs this checkout's CLI as nobody, as a user would run their own install.
  return cannotReachCheckout(CLI) || null;
}

let reason = unavailable();
let lab: ThrottledLab | null = null;
let busPid = 0;
let polkitPid = 0;
/** The daemons this lab started, held by pid and start time (scripts/own-process.ts): teardown signals only them. */
let daemons: Array<OwnProcess | null> = [];
let checksumBefore = '';
/** What was installed before the suite (a developer's own install), restored afterwards. */
let previous: { policy: Buffer; helper: Buffer | null } | null = null;

const busUp = () =>
  new Promise<boolean>((resolve) => {
    const s = connect(BUS_SOCKET);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `command` as `nobody` (or root), inside the throttle's cgroup, in a new session without a
 * controlling terminal (so pkexec finds no textual agent and never waits for a password).
 * stdin stays open until `child.stdin.end()` (a `hold` lives until then).
 */
function startAs(user: 'nobody' | 'root', command: string[], onLine?: (line: string) => void) {
  const quoted = command.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const drop = user === 'nobody' ? `setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups ` : '';
  const env = `env -i PATH=/usr/bin:/bin HOME=${home()} DISKDELTA_DB=${join(home(), `${user}.sqlite`)} `;
  const child = spawn('sh', ['-c', lab!.joinGroup(`${drop}${env}${quoted}`)], {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: home(),
  });
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    pending += c;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      onLine?.(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

function runAs(user: 'nobody' | 'root', command: string[], onLine?: (line: string) => void): Promise<Run> {
  const { child, done } = startAs(user, command, onLine);
  child.stdin.end();
  return done;
}

/** A home and working folder both users may write. */
const home = () => join(lab!.dir, 'home');

const diskdelta = (user: 'nobody' | 'root', args: string[], onLine?: (l: string) => void) =>
  runAs(user, [process.execPath, CLI, ...args], onLine);

/** Writes (or removes) the test rule, then waits until polkitd answers by it. */
async function setRule(result: 'YES' | 'NO' | 'SLOW-YES' | null, expect: (r: Run) => boolean, what: string): Promise<void> {
  // SLOW-YES: polkitd takes 4 s to decide (polkit.spawn blocks its rules engine), a window in
  // which pkexec is waiting and can be killed.
  const answer = result === 'SLOW-YES' ? 'polkit.spawn(["/bin/sleep", "4"]); return polkit.Result.YES;' : `return polkit.Result.${result};`;
  if (result) {
    writeFileSync(
      RULE,
      `polkit.addRule(function(action, subject) {\n  if (action.id.indexOf("org.diskdelta.helper.") == 0 && subject.user == "nobody") { ${answer} }\n});\n`,
    );
  } else rmSync(RULE, { force: true });
  // polkitd reloads rules on an inotify event: probe with a verb that opens nothing.
  let last: Run | null = null;
  for (let i = 0; i < 50; i++) {
    last = await runAs('nobody', ['pkexec', INSTALLED_HELPER, 'open-ro', '/dev/null']);
    if (expect(last)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`polkitd did not take the rule (${what}): last probe exit ${last?.code}: ${last?.stderr}`);
}
const authorised = (r: Run) => r.code !== null && r.code < 126;

let releaseLab: (() => Promise<void>) | null = null;

before(async () => {
  if (reason) return;
  releaseLab = await holdMachineLock('polkit-lab', (message) => console.log(`polkit lab: ${message}`));
  try {
    lab = setUpThrottledLab({
      name: 'diskdelta-polkit',
      sizeBytes: SIZE,
      caps: { bytesPerSec: CAP_BPS, iops: CAP_IOPS, writes: false },
      filesystem: false,
      // Real bytes, so the checksum at the end would see any write.
      fill: (path) => {
        for (let off = 0; off < SIZE; off += 16 * 2 ** 20) writeFileSync(path, randomBytes(16 * 2 ** 20), { flag: 'a' });
      },
    });
  } catch (error) {
    // A container without /dev/loop-control, or every loop device taken: not a lab machine.
    reason = `cannot set up the throttled loop device: ${(error as Error).message}`;
    return;
  }
  checksumBefore = await sha256(lab.device);
  chmodSync(lab.dir, 0o711);
  mkdirSync(home());
  chmodSync(home(), 0o777);

  // The system bus and polkitd, unless this machine already runs them (then they stay).
  if (!(await busUp())) {
    mkdirSync('/run/dbus', { recursive: true });
    rmSync('/run/dbus/pid', { force: true }); // a stale pid file stops dbus-daemon from starting
    const bus = spawnSync('dbus-daemon', ['--system', '--fork', '--print-pid'], { encoding: 'utf8' });
    busPid = Number(bus.stdout.trim());
    if (bus.status !== 0 || !busPid) {
      reason = `dbus-daemon --system did not start: ${bus.stderr.trim()}`;
      return;
    }
    daemons.push(ownProcess(busPid));
  }
  if (spawnSync('pgrep', ['-x', 'polkitd']).status !== 0) {
    const polkitd = spawn(POLKITD, ['--no-debug'], { detached: true, stdio: 'ignore' });
    polkitd.unref();
    polkitPid = polkitd.pid ?? 0;
    daemons.push(ownProcess(polkitPid));
  }
  if (existsSync(POLICY_FILE)) {
    previous = { policy: readFileSync(POLICY_FILE), helper: existsSync(INSTALLED_HELPER) ? readFileSync(INSTALLED_HELPER) : null };
  }
  const install = spawnSync(process.execPath, [CLI, 'helper', 'install'], { encoding: 'utf8' });
  assert.equal(install.status, 0, install.stderr);
  await setRule('YES', authorised, 'allow');
});

after(async () => {
  // Each step on its own, so one failure leaves nothing else behind: on a shared machine another
  // engineer's lab may have uninstalled the helper meanwhile, and a restore that threw used to
  // leave this lab's polkitd, bus, loop device and cgroup running.
  const step = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      console.log(`# polkit lab teardown: ${what} failed: ${(error as Error).message}`);
    }
  };
  step('removing the rule', () => rmSync(RULE, { force: true }));
  if (previous) {
    const { policy, helper } = previous;
    step('restoring the policy', () => writeFileSync(POLICY_FILE, policy));
    if (helper)
      step('restoring the helper', () => {
        mkdirSync(dirname(INSTALLED_HELPER), { recursive: true });
        writeFileSync(INSTALLED_HELPER, helper, { mode: 0o755 });
      });
  } else if (lab) spawnSync(process.execPath, [CLI, 'helper', 'uninstall']);
  for (const daemon of daemons.reverse()) signalOwn(daemon, 'SIGTERM'); // polkitd first; one already gone is not signalled
  daemons = [];
  if (busPid) rmSync('/run/dbus/pid', { force: true });
  step('destroying the lab', () => lab?.tearDown());
  // Last: the next suite's lab starts only once this one is gone.
  await releaseLab?.();
});

interface JsonRun {
  target: { kind: string };
  results: { test: string; bytesPerSec: number | null; iops: number | null }[];
}
// A full second of warm-up lets the throttle's accounting settle before the timed runs.
const RUN_ARGS = () => [
  'run',
  '--target',
  lab!.device,
  '--preset',
  'quick',
  '--size',
  '256MiB',
  '--warmup',
  '1',
  '--duration',
  '2',
  '--runs',
  '2',
  '--json',
  '--no-save',
];

test(
  'as nobody with an allowing rule: --elevate measures the loop device, and matches a root run within ±10 %',
  { timeout: 600_000 },
  async (t) => {
    if (reason) return t.skip(`polkit lab: ${reason}`);
    const denied = await diskdelta('nobody', RUN_ARGS());
    assert.equal(denied.code, 3, 'without --elevate (and no terminal to ask on) the device is unusable');
    assert.match(denied.stderr, /needs administrator rights[\s\S]*pass --elevate/);

    const fields = { 'seq1m-q8t1-read': ['bytesPerSec', CAP_BPS], 'rnd4k-q1t1-read': ['iops', CAP_IOPS] } as const;
    type Id = keyof typeof fields;
    const figureOf = (run: JsonRun, id: Id) => run.results.find((r) => r.test === id)?.[fields[id][0]] ?? Number.NaN;
    let firstNobody: JsonRun | null = null;
    // Root and nobody alternate on the same throttled device; a pair outside ±10 % (a busy
    // moment of the shared machine in either run) is measured again (judge-against-cap.ts).
    const pairs = await measureUntilWithin(
      Object.keys(fields) as Id[],
      async (tests) => {
        const args = [...RUN_ARGS(), ...(firstNobody ? ['--tests', tests.join(',')] : [])];
        const asRoot = await diskdelta('root', args);
        assert.equal(asRoot.code, 0, asRoot.stderr);
        const asNobody = await diskdelta('nobody', [...args, '--elevate']);
        assert.equal(asNobody.code, 0, asNobody.stderr);
        const root = JSON.parse(asRoot.stdout) as JsonRun;
        const nobody = JSON.parse(asNobody.stdout) as JsonRun;
        firstNobody ??= nobody;
        const measured = new Map(tests.map((id) => [id, { root: figureOf(root, id as Id), nobody: figureOf(nobody, id as Id) }]));
        for (const [id, { root: a, nobody: b }] of measured) {
          console.log(
            `polkit lab ${id}: root ${a.toFixed(1)}, nobody through the helper ${b.toFixed(1)} ${fields[id as Id][0]}, ratio ${(b / a).toFixed(4)}, cap ${fields[id as Id][1]}`,
          );
        }
        return measured;
      },
      (id, { root: a, nobody: b }) => Math.max(missOf(b, a, TOLERANCE), b / fields[id as Id][1] - 1 - TOLERANCE),
    );
    assert.equal(firstNobody!.target.kind, 'block-device');
    // Reads only: the preset's write tests are skipped on a device.
    assert.deepEqual(
      firstNobody!.results.map((r) => r.test),
      ['seq1m-q8t1-read', 'rnd4k-q1t1-read'],
    );
    for (const [id, [field, cap]] of Object.entries(fields)) {
      const pair = pairs.get(id as Id);
      assert.ok(pair && Number.isFinite(pair.root) && Number.isFinite(pair.nobody), `${id}: both runs measured ${field}`);
      const { root: a, nobody: b } = pair;
      assert.ok(missOf(b, a, TOLERANCE) <= 0, `${id}: nobody's ${b.toFixed(1)} is not within ±10 % of root's ${a.toFixed(1)}`);
      // And it is the throttled device that was read, not a cache (which would beat the cap).
      assert.ok(b <= cap * (1 + TOLERANCE), `${id}: ${b.toFixed(1)} ${field} is above the cap ${cap}`);
    }
  },
);

test(
  'app-start as nobody: with --elevate the helper drops the whole page cache (no partial-cache warning); without it, the warning says how',
  { timeout: 180_000 },
  async (t) => {
    if (reason) return t.skip(`polkit lab: ${reason}`);
    await setRule('YES', authorised, 'allow');
    const dir = mkdtempSync(join(home(), 'app-start-'));
    chmodSync(dir, 0o777);
    const args = ['run', '--target', dir, '--tests', 'app-start', '--runs', '1', '--json', '--no-save'];
    const helped = await diskdelta('nobody', [...args, '--elevate']);
    assert.equal(helped.code, 0, helped.stderr);
    assert.doesNotMatch(helped.stdout, /cold-cache-partial/, 'the helper dropped the caches for every pass');
    assert.match(helped.stdout, /"phaseSeconds"/);
    const alone = await diskdelta('nobody', args);
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stdout, /cold-cache-partial/);
    assert.match(alone.stdout, /only the programs' own file pages were evicted .*diskdelta run --elevate/);
  },
);

test(
  "smart-ata through the real pkexec as nobody: its own action, the helper's checks as root, a denying rule stops it first",
  { timeout: 120_000 },
  async (t) => {
    if (reason) return t.skip(`polkit lab: ${reason}`);
    // No SATA disk on a lab host: what can be shown is the path `health --elevate` takes for
    // one — nobody → pkexec → polkit's smart-ata action → the helper as root → its checks.
    await setRule('YES', authorised, 'allow');
    const smartAta = (device: string) => runAs('nobody', ['pkexec', INSTALLED_HELPER, 'smart-ata', device]);
    const loop = await smartAta(lab!.device);
    assert.equal(loop.code, 3, `a loop device is refused by name (HX_REFUSED): ${loop.stderr}`);
    assert.match(loop.stderr, /not a whole SATA\/SCSI disk's name \(sdX, hdX\); nothing was read/);
    const missing = await smartAta('/dev/sdzz');
    assert.equal(missing.code, 4, `no such disk (HX_VANISHED), said by the helper running as root: ${missing.stderr}`);
    assert.match(missing.stderr, /cannot open \/dev\/sdzz: No such file or directory; nothing was read/);
    const policy = readFileSync(POLICY_FILE, 'utf8');
    assert.match(policy, /<action id="org\.diskdelta\.helper\.smart-ata">/, 'the verb has an action of its own in the installed policy');
    await setRule('NO', (r) => r.code === 127 && /Not authorized/.test(r.stderr), 'deny');
    const denied = await smartAta('/dev/sdzz');
    assert.equal(denied.code, 127, 'polkit refuses before the helper runs');
    assert.match(denied.stderr, /Not authorized/);
    assert.doesNotMatch(denied.stderr, /sdzz/, 'the helper never saw the operand');
    await setRule('YES', authorised, 'allow');
  },
);

test('expiry cannot kill a run: samples keep arriving after the helper has exited and its pid is gone', { timeout: 60_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  let helperPid = 0;
  let samplesWhileGone = 0;
  let samplesWhileAlive = 0;
  const pidAlive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  };
  const messages: WorkerMessage[] = [];
  const run = await runAs(
    'nobody',
    [
      WORKER,
      'run',
      '--target',
      lab!.device,
      '--helper',
      INSTALLED_HELPER,
      '--job',
      'name=seq,rw=read,bs=1048576,qd=8',
      '--duration',
      '3',
      '--warmup',
      '0',
      '--size',
      String(SIZE),
      '--sample-ms',
      '100',
    ],
    (line) => {
      const m = parseWorkerLine(line);
      assert.ok(!('invalid' in m), line);
      messages.push(m);
      if (m.type === 'helper' && m.state === 'exited') helperPid = m.pid;
      if (m.type === 'sample' && helperPid) {
        if (pidAlive(helperPid)) samplesWhileAlive++;
        else samplesWhileGone++;
      }
    },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.ok(helperPid > 0, 'the worker reported the helper exiting');
  const types = messages.map((m) => m.type);
  assert.ok(types.lastIndexOf('helper') < types.indexOf('sample'), 'the helper was gone before the first sample');
  assert.ok(samplesWhileGone >= 20, `samples kept arriving with the helper's pid gone: ${samplesWhileGone}`);
  assert.equal(samplesWhileAlive, 0);
  const result = messages.find((m) => m.type === 'result');
  assert.ok(
    result?.type === 'result' && result.bytes > 0 && result.bytes_per_sec <= CAP_BPS * (1 + TOLERANCE),
    'and it measured the device',
  );
});

test(
  'one authentication per session, with the real pkexec: a holder asks once, two runs measure on its descriptor, another user gets nothing',
  { timeout: 90_000 },
  async (t) => {
    if (reason) return t.skip(`polkit lab: ${reason}`);
    const socket = join(home(), `hold-${process.pid}.sock`);
    const lines: WorkerMessage[] = [];
    const holder = startAs(
      'nobody',
      [WORKER, 'hold', '--target', lab!.device, '--helper', INSTALLED_HELPER, '--socket', socket],
      (line) => {
        const m = parseWorkerLine(line);
        if (!('invalid' in m)) lines.push(m);
      },
    );
    try {
      for (let i = 0; i < 100 && !lines.some((m) => m.type === 'holding' || m.type === 'done'); i++)
        await new Promise((r) => setTimeout(r, 100));
      assert.ok(
        lines.some((m) => m.type === 'holding'),
        `the holder listens: ${JSON.stringify(lines)}`,
      );
      const job = [
        '--job',
        'name=seq,rw=read,bs=1048576,qd=8',
        '--duration',
        '3',
        '--warmup',
        '1',
        '--size',
        String(SIZE),
        '--sample-ms',
        '0',
      ];
      for (let i = 0; i < 2; i++) {
        const run = await runAs('nobody', [WORKER, 'run', '--target', lab!.device, '--fd-from', socket, ...job]);
        assert.equal(run.code, 0, run.stderr);
        const messages = run.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => parseWorkerLine(l) as WorkerMessage);
        assert.ok(!messages.some((m) => m.type === 'helper'), 'no pkexec for this run');
        const result = messages.find((m) => m.type === 'result');
        // The throttled device, read (bytes came back) and not a cache (never above the cap).
        assert.ok(
          result?.type === 'result' && result.bytes > 0 && result.bytes_per_sec <= CAP_BPS * (1 + TOLERANCE),
          `run ${i + 1} measured the device: ${JSON.stringify(result ?? run.stdout)}`,
        );
      }
      const started = lines.filter((m) => m.type === 'helper' && m.state === 'started');
      assert.equal(started.length, 1, 'pkexec ran once for the session');
      // root is another user to this holder: SO_PEERCRED refuses it.
      const other = await runAs('root', [WORKER, 'run', '--target', lab!.device, '--fd-from', socket, ...job]);
      assert.equal(other.code, 9);
      assert.match(other.stdout, /"code":"holder-gone"/);
    } finally {
      holder.child.stdin.end();
    }
    const end = await holder.done;
    assert.equal(end.code, 0, end.stderr);
    assert.ok(lines.some((m) => m.type === 'warning' && m.code === 'hold-refused'));
    assert.equal(existsSync(socket), false, 'the holder removed its socket');
  },
);

test('a terminal without --elevate: the CLI asks first; "n" leaves the device alone (exit 3)', { timeout: 60_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  if (spawnSync('script', ['--version']).status !== 0) return t.skip('needs script(1) from util-linux for a terminal');
  // script(1) gives the command a terminal; its input is our "n".
  const inner = [
    'script',
    '-q',
    '-e',
    '-c',
    [process.execPath, CLI, ...RUN_ARGS().filter((a) => a !== '--json')].map((a) => `'${a}'`).join(' '),
    '/dev/null',
  ];
  const { child, done } = startAs('nobody', inner);
  child.stdin.write('n\n');
  child.stdin.end();
  const r = await done;
  assert.match(r.stdout, /Reading \/dev\/loop\d+ needs administrator rights\. Ask for them once through polkit/);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /pass --elevate/);
});

test(
  "crypt-setup through pkexec as nobody: the policy's action runs the helper as root for the throwaway mapping (or it says why this kernel cannot)",
  { timeout: 120_000 },
  async (t) => {
    if (reason) return t.skip(`polkit lab: ${reason}`);
    await setRule('YES', authorised, 'allow');
    // The file `prepare` would have made for nobody: DiskDelta's name, nobody's own.
    const file = join(home(), `.diskdelta-${process.pid}-crypt.tmp`);
    writeFileSync(file, Buffer.alloc(8 << 20, 9));
    chownSync(file, NOBODY, NOBODY);
    const lines: WorkerMessage[] = [];
    const { child, done } = startAs(
      'nobody',
      [
        WORKER,
        'crypt-hold',
        '--target',
        file,
        '--helper',
        INSTALLED_HELPER,
        '--crypt',
        'aes-xts-plain64 512 512 none',
        '--socket',
        join(home(), 'crypt.sock'),
      ],
      (line) => {
        const m = parseWorkerLine(line);
        if ('invalid' in m) return;
        lines.push(m);
        if (m.type === 'holding') child.stdin.end();
      },
    );
    const r = await done;
    rmSync(file, { force: true });
    if (spawnSync('dmsetup', ['version']).status !== 0) {
      assert.equal(r.code, 9, r.stderr);
      const e = lines.find((m) => m.type === 'error');
      assert.ok(e?.type === 'error' && e.code === 'helper-failed', JSON.stringify(e));
      // The helper's own words: pkexec ran it as root for nobody, past its root and owner checks.
      assert.match(e.message, /could not set up a throwaway dm-crypt mapping over .*: diskdelta-helper: this kernel has no device-mapper/);
      return;
    }
    assert.equal(r.code, 0, r.stderr);
    const held = lines.find((m) => m.type === 'holding');
    assert.ok(held?.type === 'holding' && /^\/dev\/dm-\d+$/.test(held.device ?? '') && /^\/dev\/loop\d+$/.test(held.raw_device ?? ''));
    // The holder closed both descriptors: the kernel removes the mapping (a deferred removal,
    // done by a kernel worker a moment later).
    let left = '';
    for (let i = 0; i < 50; i++) {
      left = spawnSync('dmsetup', ['ls'], { encoding: 'utf8' }).stdout;
      if (!left.includes(`diskdelta-u${NOBODY}-`)) break;
      spawnSync('sleep', ['0.1']);
    }
    assert.doesNotMatch(left, new RegExp(`diskdelta-u${NOBODY}-`));
  },
);

test('the helper killed mid-open (pkexec waiting for polkit): exit 9, helper-killed, nothing measured', { timeout: 90_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  await setRule('SLOW-YES', authorised, 'slow allow');
  let killed = 0;
  const lines: WorkerMessage[] = [];
  const run = await runAs(
    'nobody',
    [
      WORKER,
      'run',
      '--target',
      lab!.device,
      '--helper',
      INSTALLED_HELPER,
      '--job',
      'name=seq,rw=read,bs=1048576,qd=8',
      '--duration',
      '1',
      '--warmup',
      '0',
    ],
    (line) => {
      const m = parseWorkerLine(line);
      if ('invalid' in m) return;
      lines.push(m);
      if (m.type === 'helper' && m.state === 'started') {
        killed = m.pid;
        const helper = ownProcess(m.pid);
        setTimeout(() => signalOwn(helper, 'SIGKILL'), 1000);
      }
    },
  );
  assert.ok(killed > 0, 'the worker named the helper it started');
  assert.equal(run.code, 9, run.stderr);
  const error = lines.find((m) => m.type === 'error');
  assert.ok(error?.type === 'error' && error.code === 'helper-killed', JSON.stringify(error));
  assert.match(
    error.message,
    new RegExp(
      `the privileged helper \\(pid ${killed}\\) was killed by signal 9 before it passed /dev/loop\\d+ back; nothing was measured`,
    ),
  );
  assert.ok(!lines.some((m) => m.type === 'result'));
});

test('a denying rule: exit 9, "polkit did not authorise"', { timeout: 60_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  await setRule('NO', (r) => r.code === 127 && /Not authorized/.test(r.stderr), 'deny');
  const r = await diskdelta('nobody', [...RUN_ARGS(), '--elevate']);
  assert.equal(r.code, 9, r.stderr);
  assert.match(
    r.stderr,
    /polkit did not authorise reading \/dev\/loop\d+ \(pkexec: Error executing command as another user: Not authorized\)/,
  );
  // Under --json the failure is also a JSON error on stdout (cli/failure-out.ts), never a result.
  const { error } = JSON.parse(r.stdout) as { error: { code: string; exit: number } };
  assert.deepEqual([error.code, error.exit], ['elevate-denied', 9]);
});

test('no polkit agent and no terminal: exit 9, says where an agent comes from', { timeout: 60_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  await setRule(null, (r) => r.code === 127 && /authentication agent/.test(r.stderr), 'no rule');
  const r = await diskdelta('nobody', [...RUN_ARGS(), '--elevate']);
  assert.equal(r.code, 9, r.stderr);
  assert.match(r.stderr, /no polkit authentication agent could ask for the password to read \/dev\/loop\d+/);
  assert.match(r.stderr, /Run from a terminal, start your desktop's polkit agent, or run as root/);
});

test('the policy not installed: exit 9, names the command that installs it', { timeout: 60_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  const un = spawnSync(process.execPath, [CLI, 'helper', 'uninstall'], { encoding: 'utf8' });
  assert.equal(un.status, 0, un.stderr);
  assert.ok(!existsSync(POLICY_FILE) && !existsSync(INSTALLED_HELPER), 'uninstall removed the policy and the helper');
  const r = await diskdelta('nobody', [...RUN_ARGS(), '--elevate']);
  assert.equal(r.code, 9, r.stderr);
  assert.match(r.stderr, /polkit policy and helper are not installed.*run `sudo npx diskdelta helper install`/);
});

test("the device's bytes are unchanged after every run above", { timeout: 60_000 }, async (t) => {
  if (reason) return t.skip(`polkit lab: ${reason}`);
  assert.equal(await sha256(lab!.device), checksumBefore);
});
