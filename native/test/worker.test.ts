// The worker's own tests: the real binary, run on small sizes in temporary folders.
// Every line it prints must be protocol JSON; every failure must exit with its documented code,
// say clearly what is wrong, and leave nothing behind in the folder.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { histogramQuantile, median, medianInterval } from '../../electron/shared/analysis/statistics.ts';
import { checkWindow, steadyOf, steadyWords } from '../../electron/shared/analysis/steady-state.ts';
import type { WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';
import { EXIT_CODES, exitCodeOf, FAILURE_CODES, type FailureCode } from '../../electron/shared/model/failures.ts';
import { WORKER_OPTIONS, WORKER_VERBS } from '../../electron/shared/model/worker-options.ts';
import { buildWithoutSyscalls } from './without-syscalls.ts';
import { parseStdout, runWorker, runWorkerLimited, startWorker, testFiles, WORKER, type Outcome } from './worker-harness.ts';

const NATIVE = fileURLToPath(new URL('..', import.meta.url));
const SMALL = ['--size', '33554432', '--duration', '0.3', '--warmup', '0'];
const isRoot = process.getuid?.() === 0;
// The one list of exit codes (electron/shared/model/failures.ts), never a copy of it.
const EXIT = {
  ok: 0,
  usage: exitCodeOf('usage'),
  target: exitCodeOf('target-missing'),
  noSpace: exitCodeOf('no-space'),
  noDirect: exitCodeOf('no-direct-io'),
  interrupted: exitCodeOf('interrupted'),
  internal: exitCodeOf('internal'),
};

/** How many tasks (processes and threads) a user has now: what RLIMIT_NPROC counts. */
function tasksOfUser(uid: number): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const tid of tasks) {
      try {
        const real = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'));
        if (real?.[1] === String(uid)) count++;
      } catch {
        // gone meanwhile
      }
    }
  }
  return count;
}

/**
 * Polls the folder until no test file is left; returns the milliseconds it took, for the
 * test's diagnostics only: a speed is never asserted. The cap only ends a hung wait.
 */
