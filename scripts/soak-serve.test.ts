// A short soak:serve in the suite (the full one is `npm run soak:serve`, 60 s): hostile request
// lines, forbidden WebSocket frames and random API calls against `diskdelta serve` while a run
// measures; the server must stay up, the run be saved, descriptors and memory come back.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { untilSaid } from '../native/test/worker-harness.ts';

test('soak:serve for 5 s from 6 connections: server up, run saved, no leak', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const soak = spawnSync(process.execPath, ['scripts/soak-serve.ts', '--seconds', '5', '--connections', '6'], {
    cwd: root,
    encoding: 'utf8',
    // Past the script's own bound: it waits up to 15 min for its disk while another DiskDelta
    // process measures it, then 60 s for its run. SIGTERM ends its server with it.
    timeout: 20 * 60_000,
  });
  assert.equal(soak.status, 0, soak.stdout + soak.stderr);
  assert.match(soak.stdout, /run \S+: finished and saved as #\d+/);
  assert.match(soak.stdout, /hostile request lines [1-9]\d*, hostile WebSocket sessions [1-9]\d*, API calls [1-9]\d*/);
  assert.match(soak.stdout, /^ok: the server is up/m);
});

test('soak:serve stopped from outside: its server and temporary library end with it', async (t) => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const soak = spawn(process.execPath, ['scripts/soak-serve.ts', '--seconds', '120', '--connections', '1'], { cwd: root });
  t.after(() => soak.kill('SIGKILL'));
  let out = '';
  soak.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  soak.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  await untilSaid(soak, () => out, 'its library in', 60);
  const [, pid, library] = /\(pid (\d+)\).*its library in (\S+)/.exec(out) ?? [];
  assert.ok(pid && library, out);
  const ended = new Promise((resolve) => soak.on('close', resolve));
  soak.kill('SIGTERM');
  await Promise.race([ended, sleep(30_000)]);
  assert.notEqual(soak.exitCode ?? soak.signalCode, null, 'the script ended within 30 s of SIGTERM');
  // SIGKILL is delivered and the orphan reaped a moment after: look for up to 10 s.
  let alive = true;
  for (let waited = 0; alive && waited < 10_000; waited += 100) {
    try {
      process.kill(Number(pid), 0);
      await sleep(100);
    } catch {
      alive = false;
    }
  }
  assert.equal(alive, false, `diskdelta serve (pid ${pid}) ended with the script`);
  assert.equal(existsSync(library), false, 'its temporary library was removed');
});
