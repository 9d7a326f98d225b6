// The same flow in the desktop app, through Playwright's _electron. Where the Electron binary
// is missing (its download is blocked on this machine) the test skips and says why; the
// browser-mode spec (app.spec.ts) covers the same renderer and backend.
import { _electron as electron, expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectron } from '../scripts/electron-path.ts';
import { buildElectron } from '../scripts/build-electron.ts';
import { compareTwoRuns, startRun, watchRun, type Open } from './flows.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** In the desktop app the page is a file:// URL; routes change the hash only. */
const open: Open = async (page, route) => {
  // e2e code is type-checked without DOM types: the page's globals are reached through globalThis.
  await page.evaluate((r) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = `#/${r}`;
  }, route);
};

test('desktop app: sandboxed renderer, run → library → compare two runs', async () => {
  const found = findElectron();
  if (found.path === null) {
    const why =
      `the Electron binary is not installed here (${found.reason}); its download is blocked on this ` +
      'machine. The same flow runs in browser mode in app.spec.ts.';
    // Printed as well as recorded, so the run's log says why this spec did nothing.
    console.log(`electron.spec.ts skipped: ${why}`);
    test.skip(true, why);
    return;
  }
  await buildElectron();
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-electron-'));
  const targetDir = join(dir, 'target');
  mkdirSync(targetDir);
  const app = await electron.launch({
    executablePath: found.path,
    args: [join(ROOT, 'dist', 'electron', 'main.cjs')],
    cwd: ROOT,
    env: { ...process.env, DISKDELTA_DB: join(dir, 'library.sqlite') },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('page-overview')).toBeVisible();
    // The renderer has no Node and no raw IPC: only the contract's named verbs.
    const surface = await page.evaluate(() => {
      const w = globalThis as unknown as { require?: unknown; process?: unknown; diskdelta: object };
      return { require: typeof w.require, process: typeof w.process, bridgeKeys: Object.keys(w.diskdelta).sort() };
    });
    expect(surface).toEqual({ require: 'undefined', process: 'undefined', bridgeKeys: ['on', 'transport', 'verbs'] });

    await startRun(page, open, targetDir, 'HDD');
    await watchRun(page);
    await expect(page.getByTestId('run-status')).toHaveText('Finished');
    await startRun(page, open, targetDir, 'SSD');
    await watchRun(page);
    await expect(page.getByTestId('run-status')).toHaveText('Finished');
    await compareTwoRuns(page, open);
    expect(readdirSync(targetDir)).toEqual([]);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