async function msUntilGone(dir: string, capMs = 60_000): Promise<number> {
  const start = performance.now();
  while (testFiles(dir).length > 0) {
    if (performance.now() - start > capMs) return Number.POSITIVE_INFINITY;
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now() - start;
}

function errorOf(o: Outcome): { code: string; message: string } {
  const e = o.messages.find((m) => m.type === 'error');
  assert.ok(e && e.type === 'error', `an error line; stdout: ${o.stdout}`);
  return e;
}

/** A failure: its exit code, an error line with this code and a message, a matching done line. */
function assertFailure(o: Outcome, exit: number, code: FailureCode, says: RegExp) {
  assert.equal(o.code, exit, `exit code; stderr: ${o.stderr}`);
  assert.equal(exitCodeOf(code), exit, `the list gives ${code} the exit code ${exit}`);
  const e = errorOf(o);
  assert.ok((FAILURE_CODES as string[]).includes(e.code), `${e.code} is in the one list of failure codes`);
  assert.equal(e.code, code);
  assert.match(e.message, says);
  assert.ok(o.stderr.includes(e.message), 'the message is on stderr too, for people');
  const done = o.messages.at(-1);
  assert.ok(done?.type === 'done', 'the last line is done');
  assert.equal(done.exit_code, exit);
  assert.equal(done.status, 'error');
}

let root: string;
const scratch = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

before(() => {
  // Builds if needed (npm install does it too); a no-op when the binary is up to date.
  const make = spawnSync('make', ['-s', '-C', NATIVE], { encoding: 'utf8' });
  assert.equal(make.status, 0, `building the worker: ${make.stderr}`);
  // On the disk under /tmp (ext4 here), never on tmpfs: the worker needs O_DIRECT.
  root = mkdtempSync(join(tmpdir(), 'diskdelta-worker-test-'));
});

after(() => rmSync(root, { recursive: true, force: true }));

/** A short run (0.3 s, no warm-up) on a file `prepare` made: the argv of the tests that reuse one. */
function runOnFile(dir: string, file: string, job: string): string[] {
  return ['run', '--target', dir, '--file', file, '--duration', '0.3', '--warmup', '0', '--job', job];
}

describe('help and version', () => {
  test('--help lists every option of the table, every pattern, every job key and the exit codes', () => {
    const out = spawnSync(WORKER, ['--help'], { encoding: 'utf8' });
    assert.equal(out.status, 0);
    // The table the worker's OPTIONS[] is generated from (worker-options.h), with each default.
    for (const o of WORKER_OPTIONS) {
      assert.match(out.stdout, new RegExp(`^\\s+--${o.name}\\s`, 'm'), `--help lists --${o.name}`);
      if (o.default !== null) assert.ok(out.stdout.includes(`(default ${o.default})`), `--help gives the default of --${o.name}`);
    }
    for (const { name } of WORKER_VERBS) assert.match(out.stdout, new RegExp(`^\\s+${name}\\s`, 'm'));
    for (const rw of ['read', 'write', 'randread', 'randwrite', 'randrw', 'seeks']) assert.match(out.stdout, new RegExp(`\\s${rw}\\s`));
    for (const key of ['name=', 'rw=', 'bs=', 'qd=', 'threads=', 'read=']) assert.ok(out.stdout.includes(key), key);
    for (const { exit, meaning } of EXIT_CODES) {
      assert.ok(out.stdout.replace(/\s+/g, ' ').includes(`${exit} ${meaning}`), `exit code ${exit} documented`);
    }
    assert.equal(out.stderr, '', 'help is not mixed into stderr');
  });

  test('no arguments: usage on stderr, exit 2; --version names the protocol', () => {
    const none = spawnSync(WORKER, [], { encoding: 'utf8' });
    assert.equal(none.status, EXIT.usage);
    assert.match(none.stderr, /Usage:/);
    assert.equal(none.stdout, '');
    const version = spawnSync(WORKER, ['--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0);
    assert.match(version.stdout, /diskdelta-worker \d+\.\d+\.\d+ \(protocol 1\)/);
  });
});

describe('threads and rests (the nvme and flash presets)', () => {
  test('RND4K Q32T16 starts 16 real threads: the hello lists them per job and the process has them while it measures', async (t) => {
    const dir = scratch('t16');
    const w = startWorker([
      'run',
      '--target',
      dir,
      '--size',
      '33554432',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--runs',
      '1',
      '--job',
      'name=t16,rw=randread,bs=4096,qd=32,threads=16',
      '--job',
      'name=t1,rw=read,bs=1048576,qd=8,threads=1',
    ]);
    t.after(() => w.child.kill('SIGKILL'));
    const hello = await w.waitFor((m) => m.type === 'hello');
    assert.ok(hello.type === 'hello');
    assert.deepEqual(hello.threads, [16, 1], 'the threads of each job, in job order');
    // While job 0 measures, its 16 I/O threads and the main thread are tasks of the process.
    // The worker is stopped while they are counted, so a slow test machine cannot let job 0
    // end (and its threads exit) between the progress line and the count.
    await w.waitFor((m) => m.type === 'progress' && m.phase === 'measure' && m.job === 0);
    w.child.kill('SIGSTOP');
    const tasks = readdirSync(`/proc/${w.child.pid}/task`).length;
    w.child.kill('SIGCONT');
    assert.ok(tasks >= 17, `${tasks} tasks while RND4K Q32T16 runs: want the main thread and 16 I/O threads`);
    const o = await w.exited;
    assert.equal(o.code, EXIT.ok, o.stderr);
    const t16 = o.messages.find((m) => m.type === 'result' && m.name === 't16');
    assert.ok(t16?.type === 'result' && t16.threads === 16 && t16.ios > 0);
  });

  test('--rest idles between jobs: the next job waits, a stop signal ends the rest and nothing is left', async (t) => {
    const dir = scratch('rest');
    const jobs = ['name=a,rw=read,bs=1048576,qd=1', 'name=b,rw=read,bs=1048576,qd=1'];
    const w = startWorker(['run', '--target', dir, ...SMALL, '--runs', '1', '--rest', '600', ...jobs.flatMap((j) => ['--job', j])]);
    t.after(() => w.child.kill('SIGKILL'));
    // Job a's result arrives; job b must not start during a 600 s rest, and SIGTERM ends the rest.
    await w.waitFor((m) => m.type === 'result' && m.name === 'a');
    w.child.kill('SIGTERM');
    const o = await w.exited;
    assert.equal(o.code, EXIT.interrupted);
    assert.ok(!o.messages.some((m) => m.type === 'result' && m.name === 'b'), 'job b never ran: the rest was still on');
    assert.deepEqual(testFiles(dir), [], 'the test file is removed after a stopped rest');
  });
});

describe('a run on a folder', () => {
  test('every pattern measures, every line is protocol JSON, nothing is left', async () => {
    const dir = scratch('ok');
    const jobs = [
      'name=sr,rw=read,bs=1048576,qd=8,threads=1',
      'name=sw,rw=write,bs=1048576,qd=1,threads=1',
      'name=rr,rw=randread,bs=4096,qd=32,threads=1',
      'name=rw,rw=randwrite,bs=4096,qd=1,threads=1',
      'name=mix,rw=randrw,bs=4096,qd=8,threads=1,read=70',
      'name=sk,rw=seeks,threads=3',
    ];
    const o = await runWorker(['run', '--target', dir, ...SMALL, '--runs', '2', ...jobs.flatMap((j) => ['--job', j])]);
    assert.equal(o.code, EXIT.ok, o.stderr);
    assert.equal(o.messages[0]!.type, 'hello');
    const hello = o.messages[0]!;
    assert.ok(hello.type === 'hello');
    assert.equal(hello.kind, 'folder');
    assert.equal(hello.direct, true);
    assert.equal(hello.size, 33554432);
    assert.equal(hello.jobs, jobs.length);
    assert.ok(hello.file?.startsWith(`${dir}/.diskdelta-`) && hello.file.endsWith('.tmp'), `test file ${hello.file}`);
    const done = o.messages.at(-1)!;
    assert.ok(done.type === 'done' && done.status === 'ok' && done.exit_code === 0);
    assert.ok(!o.messages.some((m) => m.type === 'error'));
    assert.ok(
      o.messages.some((m) => m.type === 'progress' && m.phase === 'prepare'),
      'the fill reports progress',
    );

    const results = o.messages.filter((m) => m.type === 'result');
    assert.equal(results.length, jobs.length * 2, 'one result per job and run');
    for (const r of results) {
      assert.ok(r.type === 'result');
      // A seek that rewrites its block is one seek of two blocks (bonnie++ counts seeks).
      const blocks = r.rw === 'seeks' ? r.ios + r.writes : r.ios;
      assert.ok(r.ios > 0 && r.bytes === blocks * r.bs, `${r.name}: bytes = blocks × bs`);
      if (r.rw !== 'seeks') assert.equal(r.reads + r.writes, r.ios);
      // A run is one window of the job's stream, from one completion to the first at or after
      // its end (each thread its own span): how long exactly depends on when completions are
      // noticed on a busy machine, so only its sign and a bound far beyond any delay are checked.
      assert.ok(r.elapsed_ns > 0 && r.elapsed_ns < 10e9, `${r.name}: window ${r.elapsed_ns} ns`);
      if (r.threads === 1) assert.ok(Math.abs(r.bytes_per_sec - r.bytes / (r.elapsed_ns / 1e9)) / r.bytes_per_sec < 1e-5);
      const l = r.lat_ns;
      assert.ok(l.min <= l.p50 && l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max, `${r.name}: ordered percentiles`);
      assert.ok(l.mean >= l.min && l.mean <= l.max);
      assert.equal(
        r.hist.reduce((n, [, c]) => n + c, 0),
        r.ios,
        `${r.name}: every I/O is in the histogram`,
      );
      // The app recomputes percentiles from histograms: it must agree with the worker exactly.
      for (const [q, key] of [
        [0.5, 'p50'],
        [0.9, 'p90'],
        [0.99, 'p99'],
        [0.999, 'p999'],
      ] as const) {
        assert.equal(histogramQuantile(r.hist, q, l.min, l.max), l[key], `${r.name} ${key}`);
      }
      assert.ok(r.cpu.user_ns + r.cpu.sys_ns > 0, 'CPU time is reported');
      assert.equal(r.direct, true);
    }
    const byName = (n: string) =>
      results.filter((r) => r.type === 'result' && r.name === n) as Array<Extract<WorkerMessage, { type: 'result' }>>;
    assert.ok(byName('sr').every((r) => r.writes === 0 && r.qd === 8));
    assert.ok(byName('sw').every((r) => r.reads === 0 && r.writes > 0));
    const mix = byName('mix')[0]!;
    assert.ok(mix.reads > 0 && mix.writes > 0 && mix.read_pct === 70);
    // Each I/O is a read with probability 0.7: the share's spread depends on how many I/Os this
    // machine managed in 0.3 s, so the bound is 4 binomial standard deviations, never tighter than ±10 %.
    const share = mix.reads / mix.ios;
    const bound = Math.max(0.1, 4 * Math.sqrt((0.7 * 0.3) / mix.ios));
    assert.ok(
      Math.abs(share - 0.7) < bound,
      `mixed: ${(share * 100).toFixed(0)} % reads of ${mix.ios} I/Os (allowed 70 ± ${(bound * 100).toFixed(0)} %)`,
    );
    const seeks = byName('sk')[0]!;
    assert.equal(seeks.bs, 8192);
    assert.equal(seeks.threads, 3);
    assert.equal(seeks.qd, 1);
    assert.equal(seeks.reads, seeks.ios, 'every seek reads');
    // Each of the 3 seekers rewrites its every 10th block (counted over the job's stream, so
    // a run holds a tenth of its seeks, give or take one per seeker).
    assert.ok(Math.abs(seeks.writes - seeks.ios / 10) <= 3, `seeks rewrite every 10th block: ${seeks.writes}/${seeks.ios}`);
    assert.ok(seeks.writes > 0);
    const samples = o.messages.filter((m) => m.type === 'sample');
    assert.ok(samples.length >= jobs.length, 'samples stream during the runs');
    // Every 100 ms by default: sample times rise, and never more than ~10 a second (the
    // protocol's rate cap). How late a tick comes depends on the machine's load, so the steps'
    // upper bound is not asserted.
    const sr1 = samples.filter((m) => m.type === 'sample' && m.name === 'sr' && m.run === 1).map((m) => (m.type === 'sample' ? m.t_ms : 0));
    assert.ok(sr1.length >= 2, `samples of one 0.3 s run: ${sr1.join(', ')}`);
    for (let i = 1; i < sr1.length; i++) assert.ok(sr1[i]! > sr1[i - 1]!, `sample times rise: ${sr1.join(', ')}`);
    assert.ok(sr1.length <= Math.floor(sr1.at(-1)! / 100) + 1, `at most one sample per 100 ms: ${sr1.join(', ')}`);
    assert.deepEqual(testFiles(dir), [], 'the test file is removed at the end');
  });

  test('span=1: random reads stay inside the first MiB of the file (seen in every pread), without it they roam it; a span past --size → 2', async (t) => {
    if (spawnSync('strace', ['-V']).status !== 0) return t.skip('strace missing: the offsets cannot be seen');
    const dir = scratch('span');
    const asanWithoutLeaks = [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':');
    const offsetsOf = async (job: string) => {
      const trace = join(dir, 'trace');
      const o = await runWorker(['run', '--target', dir, ...SMALL, '--runs', '1', '--engine', 'psync', '--job', job], {
        // LeakSanitizer cannot run under ptrace: the sanitizer build is traced with leak checks off.
        via: ['strace', '-f', '-qq', '-e', 'trace=pread64', '-o', trace, '-E', `ASAN_OPTIONS=${asanWithoutLeaks}`],
      });
      assert.equal(o.code, EXIT.ok, o.stderr);
      const offsets = [...readFileSync(trace, 'utf8').matchAll(/pread64\(\d+, .*, 4096, (\d+)\) = 4096/g)].map((m) => Number(m[1]));
      rmSync(trace);
      return { offsets, result: o.messages.find((m) => m.type === 'result') };
    };
    const spanned = await offsetsOf('name=hot,rw=randread,bs=4096,span=1');
    assert.ok(spanned.offsets.length >= 20, `${spanned.offsets.length} reads traced`);
    assert.ok(Math.max(...spanned.offsets) < 2 ** 20, `the farthest read was at ${Math.max(...spanned.offsets)}`);
    assert.ok(new Set(spanned.offsets).size > 1, 'random, not one block');
    assert.equal((spanned.result as { span_mib?: number } | undefined)?.span_mib, 1, 'the result says its span');
    const whole = await offsetsOf('name=all,rw=randread,bs=4096');
    assert.ok(Math.max(...whole.offsets) >= 2 ** 20, 'without a span the reads go past the first MiB');
    assert.equal((whole.result as { span_mib?: number } | undefined)?.span_mib, undefined);
    const tooWide = await runWorker(['run', '--target', dir, ...SMALL, '--job', 'name=wide,rw=randread,bs=4096,span=64']);
    assert.equal(tooWide.code, EXIT.usage);
    assert.match(tooWide.stdout + tooWide.stderr, /span=64 MiB is more than the target's 32 MiB: lower span= or raise --size/);
    assert.deepEqual(testFiles(dir), [], 'nothing left');
  });

  test("the orchestrator's job specs are all accepted (parsing happens before the target check)", async () => {
    const { jobSpec } = await import('../../electron/node/bench/worker-argv.ts');
    const { testsOfKind } = await import('../../electron/shared/model/catalog.ts');
    const o = await runWorker(['run', '--target', join(root, 'absent'), ...testsOfKind('rate').flatMap((t) => ['--job', jobSpec(t.id)])]);
    assert.equal(o.code, EXIT.target, 'got past the job parser to the missing target');
  });
});

describe('engines: io_uring by default, reported fallbacks', () => {
  const helper = buildWithoutSyscalls();
  after(() => {
    if ('path' in helper) rmSync(join(helper.path, '..'), { recursive: true, force: true });
  });
  const job = ['--job', 'name=q8,rw=randread,bs=4096,qd=8,threads=1', '--job', 'name=sw,rw=write,bs=1048576,qd=4,threads=2'];

  test('io_uring is the default engine where the kernel has it, and the results say so', async () => {
    const o = await runWorker(['run', '--target', scratch('uring'), ...SMALL, ...job]);
    assert.equal(o.code, EXIT.ok, o.stderr);
    const hello = o.messages.find((m) => m.type === 'hello');
    assert.ok(hello?.type === 'hello' && hello.engine === 'io_uring', `engine ${hello?.type === 'hello' ? hello.engine : '?'}`);
    const results = o.messages.filter((m) => m.type === 'result');
    assert.ok(results.length === 2 && results.every((r) => r.type === 'result' && r.engine === 'io_uring' && r.ios > 0));
    const sw = results.find((r) => r.type === 'result' && r.name === 'sw');
    assert.ok(sw?.type === 'result' && sw.qd === 4 && sw.threads === 2 && sw.writes === sw.ios, 'two threads, each its own ring, write');
  });

  for (const errno of ['ENOSYS', 'EPERM'] as const) {
    test(`a kernel without io_uring (io_uring_setup → ${errno}, as ${errno === 'EPERM' ? 'kernel.io_uring_disabled=2' : 'CONFIG_IO_URING=n'}): aio, with a warning naming why`, async (t) => {
      if ('reason' in helper) return t.skip(helper.reason);
      const dir = scratch(`no-uring-${errno}`);
      const o = await new Promise<Outcome>((resolve, reject) => {
        const child = spawn(helper.path, [errno, 'io_uring', WORKER, 'run', '--target', dir, ...SMALL, ...job], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
        child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        child.on('error', reject);
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, messages: parseStdout(stdout) }));
      });
      assert.equal(o.code, EXIT.ok, o.stderr);
      const warning = o.messages.find((m) => m.type === 'warning' && m.code === 'io-uring-unavailable');
      assert.ok(warning?.type === 'warning', 'the fallback is reported');
      assert.match(warning.message, errno === 'EPERM' ? /not permitted.*io_uring_disabled/ : /no io_uring/);
      assert.match(warning.message, /using aio$/);
      const hello = o.messages.find((m) => m.type === 'hello');
      assert.ok(hello?.type === 'hello' && hello.engine === 'aio');
      for (const r of o.messages.filter((m) => m.type === 'result')) {
        assert.ok(r.type === 'result' && r.engine === 'aio' && r.ios > 0 && r.bytes === r.ios * r.bs, 'measured with aio, at its depth');
        assert.equal(r.qd, r.name === 'q8' ? 8 : 4);
      }
      assert.deepEqual(testFiles(dir), []);
    });
  }

  test('no io_uring and no kernel AIO: psync, two warnings, queue depth 1', async (t) => {
    if ('reason' in helper) return t.skip(helper.reason);
    const dir = scratch('no-aio');
    const child = spawnSync(helper.path, ['ENOSYS', 'io_uring,aio', WORKER, 'run', '--target', dir, ...SMALL, ...job], {
      encoding: 'utf8',
    });
    assert.equal(child.status, EXIT.ok, child.stderr);
    const messages = parseStdout(child.stdout);
    assert.deepEqual(
      messages.filter((m) => m.type === 'warning').map((m) => m.type === 'warning' && m.code),
      ['io-uring-unavailable', 'aio-unavailable'],
    );
    const results = messages.filter((m) => m.type === 'result');
    assert.ok(results.length === 2 && results.every((r) => r.type === 'result' && r.engine === 'psync' && r.qd === 1));
  });

  test('a locked-memory limit too small for registered buffers: still io_uring, one warning naming the limit', async (t) => {
    if (!isRoot) return t.skip('needs root to run the worker as another user (root has CAP_IPC_LOCK, which no limit applies to)');
    const nobody = { uid: 65534, gid: 65534 };
    const dir = mkdtempSync(join(tmpdir(), 'dd-memlock-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    chownSync(dir, nobody.uid, nobody.gid);
    // 64 KiB fits each ring (a few pages) but not 4 × 1 MiB of buffers per thread.
    const o = await runWorker(['run', '--target', dir, ...SMALL, '--job', 'name=r,rw=randread,bs=1048576,qd=4,threads=2'], {
      ...nobody,
      via: ['prlimit', '--memlock=65536'],
    });
    assert.equal(o.code, EXIT.ok, o.stderr);
    // Only the engine's warnings: a loaded machine may add its own (a run cut at its time limit),
    // which are not what this test is about (it failed so in the fast loop at load 3-12).
    const all = o.messages.filter((m) => m.type === 'warning');
    const warnings = all.filter((m) => m.type === 'warning' && m.code.startsWith('io-uring'));
    assert.deepEqual(
      warnings.map((m) => m.type === 'warning' && m.code),
      ['io-uring-buffers-unregistered'],
      `one warning for the process, not one per thread; all warnings: ${JSON.stringify(all)}`,
    );
    assert.match(
      warnings[0]!.type === 'warning' ? warnings[0]!.message : '',
      /4096 KiB of buffers per thread .*locked-memory limit 64 KiB\).*ulimit -l/,
    );
    const results = o.messages.filter((m) => m.type === 'result');
    assert.ok(results.length > 0 && results.every((r) => r.type === 'result' && r.engine === 'io_uring' && r.ios > 0));
  });
});

/**
 * How far the worker's own interval may lie from one computed from its printed figures. The
 * worker prints 6 significant digits (native/src/ndjson.c, "%.6g"), so each printed figure is
 * within half a unit of its 6th digit of the one the worker used. Two runs that differ by 0.08 %
 * have a difference known only to about 1 %, so a fixed share of the interval cannot serve:
 * the bound follows the rounding through the formula. The interval is c·sd/median; rounding by
 * at most d per value moves sd by at most d·sqrt(n/(n-1)) (centring does not lengthen a vector)
 * and the median by at most d; the worker's interval is itself printed to 6 digits.
 */
function printedIntervalTolerance(printed: number[], interval: number): number {
  const n = printed.length;
  const halfUnit = Math.max(...printed.map((v) => 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(v))) - 5)));
  const m = median(printed);
  const sdShift = halfUnit * Math.sqrt(n / (n - 1));
  // c = t·sqrt(pi/2)/sqrt(n) with Student's t at its largest (one degree of freedom): a bound.
  const c = (12.706 * Math.sqrt(Math.PI / 2)) / Math.sqrt(n);
  const tolerance = (c * sdShift) / (m - halfUnit) + (interval * halfUnit) / (m - halfUnit) + 5e-6 * interval;
  return tolerance * 1.01 + 1e-12;
}

