// The worker's side of elevation, without polkit: `--helper` runs whatever `pkexec` is first on
// the PATH, so a stand-in pkexec (a shell script) plays each answer the real one gives — run the
// helper as root, exit 126 (dismissed), 127 with each of its messages, die by a signal — and
// the worker must turn each into its own error code, message and exit code. `--fd` must take a
// read-only descriptor of the target and nothing else. The real pkexec and polkitd are in
// e2e/polkit-lab.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWorkerLine, type WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';

const BUILD = fileURLToPath(new URL('../build/', import.meta.url));
const WORKER = join(BUILD, 'diskdelta-worker');
const HELPER = join(BUILD, 'diskdelta-helper');
const READ_JOB = [
  '--job',
  'name=r,rw=read,bs=1048576,qd=2',
  '--duration',
  '0.3',
  '--warmup',
  '0',
  '--size',
  '8388608',
  '--sample-ms',
  '100',
];
const isRoot = process.getuid?.() === 0;

let dir = '';
let loop = '';
let other = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'diskdelta-elevate-test-'));
  if (!isRoot) return;
  for (const name of ['a.img', 'b.img']) writeFileSync(join(dir, name), Buffer.alloc(16 * 2 ** 20, 3));
  const attach = (name: string) => spawnSync('losetup', ['-f', '--show', join(dir, name)], { encoding: 'utf8' });
  const a = attach('a.img');
  const b = attach('b.img');
  if (a.status === 0) loop = a.stdout.trim();
  if (b.status === 0) other = b.stdout.trim();
});

after(() => {
  for (const d of [loop, other]) if (d) spawnSync('losetup', ['-d', d]);
  rmSync(dir, { recursive: true, force: true });
});

/** A folder holding a stand-in `pkexec` with this body, for the worker's PATH. */
function fakePkexec(name: string, body: string): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pkexec'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'pkexec'), 0o755);
  return bin;
}

interface Outcome {
  code: number | null;
  messages: WorkerMessage[];
  stderr: string;
}

/** opts.path goes first on the PATH; opts.onlyPath is the whole PATH. */
function run(args: string[], opts: { path?: string; onlyPath?: string; fd?: number } = {}): Promise<Outcome> {
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  if (opts.fd !== undefined) stdio.push(opts.fd);
  const env = { ...process.env, PATH: opts.onlyPath ?? (opts.path ? `${opts.path}:/usr/bin:/bin` : process.env.PATH) };
  return new Promise((resolve, reject) => {
    const child = spawn(WORKER, args, { stdio, env });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const messages = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const m = parseWorkerLine(line);
          assert.ok(!('invalid' in m), `a protocol line: ${line}`);
          return m as WorkerMessage;
        });
      resolve({ code, messages, stderr });
    });
  });
}

function errorOf(o: Outcome) {
  const e = o.messages.find((m) => m.type === 'error');
  assert.ok(e?.type === 'error', `an error line; stderr: ${o.stderr}`);
  return e;
}

test('--helper: the helper opens the device, exits, and the worker measures on what it passed back', async (t) => {
  if (!isRoot || !loop) return t.skip('needs root (the helper runs as root) and a loop device');
  const o = await run(['run', '--target', loop, '--helper', HELPER, ...READ_JOB], { path: fakePkexec('as-root', 'exec "$@"') });
  assert.equal(o.code, 0, o.stderr);
  const types = o.messages.map((m) => m.type);
  // The helper is gone before the measuring starts.
  assert.ok(types.indexOf('helper') < types.indexOf('hello'));
  const exited = o.messages.find((m) => m.type === 'helper' && m.state === 'exited');
  assert.ok(exited?.type === 'helper' && exited.exit_code === 0);
  assert.ok(types.lastIndexOf('helper') < types.indexOf('hello'));
  const result = o.messages.find((m) => m.type === 'result');
  assert.ok(result?.type === 'result' && result.bytes > 0 && result.direct, 'measured with O_DIRECT');
});

