// The machine-wide lock of shared labs: a second holder waits for the first, and a process
// that ends without releasing (a teardown that threw, a kill) neither hangs nor leaves it held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { holdMachineLock } from './machine-lock.ts';

const NAME = `lock-test-${process.pid}`;

test('a second holder waits, told once, until the first releases', async () => {
  const releaseFirst = await holdMachineLock(NAME, () => assert.fail('the first holder had nothing to wait for'));
  const told: string[] = [];
  let secondHeld = false;
  const second = holdMachineLock(NAME, (message) => told.push(message)).then((release) => ((secondHeld = true), release));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(secondHeld, false, 'the second holder got the lock while the first held it');
  assert.equal(told.length, 1);
  assert.match(told[0]!, new RegExp(`waiting for /run/lock/diskdelta-${NAME}\\.lock: another test suite on this machine holds it`));
  await releaseFirst();
  await (
    await second
  )();
  assert.equal(secondHeld, true);
});

test('a process that ends without releasing exits at once and frees the lock', async () => {
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { holdMachineLock } = await import(${JSON.stringify(new URL('./machine-lock.ts', import.meta.url).href)}); await holdMachineLock(${JSON.stringify(NAME)}, () => {}); console.log('held');`,
    ],
    // A bound for a holder that never ends (the defect), not a timing.
    { encoding: 'utf8', timeout: 180_000 },
  );
  assert.equal(child.signal, null, 'the holder kept its process alive until the timeout');
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), 'held');
  const release = await holdMachineLock(NAME, () => assert.fail('the lock of the ended process was still held'));
  await release();
});

test('a released flock that does not end is killed after its bound, and the lock is free', async () => {
  const release = await holdMachineLock(NAME, () => assert.fail('nothing to wait for'), { releaseMs: 300 });
  // This process's flock, stopped: it cannot end when its stdin closes.
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
  const flock = children.find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'flock');
  assert.ok(flock, `this process's flock among its children (${children.join(' ')})`);
  process.kill(flock, 'SIGSTOP');
  const started = Date.now();
  // The bound of the test itself: without the kill, release never resolves.
  const released = await Promise.race([release().then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
  assert.equal(released, true, 'release waited for a stopped flock without end');
  assert.ok(Date.now() - started < 4000);
  const again = await holdMachineLock(NAME, () => assert.fail('the killed flock still held the lock'));
  await again();
});