describe('steady state (--steady, SNIA PTS)', () => {
  test("rounds stop at the first steady window, which is the app's own steadyOf of the printed rounds; else at --max-runs", async () => {
    const o = await runWorker([
      'run',
      '--target',
      scratch('steady'),
      ...SMALL,
      '--duration',
      '0.2',
      '--runs',
      '5',
      '--steady',
      '--max-runs',
      '12',
      '--job',
      'name=s,rw=randwrite,bs=4096,qd=8,threads=1',
    ]);
    assert.equal(o.code, EXIT.ok, o.stderr);
    const runs = o.messages.filter((m) => m.type === 'result') as Array<Extract<WorkerMessage, { type: 'result' }>>;
    const values = runs.map((r) => r.bytes_per_sec);
    const verdict = steadyOf(values, 12);
    const last = runs.at(-1)!;
    assert.ok(runs.length >= 5 && runs.length <= 12, `between --runs and --max-runs rounds (${runs.length})`);
    if (last.stop === 'steady') {
      assert.ok(
        verdict.steady && verdict.rounds === runs.length,
        `the worker stopped steady at round ${runs.length}; the app: ${steadyWords(verdict)}`,
      );
    } else {
      assert.equal(last.stop, 'runs');
      assert.equal(runs.length, 12);
      assert.equal(verdict.steady, false, `the worker went on to --max-runs; the app: ${steadyWords(verdict)}`);
    }
    // And no earlier window was steady by the app's rule either (the worker would have stopped there).
    for (let end = 5; end < runs.length; end++)
      assert.equal(checkWindow(values.slice(end - 5, end)).steady, false, `rounds ${end - 4}–${end}`);
  });

  test('--steady with --precision is refused: two stopping rules', async () => {
    const o = await runWorker([
      'run',
      '--target',
      scratch('steady-both'),
      ...SMALL,
      '--steady',
      '--precision',
      '0.02',
      '--job',
      'name=x,rw=read,bs=4096,qd=1,threads=1',
    ]);
    assert.equal(o.code, EXIT.usage);
    assert.match(o.stderr, /--steady and --precision are two stopping rules/);
  });
});

