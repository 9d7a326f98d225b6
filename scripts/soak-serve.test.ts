// A short soak:serve in the suite (the full one is `npm run soak:serve`, 60 s): hostile request
// lines, forbidden WebSocket frames and random API calls against `diskdelta serve` while a run
// measures; the server must stay up, the run be saved, descriptors and memory come back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('soak:serve for 5 s from 6 connections: server up, run saved, no leak', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const soak = spawnSync(process.execPath, ['scripts/soak-serve.ts', '--seconds', '5', '--connections', '6'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  assert.equal(soak.status, 0, soak.stdout + soak.stderr);
  assert.match(soak.stdout, /run \S+: finished and saved as #\d+/);
  assert.match(soak.stdout, /hostile request lines [1-9]\d*, hostile WebSocket sessions [1-9]\d*, API calls [1-9]\d*/);
  assert.match(soak.stdout, /^ok: the server is up/m);
});
