// The worker's `surface` verb on the real binary, on a loop device over a small file: samples
// spread from the device's first byte to its last, each timed read by read, random reads for
// the access time, nothing written (the device's bytes are the same after), a folder refused
// before anything is made, and the helper's descriptor path (a stand-in pkexec runs the real
// helper as root, as elevate.test.ts does). Speeds are not asserted: they are this machine's;
// the lab (e2e/surface-lab.test.ts) checks them against throttles of known speed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';
import { parseStdout, WORKER } from './worker-harness.ts';
import { NOBODY, reachableCopy, type User } from '../../scripts/other-user.ts';

const MiB = 2 ** 20;
const HELPER = join(WORKER, '..', 'diskdelta-helper');
const isRoot = process.getuid?.() === 0;
let dir = '';
let image = '';
let loop = '';
let other = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'dd-surface-'));
  if (!isRoot) return;
  image = join(dir, 'disk.img');
  // Not zeros: a pattern whose hash changes with any write.
  const bytes = Buffer.alloc(24 * MiB);
  for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i ^ 0x9e3779b9) >>> 0, i);
  writeFileSync(image, bytes);
  // A writable loop: the worker's own rule is what keeps the bytes (a read-only loop would
  // refuse a write in the kernel, and the hash check could not fail on its own).
  const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8', timeout: 30_000 });
  if (l.status === 0) loop = l.stdout.trim();
  writeFileSync(join(dir, 'other.img'), Buffer.alloc(4 * MiB, 7));
  const o = spawnSync('losetup', ['-f', '--show', '-r', join(dir, 'other.img')], { encoding: 'utf8', timeout: 30_000 });
  if (o.status === 0) other = o.stdout.trim();
});

after(() => {
  if (loop) spawnSync('losetup', ['-d', loop], { timeout: 30_000 });
  if (other) spawnSync('losetup', ['-d', other], { timeout: 30_000 });
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number | null;
  stderr: string;
  messages: WorkerMessage[];
}

function run(args: string[], opts: { path?: string; fd?: number; as?: User } = {}): Promise<Outcome> {
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  if (opts.fd !== undefined) stdio.push(opts.fd);
  const env = { ...process.env, PATH: opts.path ? `${opts.path}:/usr/bin:/bin` : process.env.PATH };
  return new Promise((resolve, reject) => {
    const worker = opts.as ? reachableCopy(WORKER, opts.as) : WORKER;
    const child = spawn(worker, args, { stdio, env, ...(opts.as ? { uid: opts.as.uid, gid: opts.as.gid } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, messages: parseStdout(stdout) });
    });
  });
}