describe('adaptive stopping (--precision)', () => {
  test("each result carries the interval so far, which is the app's own medianInterval; the last says why it stopped", async () => {
    const o = await runWorker([
      'run',
      '--target',
      scratch('adaptive'),
      '--size',
      '33554432',
      '--warmup',
      '0.1',
      // The shortest window the worker takes (worker-options.ts), as short as the presets' own.
      '--duration',
      '0.2',
      '--runs',
      '3',
      '--precision',
      '0.02',
      '--max-time',
      '1',
      '--min-ios',
      '50',
      '--min-time',
      '0.3',
      '--job',
      'name=a,rw=randread,bs=4096,qd=4,threads=1',
      '--job',
      'name=b,rw=read,bs=1048576,qd=2,threads=1',
    ]);
    assert.equal(o.code, EXIT.ok, o.stderr);
    for (const name of ['a', 'b']) {
      const runs = o.messages.filter((m) => m.type === 'result' && m.name === name) as Array<Extract<WorkerMessage, { type: 'result' }>>;
      assert.ok(runs.length >= 3, `${name}: at least --runs runs (${runs.length})`);
      assert.ok(runs.length <= 11, `${name}: about --max-time / --duration runs at most (${runs.length})`);
      runs.forEach((r, i) => {
        assert.equal(r.run, i + 1);
        const printed = runs.slice(0, i + 1).map((x) => x.bytes_per_sec);
        const expected = medianInterval(printed);
        if (i === 0) assert.equal(r.ci_relative, undefined, 'no interval from one run');
        else {
          const tolerance = printedIntervalTolerance(printed, expected!);
          assert.ok(
            Math.abs(r.ci_relative! - expected!) <= tolerance,
            `${name} run ${r.run}: worker ${r.ci_relative} vs app ${expected} (rounding allows ±${tolerance})`,
          );
        }
        assert.equal(r.stop, i === runs.length - 1 ? r.stop : undefined, 'only the last run says why');
        if (i > 0) assert.ok(r.job_ns > runs[i - 1]!.job_ns, 'job seconds grow');
      });
      const last = runs.at(-1)!;
      const ios = runs.reduce((a, r) => a + r.ios, 0);
      if (last.stop === 'precision') {
        assert.ok(last.ci_relative! <= 0.02 && ios >= 50 && runs.length >= 3, `${name}: stopped precise and resolved`);
      } else {
        assert.equal(last.stop, 'max-time', `${name}: stop reason ${last.stop}`);
        const measured = runs.reduce((a, r) => a + r.elapsed_ns, 0) / 1e9;
        // The worker stops when the next window (at least --duration, 0.2 s; windows only grow)
        // would end past --max-time: what was measured plus one more window passes 1 s.
        const nextWindow = Math.max(0.2, last.elapsed_ns / 1e9);
        assert.ok(measured + nextWindow > 1, `${name}: max-time stops when another run would not fit (${measured.toFixed(3)} s measured)`);
      }
    }
  });

  test('without --precision: exactly --runs runs, the last saying "runs"', async () => {
    const o = await runWorker([
      'run',
      '--target',
      scratch('fixed'),
      ...SMALL,
      '--runs',
      '2',
      '--job',
      'name=f,rw=randread,bs=4096,qd=1,threads=1',
    ]);
    assert.equal(o.code, EXIT.ok, o.stderr);
    const runs = o.messages.filter((m) => m.type === 'result');
    assert.deepEqual(
      runs.map((r) => r.type === 'result' && [r.run, r.stop ?? null]),
      [
        [1, null],
        [2, 'runs'],
      ],
    );
  });
});

describe('window sizing', () => {
  // The warm-up's rate sizes the windows for --min-window-ios I/Os, at most 2 s each. Asking for
  // more I/Os than any device does in 2 s makes the sizing want its longest window: a --duration
  // already longer than that is kept, not cut to 2 s (it once was).
  test('a --duration longer than the longest sized window is kept', async () => {
    const dir = scratch('window');
    const o = await runWorker([
      'run',
      '--target',
      dir,
      '--size',
      '16777216',
      '--duration',
      '3',
      '--warmup',
      '0.4',
      '--runs',
      '1',
      '--min-window-ios',
      '1000000',
      '--job',
      'name=r,rw=randread,bs=4096,qd=1,threads=1',
    ]);
    assert.equal(o.code, 0, o.stderr);
    const results = o.messages.filter((m) => m.type === 'result');
    assert.equal(results.length, 1);
    const r = results[0]!;
    assert.ok(r.type === 'result');
    // A window spans from a completion to the first at or after its end: never much less than
    // its length, whatever the machine's speed (2.5 s lies between the 2 s cut and the 3 s kept).
    assert.ok(r.elapsed_ns >= 2.5e9, `the run's window: ${r.elapsed_ns} ns for --duration 3`);
  });
});