const failures = [
  { name: 'dismissed (pkexec 126)', body: 'exit 126', exit: 9, code: 'elevate-dismissed', says: /authentication to read .* was dismissed/ },
  {
    name: 'no polkit agent (pkexec 127)',
    body: 'echo "Error creating textual authentication agent: Error opening current controlling terminal for the process (\\`/dev/tty\'): No such device or address" >&2; exit 127',
    exit: 9,
    code: 'elevate-no-agent',
    says: /no polkit authentication agent/,
  },
  {
    name: 'denied (pkexec 127)',
    body: 'echo "Error executing command as another user: Not authorized" >&2; exit 127',
    exit: 9,
    code: 'elevate-denied',
    says: /polkit did not authorise reading/,
  },
  {
    name: 'helper missing (pkexec 127)',
    body: 'echo "Error accessing /usr/local/libexec/diskdelta/diskdelta-helper: No such file or directory" >&2; exit 127',
    exit: 9,
    code: 'helper-missing',
    says: /sudo npx diskdelta helper install/,
  },
  {
    name: 'helper killed mid-open',
    body: 'kill -9 $$',
    exit: 9,
    code: 'helper-killed',
    says: /killed by signal 9 before it passed .* back; nothing was measured/,
  },
  {
    name: 'device vanished before the open',
    body: 'exec "$1" open-ro /dev/loop-diskdelta-gone',
    exit: 3,
    code: 'device-vanished',
    says: /went away before it could be opened/,
    root: true,
  },
  {
    name: 'helper refuses',
    body: 'exec "$1" open-ro /dev/null',
    exit: 3,
    code: 'helper-refused',
    says: /refused .*character device/,
    root: true,
  },
];

for (const f of failures) {
  test(`--helper: ${f.name} → ${f.code}, exit ${f.exit}`, async (t) => {
    if (!isRoot || !loop) return t.skip('needs root and a loop device (a block device target)');
    const o = await run(['run', '--target', loop, '--helper', HELPER, ...READ_JOB], { path: fakePkexec(f.code, f.body) });
    assert.equal(o.code, f.exit, o.stderr);
    const e = errorOf(o);
    assert.equal(e.code, f.code);
    assert.match(e.message, f.says);
    assert.ok(!o.messages.some((m) => m.type === 'result'), 'nothing measured');
  });
}

test('--helper without pkexec installed → pkexec-missing, exit 9, says how to install it', async (t) => {
  if (!isRoot || !loop) return t.skip('needs root and a loop device');
  const empty = join(dir, 'empty-bin');
  mkdirSync(empty, { recursive: true });
  const o = await run(['run', '--target', loop, '--helper', HELPER, ...READ_JOB], { onlyPath: empty });
  assert.equal(o.code, 9);
  const e = errorOf(o);
  assert.equal(e.code, 'pkexec-missing');
  assert.match(e.message, /apt-get install pkexec/);
});

test('--fd: measures on an inherited read-only descriptor of the target', async (t) => {
  if (!isRoot || !loop) return t.skip('needs root and a loop device');
  const fd = openSync(loop, 'r');
  try {
    const o = await run(['run', '--target', loop, '--fd', '3', ...READ_JOB], { fd });
    assert.equal(o.code, 0, o.stderr);
    assert.ok(o.messages.some((m) => m.type === 'result' && m.bytes > 0));
  } finally {
    closeSync(fd);
  }
});

test('--fd: refuses a writable descriptor, and one of another device', async (t) => {
  if (!isRoot || !loop || !other) return t.skip('needs root and two loop devices');
  const writable = openSync(loop, 'r+');
  const elsewhere = openSync(other, 'r');
  try {
    const w = await run(['run', '--target', loop, '--fd', '3', ...READ_JOB], { fd: writable });
    assert.equal(w.code, 2);
    assert.equal(errorOf(w).code, 'bad-fd');
    assert.match(errorOf(w).message, /not open read-only/);
    const o = await run(['run', '--target', loop, '--fd', '3', ...READ_JOB], { fd: elsewhere });
    assert.equal(o.code, 2);
    assert.match(errorOf(o).message, /it is another device/);
  } finally {
    closeSync(writable);
    closeSync(elsewhere);
  }
});

test('--fd and --helper are refused for a folder target', async () => {
  const o = await run(['run', '--target', dir, '--helper', HELPER, ...READ_JOB]);
  assert.equal(o.code, 2);
  assert.match(errorOf(o).message, /for a block device target/);
});

