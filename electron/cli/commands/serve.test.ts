import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureRendererBuilt, rendererState } from '../../server/renderer-build.ts';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));

/** Starts `diskdelta serve` on a stand-in page; resolves with its URL and what it said. */
function startServe(t: { after(fn: () => void): void }, args: string[], env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), 'dd-serve-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>DiskDelta test page</title>');
  const child = spawn(process.execPath, [CLI, 'serve', '--db', join(dir, 'lib.sqlite'), ...args], {
    env: { ...env, DISKDELTA_RENDERER_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url, stderr: () => stderr };
}

/** Waits until the child's stderr matches (the --open notes come after the URL). */
async function stderrMatching(serve: ReturnType<typeof startServe>, re: RegExp): Promise<string> {
  while (!re.test(serve.stderr())) {
    if (serve.child.exitCode !== null || serve.child.signalCode !== null)
      throw new Error(`serve ended (${serve.child.exitCode ?? serve.child.signalCode}) without saying ${re}: ${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return serve.stderr();
}

/** A bound for a serve that never says what it should, not a timing: at a load of 30 on 2 CPUs
 *  the CLI alone took more than 30 s to start (the fast loop beside 8 agents). */
const HANG = { timeout: 300_000 };

const withoutDisplay = () => {
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
};

test('serve: bad flags exit 2; a missing renderer build is said plainly', () => {
  const bad = spawnSync(process.execPath, [CLI, 'serve', '--port', 'x'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--port 'x'/);
  const missing = spawnSync(process.execPath, [CLI, 'serve'], {
    encoding: 'utf8',
    env: { ...process.env, DISKDELTA_RENDERER_DIR: '/nonexistent-dd' },
  });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /npm run build:renderer/);
});

test('serve prints a loopback URL with a token, answers with the token only, and stops cleanly on SIGTERM', async (t) => {
  const serve = startServe(t, [], process.env);
  const url = await serve.url;
  assert.equal((await fetch(url)).status, 200);
  assert.equal((await fetch(url.replace(/\?token=.*/, ''))).status, 403);
  const exited = new Promise<number | null>((resolve) => serve.child.on('exit', (code) => resolve(code)));
  serve.child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

test('serve --open without a display says so and prints the URL to open', HANG, async (t) => {
  const serve = startServe(t, ['--open'], withoutDisplay());
  const url = await serve.url;
  const said = await stderrMatching(serve, /--open/);
  assert.match(said, /--open: no display here \(neither DISPLAY nor WAYLAND_DISPLAY is set\), so no browser was started/);
  assert.ok(said.includes(url), 'the note repeats the URL to open');
  assert.match(said, /ssh -L (\d+):127\.0\.0\.1:\1/);
});

test('serve --open with a display but no xdg-open says it could not start one', HANG, async (t) => {
  const serve = startServe(t, ['--open'], { ...withoutDisplay(), DISPLAY: ':99', PATH: '/nonexistent-dd' });
  await serve.url;
  assert.match(await stderrMatching(serve, /--open/), /--open: could not run xdg-open \(.*ENOENT.*\); open http:\/\/127\.0\.0\.1/);
});

test('the renderer build: missing, then built into place, then fresh; a newer source makes it stale', { timeout: 120_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-build-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const dist = join(dir, 'renderer');
  assert.equal(rendererState(dist).state, 'missing');
  const said: string[] = [];
  assert.equal(
    ensureRendererBuilt(dist, (line) => said.push(line)),
    'built',
  );
  assert.match(said.join('\n'), /building the app's pages \(first start/);
  assert.ok(existsSync(join(dist, 'index.html')), 'index.html built');
  assert.deepEqual(readdirSync(dir), ['renderer'], 'the temporary build folder was renamed into place');
  assert.equal(
    ensureRendererBuilt(dist, (line) => said.push(line)),
    'fresh',
    'not rebuilt when nothing changed',
  );
  // A build older than every source (as after a git pull) is stale and names the newer file.
  utimesSync(join(dist, 'index.html'), new Date(0), new Date(0));
  const stale = rendererState(dist);
  assert.equal(stale.state, 'stale');
  assert.ok(
    stale.state === 'stale' && /\/(renderer\/|electron\/shared\/|vite\.config\.ts$)/.test(stale.newest),
    stale.state === 'stale' ? stale.newest : '',
  );
});