describe('prepare and --file (the accuracy harness reuses one file for DiskDelta and fio)', () => {
  test('prepare keeps a filled file; run --file measures it and keeps it; other files are refused', async () => {
    const dir = scratch('prepare');
    const p = await runWorker(['prepare', '--target', dir, '--size', '33554432']);
    assert.equal(p.code, 0, p.stderr);
    const prepared = p.messages.find((m) => m.type === 'prepared');
    assert.ok(prepared?.type === 'prepared');
    assert.equal(prepared.size, 33554432);
    assert.deepEqual(testFiles(dir), [prepared.file.slice(dir.length + 1)]);
    assert.equal(statSync(prepared.file).size, 33554432);
    // Filled with incompressible data: no block of zeros, no repeats in a sample.
    const head = readFileSync(prepared.file).subarray(0, 1 << 20);
    assert.ok(head.some((b) => b !== 0));
    assert.notDeepEqual(head.subarray(0, 4096), head.subarray(4096, 8192));

    const r = await runWorker(runOnFile(dir, prepared.file, 'name=r,rw=randread,bs=4096,qd=4,threads=1'));
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.messages.some((m) => m.type === 'result' && m.ios > 0));
    assert.ok(existsSync(prepared.file), 'a reused file is kept');

    const foreign = join(dir, 'my-data.bin');
    writeFileSync(foreign, Buffer.alloc(1 << 20, 1));
    const bad = await runWorker(runOnFile(dir, foreign, 'name=w,rw=write,bs=4096,qd=1,threads=1'));
    assertFailure(bad, EXIT.usage, 'usage', /only accepts a test file made by `prepare`/);
    assert.ok(
      readFileSync(foreign).every((b) => b === 1),
      'a file that is not ours is never written',
    );
    rmSync(prepared.file);
  });

  // The worker reuses one buffer per queue slot; each write stamps it, so a drive that
  // deduplicates or compresses cannot see the same 4 KiB twice. Without the stamps, slot 0
  // would leave the same 1 MiB at offsets 0, 2 MiB, 4 MiB…, and a QD1 random writer the same
  // 4 KiB everywhere it wrote.
  for (const job of ['name=sw,rw=write,bs=1048576,qd=2,threads=1', 'name=rw,rw=randwrite,bs=4096,qd=1,threads=1']) {
    test(`every 4 KiB block written is unlike every other (${job})`, async () => {
      const dir = scratch(`stamped-${job.slice(5, 7)}`);
      const size = 8 << 20;
      const p = await runWorker(['prepare', '--target', dir, '--size', String(size)]);
      assert.equal(p.code, 0, p.stderr);
      const prepared = p.messages.find((m) => m.type === 'prepared');
      assert.ok(prepared?.type === 'prepared');
      const blocks = (b: Buffer) => Array.from({ length: size / 4096 }, (_, i) => b.subarray(i * 4096, (i + 1) * 4096));
      const before = blocks(readFileSync(prepared.file));
      const r = await runWorker(runOnFile(dir, prepared.file, job));
      assert.equal(r.code, 0, r.stderr);
      // The test means something only once a slot's buffer was written a second time.
      const qd = Number(/qd=(\d+)/.exec(job)![1]);
      const ios = r.messages.reduce((n, m) => n + (m.type === 'result' ? m.ios : 0), 0);
      assert.ok(ios > qd, `the run did ${ios} I/Os: no slot was written twice`);
      const after = blocks(readFileSync(prepared.file));
      assert.ok(
        after.some((b, i) => !b.equals(before[i]!)),
        'the run changed no block of the file',
      );
      const distinct = new Set(after.map((b) => createHash('sha256').update(b).digest('hex')));
      assert.equal(distinct.size, after.length, `${after.length - distinct.size} blocks of 4 KiB repeat another`);
      rmSync(prepared.file);
    });
  }

  test('--file must be ours in every way: one link, inside --target, owned by the caller, a regular file', async () => {
    const dir = scratch('reuse-trust');
    const elsewhere = scratch('reuse-elsewhere');
    const p = await runWorker(['prepare', '--target', dir, '--size', '16777216']);
    const prepared = p.messages.find((m) => m.type === 'prepared');
    assert.ok(prepared?.type === 'prepared');
    const write = ['--size', '16777216', '--duration', '0.2', '--warmup', '0', '--job', 'name=w,rw=write,bs=4096,qd=1,threads=1'];
    // Someone's file, hard-linked under DiskDelta's name pattern.
    const victim = join(elsewhere, 'thesis.txt');
    writeFileSync(victim, 'years of work');
    const alias = join(dir, '.diskdelta-1-0000000000000000.tmp');
    linkSync(victim, alias);
    const linked = await runWorker(['run', '--target', dir, '--file', alias, ...write]);
    assertFailure(linked, EXIT.usage, 'usage', /is refused: it has more than one hard link/);
    assert.equal(readFileSync(victim, 'utf8'), 'years of work');
    rmSync(alias);
    // A test file of ours, but not in --target.
    const outside = await runWorker(['run', '--target', elsewhere, '--file', prepared.file, ...write]);
    assertFailure(outside, EXIT.usage, 'usage', /is refused: it is not inside --target/);
    // A device node under the name pattern: refused by name of what it is, never ": Success".
    if (isRoot) {
      const node = join(dir, '.diskdelta-2-0000000000000000.tmp');
      assert.equal(spawnSync('mknod', [node, 'c', '1', '3']).status, 0);
      const device = await runWorker(['run', '--target', dir, '--file', node, ...write]);
      assertFailure(device, EXIT.usage, 'usage', /is refused: it is not a regular file/);
      assert.doesNotMatch(errorOf(device).message, /Success/);
      rmSync(node);
      // Another user's file.
      chownSync(prepared.file, 65534, 65534);
      const foreign = await runWorker(['run', '--target', dir, '--file', prepared.file, ...write]);
      assertFailure(foreign, EXIT.usage, 'usage', /is refused: it belongs to another user/);
      chownSync(prepared.file, 0, 0);
    }
    const ok = await runWorker(['run', '--target', dir, '--file', prepared.file, ...write]);
    assert.equal(ok.code, 0, ok.stderr);
    rmSync(prepared.file);
  });
});