type Sample = Extract<WorkerMessage, { type: 'surface-sample' }>;
type Access = Extract<WorkerMessage, { type: 'surface-access' }>;
const samplesOf = (o: Outcome) => o.messages.filter((m): m is Sample => m.type === 'surface-sample');
const accessesOf = (o: Outcome) => o.messages.filter((m): m is Access => m.type === 'surface-access');
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('surface: read-only samples over the whole device', () => {
  test('10 offsets from byte 0 to the end, evenly spaced, each read in --block reads; 20 random 4 KiB reads; nothing written', async (t) => {
    if (!isRoot || !loop) return t.skip('needs root and a loop device (losetup -f over a 24 MiB file)');
    const before = hashOf(image);
    const o = await run([
      'surface',
      '--target',
      loop,
      '--samples',
      '10',
      '--sample-bytes',
      String(2 * MiB),
      '--block',
      String(512 * 1024),
      '--accesses',
      '20',
    ]);
    assert.equal(o.code, 0, o.stderr);
    const hello = o.messages.find((m) => m.type === 'hello');
    assert.ok(hello?.type === 'hello' && hello.kind === 'block-device' && hello.direct && hello.size === 24 * MiB);
    const samples = samplesOf(o);
    assert.equal(samples.length, 10);
    assert.equal(samples[0]!.offset, 0, 'the first sample at the outer edge (byte 0)');
    assert.equal(samples.at(-1)!.offset + samples.at(-1)!.bytes, 24 * MiB, 'the last sample ends at the device end');
    const gaps = samples.slice(1).map((s, i) => s.offset - samples[i]!.offset);
    for (const g of gaps) assert.ok(Math.abs(g - (22 * MiB) / 9) <= 512 * 1024, `even spacing (gap ${g})`);
    for (const s of samples) {
      assert.equal(s.bytes, 2 * MiB);
      assert.equal(s.read_ns.length, 4, 'one time per 512 KiB read');
      assert.equal(
        s.ns,
        s.read_ns.reduce((a, b) => a + b, 0),
        'the sample time is its reads',
      );
      assert.equal(s.offset % (512 * 1024), 0, 'offsets aligned to --block');
    }
    const accesses = accessesOf(o);
    assert.equal(accesses.length, 20);
    for (const a of accesses) assert.ok(a.bytes === 4096 && a.offset % 4096 === 0 && a.offset + 4096 <= 24 * MiB);
    assert.equal(hashOf(image), before, 'the device holds the same bytes after');
  });

  test('a folder is refused (exit 2, usage) before anything is made in it', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder, { recursive: true });
    const o = await run(['surface', '--target', folder, '--samples', '4']);
    assert.equal(o.code, 2);
    const e = o.messages.find((m) => m.type === 'error');
    assert.ok(e?.type === 'error' && e.code === 'usage' && /not a block device/.test(e.message), JSON.stringify(e));
    assert.deepEqual(readdirSync(folder), [], 'no test file made');
  });

  test('a target this user may not look at is "permission", not "missing" (run as nobody)', async (t) => {
    if (!isRoot) return t.skip('needs root (to run as nobody under a folder nobody may not enter)');
    const locked = join(dir, 'locked');
    mkdirSync(locked, { recursive: true, mode: 0o700 });
    chmodSync(locked, 0o700);
    const o = await run(['surface', '--target', join(locked, 'disk'), '--samples', '4'], { as: NOBODY });
    assert.equal(o.code, 3, o.stderr);
    const e = o.messages.find((m) => m.type === 'error');
    assert.ok(e?.type === 'error' && e.code === 'permission', JSON.stringify(e));
  });

  test('--sample-bytes not a multiple of --block is refused (exit 2)', async () => {
    const o = await run(['surface', '--target', '/dev/null', '--sample-bytes', String(MiB + 4096), '--block', String(MiB)]);
    assert.equal(o.code, 2);
    const e = o.messages.find((m) => m.type === 'error');
    assert.ok(e?.type === 'error' && /multiple of --block/.test(e.message), JSON.stringify(e));
  });

  test('a device smaller than one read: usage, naming --sample-bytes (not "choose another folder")', async (t) => {
    if (!isRoot) return t.skip('needs root (losetup)');
    const small = join(dir, 'small.img');
    writeFileSync(small, Buffer.alloc(512 * 1024, 3));
    const l = spawnSync('losetup', ['-f', '--show', '-r', small], { encoding: 'utf8', timeout: 30_000 });
    if (l.status !== 0) return t.skip(`losetup -f -r failed: ${l.stderr.trim()}`);
    const dev = l.stdout.trim();
    try {
      const o = await run(['surface', '--target', dev, '--samples', '6', '--sample-bytes', String(2 * MiB), '--block', String(MiB)]);
      assert.equal(o.code, 2, o.stderr);
      const e = o.messages.find((m) => m.type === 'error');
      assert.ok(e?.type === 'error' && e.code === 'usage', JSON.stringify(e));
      assert.match(e.message, /holds 524288 bytes, less than one read of 1048576: give a smaller --sample-bytes/);
    } finally {
      spawnSync('losetup', ['-d', dev], { timeout: 30_000 });
    }
  });

  test('a read that fails names the byte and the remedy (diskdelta health), io-error', async (t) => {
    if (!isRoot) return t.skip('needs root (dmsetup)');
    if (spawnSync('dmsetup', ['version'], { timeout: 10_000 }).status !== 0)
      return t.skip('no device-mapper in this kernel: an "error" target is what makes a read fail');
    const name = `dd-surface-error-${process.pid}`;
    const made = spawnSync('dmsetup', ['create', name, '--table', '0 8192 error'], { encoding: 'utf8', timeout: 30_000 });
    if (made.status !== 0) return t.skip(`dmsetup create failed: ${made.stderr.trim()}`);
    try {
      const o = await run(['surface', '--target', `/dev/mapper/${name}`, '--samples', '6', '--sample-bytes', String(64 * 1024)]);
      assert.equal(o.code, 6, o.stderr);
      const e = o.messages.find((m) => m.type === 'error');
      assert.ok(e?.type === 'error' && e.code === 'io-error', JSON.stringify(e));
      assert.match(e.message, /at byte 0 failed: .*bad sector there: diskdelta health \/dev\/mapper\//);
    } finally {
      spawnSync('dmsetup', ['remove', name], { timeout: 30_000 });
    }
  });

  test('--fd: measures on an inherited read-only descriptor', async (t) => {
    if (!isRoot || !loop) return t.skip('needs root and a loop device');
    const fd = openSync(loop, 'r');
    try {
      const o = await run(['surface', '--target', loop, '--fd', '3', '--samples', '3', '--accesses', '0'], { fd });
      assert.equal(o.code, 0, o.stderr);
      assert.equal(samplesOf(o).length, 3);
    } finally {
      closeSync(fd);
    }
  });

  test('--fd: refuses a writable descriptor, and one of another device', async (t) => {
    if (!isRoot || !loop || !other) return t.skip('needs root and two loop devices');
    const before = hashOf(image);
    const writable = openSync(loop, 'r+');
    const elsewhere = openSync(other, 'r');
    try {
      const w = await run(['surface', '--target', loop, '--fd', '3', '--samples', '3', '--accesses', '0'], { fd: writable });
      assert.equal(w.code, 2, w.stderr);
      const we = w.messages.find((m) => m.type === 'error');
      assert.ok(we?.type === 'error' && we.code === 'bad-fd' && /not open read-only/.test(we.message), JSON.stringify(we));
      const o = await run(['surface', '--target', loop, '--fd', '3', '--samples', '3', '--accesses', '0'], { fd: elsewhere });
      assert.equal(o.code, 2, o.stderr);
      const oe = o.messages.find((m) => m.type === 'error');
      assert.ok(oe?.type === 'error' && /it is another device/.test(oe.message), JSON.stringify(oe));
      assert.equal(samplesOf(w).length + samplesOf(o).length, 0, 'nothing read on a refused descriptor');
    } finally {
      closeSync(writable);
      closeSync(elsewhere);
    }
    assert.equal(hashOf(image), before, 'the device holds the same bytes after');
  });

  test('--helper: the helper opens the device read-only and passes it back; the worker reads on it', async (t) => {
    if (!isRoot || !loop) return t.skip('needs root (the helper runs as root) and a loop device');
    const bin = join(dir, 'as-root');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'pkexec'), '#!/bin/sh\nexec "$@"\n');
    chmodSync(join(bin, 'pkexec'), 0o755);
    const o = await run(['surface', '--target', loop, '--helper', HELPER, '--samples', '3', '--accesses', '2'], { path: bin });
    assert.equal(o.code, 0, o.stderr);
    const types = o.messages.map((m) => m.type);
    assert.ok(types.includes('helper') && types.lastIndexOf('helper') < types.indexOf('hello'), 'the helper exited before the reads');
    assert.equal(samplesOf(o).length, 3);
    assert.equal(accessesOf(o).length, 2);
  });
});
