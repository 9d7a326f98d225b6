// What `npm start` says when the Electron binary is missing and its download fails: what is
// true and what works, never the electron package's "delete node_modules/electron and try
// installing again", which cannot help when the download is blocked.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainElectronDownloadFailure, findElectron } from './electron-path.ts';

/** The first lines of what electron/install.js printed on a machine without access to github.com. */
const BLOCKED = `RequestError: getaddrinfo ENOTFOUND github.com
    at ClientRequest.<anonymous> (/x/node_modules/got/dist/source/core/index.js:970:111)
    at Object.onceWrapper (node:events:639:26)`;

test('a blocked download: names the host and the error, offers browser mode, a mirror and a local copy', () => {
  const text = explainElectronDownloadFailure(BLOCKED, '41.7.1');
  assert.match(text, /cannot reach github\.com, where Electron's releases are \(RequestError: getaddrinfo ENOTFOUND github\.com\)/);
  assert.match(text, /Reinstalling will not help/);
  assert.match(text, /npx diskdelta serve --open/);
  assert.match(text, /ELECTRON_MIRROR=/);
  assert.match(text, new RegExp(`electron-v41\\.7\\.1-linux-${process.arch}\\.zip .*ELECTRON_OVERRIDE_DIST_PATH=DIR npm start`));
  assert.doesNotMatch(text, /delete node_modules|at ClientRequest/);
});

test('an HTTP error or no output at all is still explained without a stack trace', () => {
  assert.match(
    explainElectronDownloadFailure('HTTPError: Response code 404 (Not Found)\n    at x', '41.7.1'),
    /the download failed: HTTPError: Response code 404/,
  );
  assert.match(explainElectronDownloadFailure('', null), /the download failed without saying why/);
});

test('findElectron here: a path that exists, or a reason in our words', (t) => {
  const found = findElectron();
  if (found.path !== null) return t.skip(`the Electron binary is installed here (${found.path}): no missing-binary reason to check`);
  assert.doesNotMatch(found.reason, /delete node_modules\/electron/);
  assert.match(found.reason, /holds no Electron binary: npm install skips its download/);
});

test(
  'npm start where the binary is missing and the download cannot connect: what is true and what to do, exit 1',
  { timeout: 180_000 },
  (t) => {
    const found = findElectron();
    if (found.path !== null) return t.skip('the Electron binary is installed here: npm start would open the app');
    // The real script, with the download pointed at a closed local port and an empty cache, so
    // it fails the same way on every machine (as a blocked one does) and never fetches 100 MB.
    const cache = mkdtempSync(join(tmpdir(), 'dd-electron-cache-'));
    t.after(() => rmSync(cache, { recursive: true, force: true }));
    const start = fileURLToPath(new URL('./start-electron.ts', import.meta.url));
    const r = spawnSync(process.execPath, [start], {
      encoding: 'utf8',
      // No display: no Chromium app-mode window either (electron-launch.test.ts opens one).
      env: {
        ...process.env,
        ELECTRON_MIRROR: 'http://127.0.0.1:9/',
        electron_config_cache: cache,
        ELECTRON_OVERRIDE_DIST_PATH: '',
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
      },
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /npm start: the Electron binary is not installed, and fetching it now failed: this machine cannot reach 127\.0\.0\.1/,
    );
    assert.match(r.stderr, /npx diskdelta serve --open/);
    assert.match(r.stderr, /no Chromium either|no display here/);
    assert.doesNotMatch(r.stderr, /delete node_modules\/electron| {4}at /);
  },
);

// The same npm start (in this file, so the two never run vite at once), with a display and a
// stand-in Chromium on PATH that loads the page and the script it is given, as a browser would.
test(
  'npm start without the Electron binary opens the app in Chromium app mode (a stand-in Chromium loads its URL)',
  { timeout: 300_000 },
  (t) => {
    if (findElectron().path !== null) return t.skip('the Electron binary is installed here: npm start opens Electron, not Chromium');
    const dir = mkdtempSync(join(tmpdir(), 'dd-chromium-app-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const record = join(dir, 'chromium-saw.json');
    // Loads the page and the script it names, as a browser would, then closes its "window".
    writeFileSync(
      join(bin, 'chromium'),
      `#!${process.execPath}
const args = process.argv.slice(2);
const app = args.find((a) => a.startsWith('--app='))?.slice(6);
const profile = args.find((a) => a.startsWith('--user-data-dir='))?.slice(16);
const page = await fetch(app);
const html = await page.text();
const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
const js = script ? await fetch(new URL(script, app)) : null;
require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args, app, status: page.status, html, scriptStatus: js?.status ?? null, profileExisted: require('node:fs').existsSync(profile) }));
`.replace(/require\('node:fs'\)/g, '(await import("node:fs"))'),
    );
    chmodSync(join(bin, 'chromium'), 0o755);
    const cache = join(dir, 'electron-cache');
    const r = spawnSync(process.execPath, [fileURLToPath(new URL('./start-electron.ts', import.meta.url))], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        DISPLAY: ':99',
        DISKDELTA_DB: join(dir, 'library.sqlite'),
        // The download fails the same way on every machine, as a blocked one does.
        ELECTRON_MIRROR: 'http://127.0.0.1:9/',
        electron_config_cache: cache,
        ELECTRON_OVERRIDE_DIST_PATH: '',
      },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /the Electron binary is not installed, and fetching it now failed/);
    assert.match(r.stderr, /opening the same app in Chromium's app mode instead \(.*\/bin\/chromium\)/);
    const saw = JSON.parse(readFileSync(record, 'utf8')) as {
      args: string[];
      app: string;
      status: number;
      html: string;
      scriptStatus: number;
      profileExisted: boolean;
    };
    assert.match(saw.app, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    assert.equal(saw.status, 200);
    assert.match(saw.html, /<title>DiskDelta<\/title>/);
    assert.equal(saw.scriptStatus, 200);
    assert.ok(saw.profileExisted, 'a profile of its own for this launch');
    const profile = saw.args.find((a) => a.startsWith('--user-data-dir='))!.slice(16);
    assert.ok(!existsSync(profile), 'the profile is removed when the window closes');
  },
);
