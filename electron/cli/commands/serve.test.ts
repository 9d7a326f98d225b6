import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));

test('serve: bad flags exit 2; a missing renderer build is said plainly', () => {
  const bad = spawnSync(process.execPath, [CLI, 'serve', '--port', 'x'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--port 'x'/);
  const missing = spawnSync(process.execPath, [CLI, 'serve'], { encoding: 'utf8', env: { ...process.env, DISKDELTA_RENDERER_DIR: '/nonexistent-dd' } });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /npm run build:renderer/);
});

test('serve prints a loopback URL with a token, answers with the token only, and stops cleanly on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-serve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>DiskDelta test page</title>');
  const child = spawn(process.execPath, [CLI, 'serve', '--db', join(dir, 'lib.sqlite')], {
    env: { ...process.env, DISKDELTA_RENDERER_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  assert.equal((await fetch(url)).status, 200);
  assert.equal((await fetch(url.replace(/\?token=.*/, ''))).status, 403);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});