describe('threads that cannot start', () => {
  // AddressSanitizer reserves terabytes of address space for its shadow memory at start, so the
  // sanitizer build cannot run under an address-space limit at all (it aborts before main).
  const sanitized = WORKER.endsWith('-asan');
  test('under a memory limit, 64 threads: the started ones are stopped and joined, exit 8, never a crash', async (t) => {
    if (sanitized)
      return t.skip(
        'the ASan build cannot start under `ulimit -v` (its shadow memory alone exceeds any such limit); the process-limit test below takes it through the same failure',
      );
    const dir = scratch('threads');
    const prepared = (await runWorker(['prepare', '--target', dir, '--size', '67108864'])).messages.find((m) => m.type === 'prepared');
    assert.ok(prepared?.type === 'prepared');
    // 64 thread stacks alone (8 MiB each by default) exceed 400,000 KiB, so some thread always
    // fails to start; the threads before it are busy filling 8 MiB of buffers each. The old
    // code freed their memory under them: SIGSEGV/SIGFPE in about one attempt of ten.
    for (let attempt = 1; attempt <= 20; attempt++) {
      const o = await runWorkerLimited(400000, runOnFile(dir, prepared.file, 'name=r,rw=randread,bs=1048576,qd=8,threads=64'));
      assert.equal(o.signal, null, `attempt ${attempt}: the worker died of ${o.signal}`);
      assertFailure(
        o,
        EXIT.internal,
        'internal',
        /^cannot start thread \d+ of 64: (Resource temporarily unavailable|Cannot allocate memory) \(fewer threads/,
      );
    }
    assert.ok(existsSync(prepared.file));
    rmSync(prepared.file);
  });

  // The same failure (thread k of 64 cannot start while threads 1…k-1 run) reached through the
  // process limit instead of the memory limit, so that it runs under ASan too: the limit
  // counts every task of the user, and the kernel ignores it for root, so the worker runs as
  // nobody with room for about 16 threads.
  test('past the process limit, 64 threads: the started ones are stopped and joined, exit 8, never a crash (both builds)', async (t) => {
    if (!isRoot) return t.skip('needs root to run the worker as another user (the kernel does not apply RLIMIT_NPROC to root)');
    const nobody = { uid: 65534, gid: 65534 };
    const dir = mkdtempSync(join(tmpdir(), 'dd-nproc-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    chownSync(dir, nobody.uid, nobody.gid);
    const prepared = (await runWorker(['prepare', '--target', dir, '--size', '16777216'], nobody)).messages.find(
      (m) => m.type === 'prepared',
    );
    assert.ok(prepared?.type === 'prepared');
    const limited = ['prlimit', `--nproc=${tasksOfUser(nobody.uid) + 16}`];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const o = await runWorker(runOnFile(dir, prepared.file, 'name=r,rw=randread,bs=65536,qd=4,threads=64'), { ...nobody, via: limited });
      assert.equal(o.signal, null, `attempt ${attempt}: the worker died of ${o.signal}`);
      assert.doesNotMatch(o.stderr, /Sanitizer|runtime error/, `attempt ${attempt}: a sanitizer report`);
      assertFailure(o, EXIT.internal, 'internal', /^cannot start thread \d+ of 64: Resource temporarily unavailable \(fewer threads/);
    }
    assert.ok(existsSync(prepared.file));
  });
});

describe('bad input: a clear error, the documented exit code, nothing left', () => {
  const read = ['--job', 'name=r,rw=read,bs=1048576,qd=1,threads=1'];
  const write = ['--job', 'name=w,rw=write,bs=1048576,qd=1,threads=1'];

  test('a target that does not exist → 3', async () => {
    const o = await runWorker(['run', '--target', join(root, 'no-such-folder'), ...SMALL, ...read]);
    assertFailure(o, EXIT.target, 'target-missing', /does not exist/);
    assert.ok(!existsSync(join(root, 'no-such-folder')));
  });

  test('/proc, /sys and other virtual filesystems → 3, saying so (not "0.0 MiB free")', async () => {
    for (const target of ['/proc', '/sys', '/proc/self']) {
      const o = await runWorker(['run', '--target', target, ...SMALL, ...read]);
      assertFailure(o, EXIT.target, 'target-virtual-fs', /is on (proc|sysfs), a virtual filesystem the kernel makes up/);
      assert.doesNotMatch(errorOf(o).message, /free space/);
    }
  });

  test('a 5,000-character path is shown by its ends and length; the reason is not cut off', async () => {
    const long = join(root, 'x'.repeat(4000), 'y'.repeat(1000));
    const o = await runWorker(['run', '--target', long, ...SMALL, ...read]);
    assertFailure(
      o,
      EXIT.target,
      'target-missing',
      /x…y+ \(a path of \d{4} characters\) does not exist: File name too long\. Give an existing folder/,
    );
    assert.ok(errorOf(o).message.length < 400, `message of ${errorOf(o).message.length} characters`);
  });

  test('a regular file as target → 3, and the file is untouched', async () => {
    const dir = scratch('file-target');
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'keep me');
    const o = await runWorker(['run', '--target', file, ...SMALL, ...write]);
    assertFailure(o, EXIT.target, 'target-not-folder', /regular file, not a folder/);
    assert.equal(readFileSync(file, 'utf8'), 'keep me');
    assert.deepEqual(readdirSync(dir), ['notes.txt']);
  });

  test('a folder another user may not write to, or not even reach → 3, naming the user, owner and mode', async (t) => {
    if (!isRoot) return t.skip('needs root to run the worker as another user');
    // Outside the test's own 0700 folder, so that only the folder itself is closed.
    const open = mkdtempSync(join(tmpdir(), 'dd-denied-'));
    t.after(() => rmSync(open, { recursive: true, force: true }));
    chmodSync(open, 0o755);
    const closed = join(open, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    const nobody = { uid: 65534, gid: 65534 };
    const create = await runWorker(['run', '--target', open, ...SMALL, ...write], nobody);
    assertFailure(
      create,
      EXIT.target,
      'permission',
      new RegExp(
        `cannot create a test file in ${open}: the kernel said EACCES \\(Permission denied\\) to uid 65534 \\(\\w+\\); ${open} is root:root, mode 0755, and this process is not in group root\\. Choose a folder you may write to`,
      ),
    );
    const reach = await runWorker(['run', '--target', join(closed, 'inner'), ...SMALL, ...read], nobody);
    assertFailure(
      reach,
      EXIT.target,
      'permission',
      /cannot reach the target .*: the kernel said EACCES \(Permission denied\) to uid 65534 \(\w+\), who may not look inside a folder on the way/,
    );
    assert.doesNotMatch(errorOf(reach).message, /does not exist/);
    assert.deepEqual(readdirSync(open), ['closed']);
  });

  test('a read-only folder (read-only bind mount) → 3', async (t) => {
    if (!isRoot) return t.skip('needs root to make a read-only bind mount');
    const source = scratch('ro-source');
    const mountpoint = scratch('ro-mount');
    const mount = (...args: string[]) => spawnSync('mount', args, { encoding: 'utf8' });
    let m = mount('--bind', source, mountpoint);
    if (m.status !== 0) return t.skip(`mount --bind failed here: ${m.stderr.trim()}`);
    try {
      m = mount('-o', 'remount,ro,bind', mountpoint);
      assert.equal(m.status, 0, m.stderr);
      const o = await runWorker(['run', '--target', mountpoint, ...SMALL, ...read]);
      assertFailure(o, EXIT.target, 'target-not-writable', /read-only/);
      assert.deepEqual(readdirSync(mountpoint), []);
    } finally {
      spawnSync('umount', [mountpoint]);
    }
    assert.deepEqual(readdirSync(source), []);
  });

  test('not enough free space (1 PiB) → 4, refused before anything is written', async () => {
    const dir = scratch('space');
    const o = await runWorker(['run', '--target', dir, '--size', String(2 ** 50), '--duration', '0.3', '--warmup', '0', ...read]);
    assertFailure(
      o,
      EXIT.noSpace,
      'no-space',
      /not enough free space in .*: the test file needs 1 PiB \(\+16 MiB headroom\), [\d.]+ [KMGT]iB are free\. Choose a smaller test size/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  test('tmpfs without --buffered → 5, saying O_DIRECT and tmpfs', async (t) => {
    if (!existsSync('/dev/shm') || statSync('/dev/shm').isDirectory() === false) return t.skip('no /dev/shm here');
    const dir = mkdtempSync('/dev/shm/diskdelta-test-');
    try {
      const o = await runWorker(['run', '--target', dir, ...SMALL, ...read]);
      assertFailure(o, EXIT.noDirect, 'no-direct-io', /tmpfs.*allow page-cache I\/O/s);
      assert.match(errorOf(o).message, /O_DIRECT/);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('tmpfs with --buffered runs, and warns buffered-io', async (t) => {
    if (!existsSync('/dev/shm')) return t.skip('no /dev/shm here');
    const dir = mkdtempSync('/dev/shm/diskdelta-test-');
    try {
      const o = await runWorker(['run', '--target', dir, ...SMALL, '--buffered', ...read]);
      assert.equal(o.code, EXIT.ok, o.stderr);
      const warning = o.messages.find((m) => m.type === 'warning' && m.code === 'buffered-io');
      assert.ok(warning, 'a buffered-io warning');
      const hello = o.messages.find((m) => m.type === 'hello');
      assert.ok(hello?.type === 'hello' && hello.direct === false && hello.fs === 'tmpfs');
      const results = o.messages.filter((m) => m.type === 'result');
      assert.equal(results.length, 1);
      assert.ok(results.every((r) => r.type === 'result' && r.direct === false));
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('on a block device (a loop device)', () => {
    let image = '';
    let device = '';
    before(() => {
      if (!isRoot) return;
      image = join(root, 'loop.img');
      // Random content, so a hash shows whether anything was written.
      writeFileSync(image, randomBytes(64 * 2 ** 20));
      const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
      if (l.status === 0) device = l.stdout.trim();
    });
    after(() => {
      if (device) spawnSync('losetup', ['-d', device]);
    });

    test('a write test → 2, refused', async (t) => {
      if (!isRoot) return t.skip('needs root to attach a loop device');
      if (!device) return t.skip('losetup -f --show failed: no free loop device');
      for (const job of [
        write,
        ['--job', 'name=m,rw=randrw,bs=4096,qd=1,threads=1'],
        ['--job', 'name=w,rw=randwrite,bs=4096,qd=1,threads=1'],
      ]) {
        const o = await runWorker(['run', '--target', device, ...SMALL, ...read, ...job]);
        assertFailure(o, EXIT.usage, 'write-on-block-device', /refusing to write to the block device.*read-only/);
      }
    });

    test('reads and seeks run read-only: the device is not modified', async (t) => {
      if (!isRoot) return t.skip('needs root to attach a loop device');
      if (!device) return t.skip('losetup -f --show failed: no free loop device');
      const before = createHash('sha256').update(readFileSync(image)).digest('hex');
      const o = await runWorker(['run', '--target', device, ...SMALL, ...read, '--job', 'name=sk,rw=seeks,threads=3']);
      assert.equal(o.code, EXIT.ok, o.stderr);
      const hello = o.messages.find((m) => m.type === 'hello');
      assert.ok(hello?.type === 'hello' && hello.kind === 'block-device' && hello.file === null);
      assert.ok(
        o.messages.some((m) => m.type === 'warning' && m.code === 'seeks-read-only'),
        'seeks say they only read',
      );
      const seeks = o.messages.find((m) => m.type === 'result' && m.name === 'sk');
      assert.ok(seeks?.type === 'result' && seeks.ios > 0 && seeks.writes === 0);
      assert.equal(createHash('sha256').update(readFileSync(image)).digest('hex'), before, 'not one byte written');
    });

    test('--read-only: reads run and nothing is written; a writing job and a folder are refused before anything opens', async (t) => {
      if (!isRoot) return t.skip('needs root to attach a loop device');
      if (!device) return t.skip('losetup -f --show failed: no free loop device');
      const before = createHash('sha256').update(readFileSync(image)).digest('hex');
      const o = await runWorker(['run', '--target', device, '--read-only', ...SMALL, ...read, '--job', 'name=sk,rw=seeks,threads=3']);
      assert.equal(o.code, EXIT.ok, o.stderr);
      assert.ok(o.messages.some((m) => m.type === 'result' && m.name === 'sk'));
      const refused = await runWorker(['run', '--target', device, '--read-only', ...SMALL, ...read, ...write]);
      assertFailure(refused, EXIT.usage, 'read-only-mode', /read-only mode runs read jobs only: job \S+ writes/);
      assert.ok(!refused.messages.some((m) => m.type === 'hello'), 'refused before the target was opened');
      const dir = scratch('read-only');
      const folder = await runWorker(['run', '--target', dir, '--read-only', ...SMALL, ...read]);
      assertFailure(folder, EXIT.usage, 'read-only-mode', /not a block device.*test file written/);
      assert.deepEqual(readdirSync(dir), [], 'no test file was made in the folder');
      assert.equal(createHash('sha256').update(readFileSync(image)).digest('hex'), before, 'not one byte written');
    });

    test('a block size below the logical block (512 B on a 4Kn device) is skipped with a warning; the other jobs run', async (t) => {
      if (!isRoot) return t.skip('needs root to attach a loop device');
      const image4k = join(root, 'loop-4kn.img');
      writeFileSync(image4k, randomBytes(32 * 2 ** 20));
      const l = spawnSync('losetup', ['-f', '--show', '--sector-size', '4096', image4k], { encoding: 'utf8' });
      if (l.status !== 0) return t.skip(`losetup --sector-size 4096 failed: ${l.stderr.trim()}`);
      const dev4k = l.stdout.trim();
      t.after(() => spawnSync('losetup', ['-d', dev4k]));
      const jobs = ['name=b512,rw=read,bs=512,qd=4', 'name=b2k,rw=read,bs=2048,qd=4', 'name=b4k,rw=read,bs=4096,qd=4'];
      const o = await runWorker(['run', '--target', dev4k, ...SMALL, '--runs', '1', ...jobs.flatMap((j) => ['--job', j])]);
      assert.equal(o.code, EXIT.ok, o.stderr);
      const skipped = o.messages.filter((m) => m.type === 'warning' && m.code === 'block-size-skipped');
      assert.deepEqual(
        skipped.map((m) => (m.type === 'warning' ? m.message.split(':')[0] : '')),
        ['b512', 'b2k'],
      );
      assert.match(skipped[0]!.type === 'warning' ? skipped[0]!.message : '', /512-byte blocks are below .*4096 bytes, its logical block/);
      assert.deepEqual(
        o.messages.flatMap((m) => (m.type === 'result' ? [m.name] : [])),
        ['b4k'],
      );
      // On a 512-byte device the same 512 B job runs.
      const small = await runWorker(['run', '--target', device, ...SMALL, '--runs', '1', '--job', jobs[0]!]);
      assert.equal(small.code, EXIT.ok, small.stderr);
      assert.ok(small.messages.some((m) => m.type === 'result' && m.name === 'b512'));
      assert.ok(!small.messages.some((m) => m.type === 'warning' && m.code === 'block-size-skipped'));
    });

    // "Operation not permitted" as root once read "needs root or membership of the disk group".
    // The message must say who asked, what the device's owner and mode are, and what the kernel said.
    test('refused to root by a device cgroup: says the kernel refused root, so permissions are not the cause', async (t) => {
      if (!isRoot) return t.skip('needs root to attach a loop device and make a devices cgroup');
      if (!device) return t.skip('losetup -f --show failed: no free loop device');
      const devices = '/sys/fs/cgroup/devices';
      if (!existsSync(join(devices, 'devices.deny'))) return t.skip(`needs the cgroup v1 devices controller at ${devices}`);
      const group = join(devices, `diskdelta-worker-test-${process.pid}`);
      mkdirSync(group);
      t.after(() => rmdirSync(group));
      const majMin = readFileSync(`/sys/block/${basename(device)}/dev`, 'utf8').trim();
      writeFileSync(join(group, 'devices.deny'), `b ${majMin} rwm`);
      const o = await runWorker(['run', '--target', device, ...SMALL, ...read], {
        via: ['sh', '-c', `echo $$ > ${join(group, 'cgroup.procs')} && exec "$@"`, 'sh'],
      });
      const st = statSync(device);
      assertFailure(
        o,
        EXIT.target,
        'permission',
        new RegExp(
          `cannot open the block device ${device} read-only \\(O_RDONLY\\|O_DIRECT\\): the kernel said EPERM \\(Operation not permitted\\) to root \\(uid 0\\), ` +
            `so file permissions are not the cause \\(${device} is \\w+:\\w+, mode 0${(st.mode & 0o7777).toString(8)}\\): .*device cgroup`,
        ),
      );
      assert.doesNotMatch(errorOf(o).message, /needs root/);
    });

    test('refused to an ordinary user: names the user, the owner, group and mode, and the way in', async (t) => {
      if (!isRoot) return t.skip('needs root to attach a loop device and to run the worker as another user');
      if (!device) return t.skip('losetup -f --show failed: no free loop device');
      const o = await runWorker(['run', '--target', device, ...SMALL, ...read], { uid: 65534, gid: 65534 });
      const st = statSync(device);
      const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
      // Debian's loop devices are root:disk 0660 (join the group); elsewhere 0600 (only root).
      const way =
        st.mode & 0o040
          ? 'and this process is not in group \\w+\\. Run as root, or join that group \\(usermod -aG \\w+ \\$USER'
          : 'so only its owner may open it\\. Run as root';
      assertFailure(
        o,
        EXIT.target,
        'permission',
        new RegExp(`the kernel said EACCES \\(Permission denied\\) to uid 65534 \\(\\w+\\); ${device} is \\w+:\\w+, mode ${mode}, ${way}`),
      );
    });
  });

  test('hold --readers 4: an option its verb does not take → 2, naming the option and the verb', async () => {
    const dir = scratch('not-of-verb');
    const o = await runWorker(['hold', '--target', dir, '--socket', join(dir, 's'), '--fd', '3', '--readers', '4']);
    assertFailure(o, EXIT.usage, 'usage', /^--readers is not an option of hold: hold takes --target, .*--socket/);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('every verb refuses every option of the table it does not take (exit 2, named), before any work', async () => {
    const dir = scratch('verb-masks');
    const value = (kind: string) => (kind === 'job' ? 'rw=read' : kind === 'string' ? 'x' : kind === 'flag' ? null : '3');
    for (const verb of WORKER_VERBS) {
      for (const option of WORKER_OPTIONS.filter((o) => !o.verbs.includes(verb.name))) {
        const v = value(option.kind);
        const o = await runWorker([verb.name, '--target', dir, `--${option.name}`, ...(v === null ? [] : [v])]);
        assertFailure(o, EXIT.usage, 'usage', new RegExp(`^--${option.name} is not an option of ${verb.name}:`));
      }
    }
    assert.deepEqual(readdirSync(dir), []);
  });

  test('malformed options and job specs → 2, naming the bad value, before touching the folder', async () => {
    const dir = scratch('usage');
    const cases: Array<[string[], RegExp]> = [
      [['--size', '1G'], /--size '1G'/],
      [['--size', '-5'], /--size '-5'/],
      [['--size', ''], /--size ''/],
      [['--size', '1.5'], /--size '1.5'/],
      [['--size', '4096'], /--size '4096'.*range/],
      [['--size', '99999999999999999999999'], /--size/],
      [['--duration', 'abc'], /--duration 'abc'/],
      [['--duration', '0'], /--duration '0'/],
      [['--duration', 'nan'], /--duration 'nan'/],
      [['--warmup', '-1'], /--warmup '-1'/],
      [['--runs', '0'], /--runs '0'/],
      [['--runs', '2x'], /--runs '2x'/],
      [['--sample-ms', '10'], /--sample-ms/],
      [['--engine', 'spdk'], /--engine 'spdk'/],
      [['--job', 'rw=bogus'], /--job 'rw=bogus'.*rw 'bogus'/],
      [['--job', 'rw=read,bs=1000'], /bs=1000 is not a multiple of 512/],
      [['--job', 'rw=read,qd=0'], /qd=0/],
      [['--job', 'rw=read,threads=65'], /threads=65/],
      // Each key within its range, together 4 TiB of buffers.
      [['--job', 'rw=read,bs=67108864,qd=1024,threads=64'], /qd × bs × threads = 1024 × 67108864 × 64 bytes .* over the limit of 1024 MiB/],
      [['--job', 'rw=read,bs=4k'], /bs=4k/],
      [['--job', 'rw=read,name=Bad!'], /name 'Bad!'/],
      [['--job', 'rw=read,colour=red'], /unknown job key 'colour'/],
      [['--job', 'bs=4096'], /rw= is required/],
      [['--job', 'nonsense'], /'nonsense' is not key=value/],
      [['--frobnicate'], /unknown option '--frobnicate'/],
      [['--duration'], /--duration needs a value/],
    ];
    for (const [args, says] of cases) {
      const jobs = args[0] === '--job' ? [] : read;
      const o = await runWorker(['run', '--target', dir, ...SMALL, ...jobs, ...args]);
      assertFailure(o, EXIT.usage, 'usage', says);
    }
    const noJob = await runWorker(['run', '--target', dir, ...SMALL]);
    assertFailure(noJob, EXIT.usage, 'usage', /at least one --job/);
    const noTarget = await runWorker(['run', ...SMALL, ...read]);
    assertFailure(noTarget, EXIT.usage, 'usage', /--target is required/);
    const verb = await runWorker(['explode', '--target', dir]);
    assertFailure(verb, EXIT.usage, 'usage', /unknown verb 'explode'/);
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('signals', () => {
  // An hour-long window: a worker that ignored the signal could not finish on its own within
  // the test's timeout, so "it stopped" needs no timed assertion (the speed is only reported).
  const long = ['--size', '67108864', '--duration', '3600', '--warmup', '0', '--job', 'name=rr,rw=randread,bs=4096,qd=4,threads=1'];
  const HANG = { timeout: 60_000 };

  test('SIGTERM while measuring: the worker removes the test file before it exits, exit 7', HANG, async (t) => {
    const dir = scratch('term-measure');
    const w = startWorker(['run', '--target', dir, ...long]);
    t.after(() => w.child.kill('SIGKILL'));
    await w.waitFor((m) => m.type === 'progress' && m.phase === 'measure');
    assert.equal(testFiles(dir).length, 1, 'the test file exists while measuring');
    w.child.kill('SIGTERM');
    const ms = await msUntilGone(dir);
    t.diagnostic(`test file removed ${ms.toFixed(1)} ms after SIGTERM`);
    const o = await w.exited;
    assert.equal(o.code, EXIT.interrupted);
    assert.equal(errorOf(o).code, 'interrupted');
    const done = o.messages.at(-1);
    assert.ok(done?.type === 'done' && done.status === 'interrupted' && done.exit_code === EXIT.interrupted);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('SIGTERM while filling the test file: removed before the worker exits, exit 7', HANG, async (t) => {
    const dir = scratch('term-fill');
    // 2 GiB takes a few seconds to fill; the first fill progress line comes after 250 ms.
    const w = startWorker([
      'run',
      '--target',
      dir,
      '--size',
      String(2 ** 31),
      '--duration',
      '1',
      '--warmup',
      '0',
      '--job',
      'name=r,rw=read,bs=1048576,qd=1,threads=1',
    ]);
    t.after(() => w.child.kill('SIGKILL'));
    const p = await w.waitFor((m) => m.type === 'progress' && m.phase === 'prepare');
    assert.ok(p.type === 'progress' && p.done_bytes! < p.total_bytes!, 'still filling');
    assert.equal(testFiles(dir).length, 1);
    w.child.kill('SIGTERM');
    const ms = await msUntilGone(dir);
    t.diagnostic(`test file removed ${ms.toFixed(1)} ms after SIGTERM`);
    const o = await w.exited;
    assert.equal(o.code, EXIT.interrupted, o.stderr);
    assert.ok(!o.messages.some((m) => m.type === 'result'), 'no result from an interrupted run');
    assert.deepEqual(readdirSync(dir), []);
  });

  test('SIGINT is handled like SIGTERM', HANG, async (t) => {
    const dir = scratch('int');
    const w = startWorker(['run', '--target', dir, ...long]);
    t.after(() => w.child.kill('SIGKILL'));
    await w.waitFor((m) => m.type === 'progress' && m.phase === 'measure');
    w.child.kill('SIGINT');
    const o = await w.exited;
    assert.equal(o.code, EXIT.interrupted);
    assert.deepEqual(testFiles(dir), [], 'removed by the worker itself, before it exited');
  });

  test('SIGKILL: the file survives the kill, the next run removes it (stale-file-removed) and leaves nothing', async () => {
    const dir = scratch('kill');
    const w = startWorker(['run', '--target', dir, ...long]);
    await w.waitFor((m) => m.type === 'progress' && m.phase === 'measure');
    const [file] = testFiles(dir);
    assert.ok(file);
    // A sweep while the run is alive must spare its file: the worker holds a lock on it.
    const sweep = await runWorker(['cleanup', '--target', dir]);
    assert.equal(sweep.code, 0);
    assert.ok(
      sweep.messages.some((m) => m.type === 'cleaned' && m.removed === 0),
      "a live run's file is not stale",
    );
    assert.deepEqual(testFiles(dir), [file]);

    w.child.kill('SIGKILL');
    const killed = await w.exited;
    assert.equal(killed.signal, 'SIGKILL');
    assert.deepEqual(testFiles(dir), [file], 'nobody could remove it yet');

    const next = await runWorker(['run', '--target', dir, ...SMALL, '--job', 'name=r,rw=read,bs=1048576,qd=1,threads=1']);
    assert.equal(next.code, EXIT.ok, next.stderr);
    const stale = next.messages.find((m) => m.type === 'warning' && m.code === 'stale-file-removed');
    assert.ok(stale?.type === 'warning' && stale.message.includes(file), 'the next run says it removed the stale file');
    assert.deepEqual(readdirSync(dir), [], 'nothing left');
  });

  test('SIGKILL, then the cleanup verb removes the stale file', async () => {
    const dir = scratch('kill-cleanup');
    const w = startWorker(['run', '--target', dir, ...long]);
    await w.waitFor((m) => m.type === 'progress' && m.phase === 'measure');
    w.child.kill('SIGKILL');
    await w.exited;
    assert.equal(testFiles(dir).length, 1);
    const o = await runWorker(['cleanup', '--target', dir]);
    assert.equal(o.code, 0);
    assert.ok(o.messages.some((m) => m.type === 'cleaned' && m.removed === 1));
    assert.deepEqual(readdirSync(dir), []);
  });
});
