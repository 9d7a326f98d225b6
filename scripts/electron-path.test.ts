// What `npm start` says when the Electron binary is missing and its download fails: what is
// true and what works, never the electron package's "delete node_modules/electron and try
// installing again", which cannot help when the download is blocked.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
