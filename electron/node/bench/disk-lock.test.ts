// The per-disk lock: one holder per disk name across processes and users; refusal names the
// holder; waiting ends when the holder releases or the wait is aborted; the key a run locks.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { acquireDiskLock } from './disk-lock.ts';
import { diskLockKey } from './orchestrator.ts';
import { BenchError } from './errors.ts';
import { cannotReachCheckout, reachableCopy } from '../../../scripts/other-user.ts';

const disk = () => `test-${randomBytes(6).toString('hex')}`;

async function refusal(promise: Promise<unknown>): Promise<BenchError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof BenchError);
    return error;
  }
  assert.fail('the lock was granted twice');
}

test('a second holder is refused, naming the first; after release the disk is free', async () => {
  const name = disk();
  const first = await acquireDiskLock(name, '/mnt/first');
  const error = await refusal(acquireDiskLock(name, '/mnt/second'));
  assert.equal(error.code, 'disk-busy');
  assert.equal(
    error.message,
    `DiskDelta process ${process.pid} (measuring /mnt/first) is already measuring the disk ${name}: two runs at once would measure each other. Wait for it to finish or stop it, then run again`,
  );
  const other = await acquireDiskLock(disk(), '/mnt/other'); // another disk is independent
  await first.release();
  await other.release();
  await (await acquireDiskLock(name, '/mnt/second')).release();
});

test('waiting: says so once, gets the disk when the holder releases it, or stops when aborted', async () => {
  const name = disk();
  const holder = await acquireDiskLock(name, '/mnt/first');
  const said: string[] = [];
  const waiting = acquireDiskLock(name, '/mnt/second', { wait: true, pollMs: 20, onWait: (m) => said.push(m) });
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(said, [
    `waiting: DiskDelta process ${process.pid} (measuring /mnt/first) is already measuring the disk ${name}; this run starts when it is done`,
  ]);
  await holder.release();
  const got = await waiting;
  const controller = new AbortController();
  const aborted = acquireDiskLock(name, '/mnt/third', { wait: true, pollMs: 20, signal: controller.signal });
  controller.abort();
  assert.equal((await refusal(aborted)).code, 'interrupted');
  await got.release();
});

test(
  'another process of another user sees the lock',
  {
    skip:
      process.getuid?.() !== 0
        ? 'needs root to run a process as nobody'
        : cannotReachCheckout(fileURLToPath(new URL('./disk-lock.ts', import.meta.url))),
  },
  async () => {
    const name = disk();
    const held = await acquireDiskLock(name, '/mnt/root-run');
    const module = fileURLToPath(new URL('./disk-lock.ts', import.meta.url));
    const script = `import { acquireDiskLock } from ${JSON.stringify(module)}; try { await acquireDiskLock(${JSON.stringify(name)}, '/x'); console.log('granted'); } catch (e) { console.log(e.message); }`;
    // Asynchronous: this process must stay free to answer the other one's "who holds it?".
    const child = spawn('su', [
      'nobody',
      '-s',
      '/bin/sh',
      '-c',
      `${JSON.stringify(reachableCopy(process.execPath))} --input-type=module -e '${script.replace(/'/g, "'\\''")}'`,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    await new Promise((resolve) => child.on('close', resolve));
    assert.match(stdout, new RegExp(`DiskDelta process ${process.pid} \\(measuring /mnt/root-run\\) is already measuring`), stderr);
    await held.release();
  },
);

// The key a measuring run locks (orchestrator.ts diskLockKey). A loop device over a file in RAM
// has no disk beneath it: its lock is named after the device itself ("loop3"), not a bare device
// number that says nothing (CI saw "dev:1795" and could not tell it was the test's own loop).
test(
  "a loop device over a file in RAM is locked by its own name; a folder in RAM by its file system's number",
  {
    skip:
      process.getuid?.() !== 0
        ? 'needs root to attach a loop device'
        : !existsSync('/dev/shm')
          ? 'no /dev/shm to hold the loop device’s file in RAM'
          : false,
    timeout: 60_000,
  },
  async (t) => {
    const dir = mkdtempSync('/dev/shm/dd-lock-key-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'disk.img'), Buffer.alloc(4 * 2 ** 20));
    const attach = spawnSync('losetup', ['-f', '--show', join(dir, 'disk.img')], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(attach.status, 0, `losetup: ${attach.stderr}`);
    const loop = attach.stdout.trim();
    t.after(() => spawnSync('losetup', ['-d', loop], { timeout: 30_000 }));
    assert.equal(await diskLockKey(loop), basename(loop));
    assert.equal(await diskLockKey(dir), `dev:${statSync(dir).dev}`);
  },
);
