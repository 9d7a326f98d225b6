// Tests kill by pid only what is still theirs (#38): a pid held with its start time is signalled
// while it is that process, never once the number could belong to another one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStillOwn, ownProcess, signalOwn, startTicksOf } from './own-process.ts';

const SLEEP = ['/usr/bin/sleep', '/bin/sleep'].find((p) => existsSync(p)) ?? 'sleep';

test('a process held by pid and start time is signalled; the same pid with another start time (a reused pid) is not', async (t) => {
  const child = spawn(SLEEP, ['60'], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  await once(child, 'spawn');
  const own = ownProcess(child.pid!);
  assert.ok(own, 'the child is there to hold');
  // What a pid taken over by another process looks like: the number, another start time.
  const reused = { pid: own.pid, startTicks: String(Number(own.startTicks) + 1) };
  assert.equal(signalOwn(reused, 'SIGKILL'), false, 'not signalled');
  assert.equal(isStillOwn(own), true, 'the process with that pid lives on');
  const exited = once(child, 'exit');
  assert.equal(signalOwn(own, 'SIGTERM'), true);
  const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.equal(signal, 'SIGTERM');
  assert.equal(isStillOwn(own), false);
  assert.equal(signalOwn(own, 'SIGKILL'), false, 'gone: nothing is signalled, and no error');
  assert.equal(signalOwn(null), false, 'a process that was gone before it was held');
});

test("the start time is read past a command name holding ') ' (fields count from the last ')')", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-own-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const odd = join(dir, 'a) b (c');
  copyFileSync(SLEEP, odd);
  const child = spawn(odd, ['60'], { stdio: 'ignore', argv0: 'x' });
  const spawned = await Promise.race([once(child, 'spawn').then(() => true), once(child, 'error').then(() => false)]);
  if (!spawned) return t.skip(`cannot run a copy of ${SLEEP} from ${dir} (noexec temp folder?)`);
  t.after(() => child.kill('SIGKILL'));
  const ticks = startTicksOf(child.pid!);
  assert.match(ticks ?? '', /^\d+$/);
  // The same field as for a plain name: both started after this process, so no earlier.
  assert.ok(Number(ticks) >= Number(startTicksOf(process.pid)), `${ticks} is a start time, not another field`);
});