// crypt-hold: the same pkexec answers for the throwaway dm-crypt mapping, worded for it.
const CRYPT = ['--crypt', 'aes-xts-plain64 512 512 none'];
function ownTestFile(name: string): string {
  const file = join(dir, `.diskdelta-7-${name}.tmp`);
  writeFileSync(file, Buffer.alloc(4 << 20, 5));
  return file;
}

for (const f of failures.filter((x) => !x.root)) {
  test(`crypt-hold: ${f.name} → ${f.code}, exit ${f.exit}, worded for the mapping`, async () => {
    const file = ownTestFile(f.code);
    const socket = join(dir, `crypt-${f.code}.sock`);
    const o = await run(['crypt-hold', '--target', file, '--helper', HELPER, ...CRYPT, '--socket', socket], {
      path: fakePkexec(`crypt-${f.code}`, f.body),
    });
    assert.equal(o.code, f.exit, o.stderr);
    const e = errorOf(o);
    assert.equal(e.code, f.code);
    if (f.code !== 'helper-missing')
      assert.match(e.message, /throwaway dm-crypt mapping over .*\.diskdelta-7-|the mapping over .*\.diskdelta-7-/);
    assert.ok(!o.messages.some((m) => m.type === 'holding'), 'nothing held');
  });
}

test("crypt-hold: the helper refuses a file that is not DiskDelta's → helper-refused, exit 3", async (t) => {
  if (!isRoot) return t.skip('needs root (the helper runs as root)');
  const o = await run(['crypt-hold', '--target', join(dir, 'a.img'), '--helper', HELPER, ...CRYPT, '--socket', join(dir, 'r.sock')], {
    path: fakePkexec('crypt-as-root', 'exec "$@"'),
  });
  assert.equal(o.code, 3, o.stderr);
  assert.equal(errorOf(o).code, 'helper-refused');
  assert.match(errorOf(o).message, /refused a throwaway dm-crypt mapping over .*a\.img: .*not a file DiskDelta created/);
});

test('crypt-hold: where the kernel has no device-mapper the helper says so → helper-failed', async (t) => {
  if (!isRoot) return t.skip('needs root (the helper runs as root)');
  if (spawnSync('dmsetup', ['version']).status === 0)
    return t.skip('this kernel has device-mapper (the dm-crypt lab runs crypt-hold for real)');
  const o = await run(['crypt-hold', '--target', ownTestFile('nodm'), '--helper', HELPER, ...CRYPT, '--socket', join(dir, 'n.sock')], {
    path: fakePkexec('crypt-as-root', 'exec "$@"'),
  });
  assert.equal(o.code, 9, o.stderr);
  assert.equal(errorOf(o).code, 'helper-failed');
  assert.match(errorOf(o).message, /could not set up a throwaway dm-crypt mapping over .*: .*this kernel has no device-mapper/);
});

test('crypt-hold: bad usage is refused before pkexec runs', async () => {
  const pkexecRan = join(dir, 'pkexec-ran');
  const bin = fakePkexec('crypt-never', `touch '${pkexecRan}'; exit 1`);
  const cases: [string[], RegExp][] = [
    [['--crypt', 'aes-xts-plain64 512 512'], /--crypt takes "CIPHER KEY_BITS SECTOR_BYTES FLAGS", got 'aes-xts-plain64 512 512'/],
    [[], /crypt-hold needs --target FILE, --helper PATH, --crypt SPEC and --socket PATH/],
  ];
  for (const [extra, says] of cases) {
    const o = await run(['crypt-hold', '--target', ownTestFile('usage'), '--helper', HELPER, ...extra, '--socket', join(dir, 'u.sock')], {
      path: bin,
    });
    assert.equal(o.code, 2, o.stderr);
    assert.match(errorOf(o).message, says);
  }
  const missing = await run(
    ['crypt-hold', '--target', join(dir, 'gone.tmp'), '--helper', HELPER, ...CRYPT, '--socket', join(dir, 'm.sock')],
    {
      path: bin,
    },
  );
  assert.equal(missing.code, 3, missing.stderr);
  assert.equal(errorOf(missing).code, 'target-missing');
  assert.match(errorOf(missing).message, /gone\.tmp is not a file \(No such file or directory\): give the test file `prepare` made/);
  assert.equal(existsSync(pkexecRan), false, 'pkexec never ran');
});
