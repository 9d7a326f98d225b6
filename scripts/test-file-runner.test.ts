// The test runner's time limit and clean-up, on test files written here: a file that hangs fails
// within its limit and its processes end; a file that leaves a child behind has it killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { groupHasLiveProcess, runTestFile, specCounts } from './test-file-runner.ts';
import { isSharedDisk } from './disk-lock-watch.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-runner-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** A test file that starts `sleep` (printing its pid) and then does `then`. */
function plant(name: string, then: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `import { test } from 'node:test';
import { spawn } from 'node:child_process';
test('${name}', async () => {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  child.unref();
  console.log('SLEEP_PID=' + child.pid);
  ${then}
});
`,
  );
  return file;
}

const sleepPid = (output: string) => Number(/SLEEP_PID=(\d+)/.exec(output)?.[1]);
/** Whether a pid is a live process (a zombie, killed and waiting for its parent, is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether the process is gone within 10 s: SIGKILL is delivered, and the orphan reaped, a moment after kill() returns. */
async function goneSoon(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (!alive(pid)) return true;
    await sleep(50);
  }
  return false;
}

test('a file that never ends fails past its limit, marked timed out, and its processes are killed', async () => {
  const file = plant('hangs.test.ts', 'await new Promise(() => setInterval(() => {}, 1000));');
  const run = await runTestFile(file, { limitSeconds: 2, graceSeconds: 1, nodeTestArgs: ['--test-reporter=spec'], capture: true });
  assert.equal(run.timedOut, true);
  assert.notEqual(run.status, 0);
  const pid = sleepPid(run.output);
  assert.ok(pid > 0, run.output);
  assert.equal(await goneSoon(pid), true, "the hanging file's child is gone");
});

test('a file that passes but leaves a child running: the child is killed and the leftover reported', async () => {
  const file = plant('leaves.test.ts', '');
  const run = await runTestFile(file, { limitSeconds: 120, nodeTestArgs: ['--test-reporter=spec'], capture: true });
  assert.equal(run.status, 0, run.output);
  assert.equal(run.timedOut, false);
  assert.equal(run.leftBehind, true);
  assert.deepEqual(specCounts(run.output), { tests: 1, pass: 1, fail: 0, skipped: 0 });
  const pid = sleepPid(run.output);
  assert.ok(pid > 0, run.output);
  assert.equal(await goneSoon(pid), true, 'the leftover sleep was killed');
});

test('a failing file reports its status, not a time-out', async () => {
  const file = join(dir, 'fails.test.ts');
  writeFileSync(file, "import { test } from 'node:test';\ntest('x', () => { throw new Error('planted'); });\n");
  const run = await runTestFile(file, { limitSeconds: 120, nodeTestArgs: ['--test-reporter=spec'], capture: true });
  assert.equal(run.status, 1);
  assert.equal(run.timedOut, false);
  assert.equal(run.leftBehind, false);
  assert.match(run.output, /planted/);
  assert.equal(specCounts(run.output)?.fail, 1);
});

test("a file whose processes hold a DiskDelta disk lock is seen holding it (the fast loop's check)", async () => {
  const name = `runner-test-${process.pid}-${Date.now()}`;
  const lock = new URL('../electron/node/bench/disk-lock.ts', import.meta.url).href;
  const file = join(dir, 'locks.test.ts');
  writeFileSync(
    file,
    `import { test } from 'node:test';
import { acquireDiskLock } from ${JSON.stringify(lock)};
test('holds a lock', async () => {
  const held = await acquireDiskLock(${JSON.stringify(name)}, '/planted');
  await new Promise((r) => setTimeout(r, 1500));
  await held.release();
});
`,
  );
  const run = await runTestFile(file, { limitSeconds: 120, nodeTestArgs: ['--test-reporter=spec'], capture: true, watchDiskLocks: true });
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(run.diskLocks, [name]);
  assert.equal(isSharedDisk(name), true, 'a disk name, not a loop device or disk-lock’s own test-… names');
  assert.equal(isSharedDisk('loop7'), false);
  assert.equal(isSharedDisk('test-0a1b2c'), false);
});

test('a group left with only an exited process (a zombie waiting for init) is not a leftover; a live one is', async (t) => {
  // `setsid` in the background puts the short-lived child in a group of its own; its parent
  // becomes `sleep`, which never reaps it: a zombie whose group has nothing alive.
  const parent = spawn('sh', ['-c', 'setsid sh -c "exit 0" & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  t.after(() => parent.kill('SIGKILL'));
  const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  let state = '';
  for (let i = 0; i < 100 && state !== 'Z'; i++) {
    await sleep(20);
    state = readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]!.split(' ')[0]!;
  }
  assert.equal(state, 'Z', 'the planted child did not become a zombie within 2 s');
  assert.equal(groupHasLiveProcess(zombie), false);
  assert.equal(groupHasLiveProcess(parent.pid!), true, 'the sleeping parent is alive in its group');
});
