// The same flow in the desktop app, through Playwright's _electron. Where the Electron binary
// is missing (its download is blocked on this machine) the test skips and says why; the
// browser-mode spec (app.spec.ts) covers the same renderer and backend.
import { _electron as electron, expect, test } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectron } from '../scripts/electron-path.ts';
import { decideLaunch, findOnPath, probeLaunch } from '../scripts/electron-launch.ts';
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

/** The Electron executable, or a skip that says why (printed too, so the run's log shows it). */
function electronOrSkip(covered: string): string | null {
  const found = findElectron();
  if (found.path !== null) return found.path;
  const why = `the Electron binary is not installed here (${found.reason}); its download is blocked on this ` + `machine. ${covered}`;
  console.log(`electron.spec.ts skipped: ${why}`);
  test.skip(true, why);
  return null;
}

/**
 * A display for Electron: the session's own, else an Xvfb started here (by its pid, stopped
 * after the spec), else null and the test skips saying so, never "Missing X server".
 */
let xvfb: ChildProcess | null = null;
async function display(): Promise<string | null> {
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return process.env.DISPLAY ?? '';
  const server = findOnPath(['Xvfb']);
  if (server === null) return null;
  // -displayfd: Xvfb picks a free display and writes its number when it is ready.
  xvfb = spawn(server, ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const fd = xvfb.stdio[3]!;
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    fd.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    xvfb!.once('exit', (code) => reject(new Error(`Xvfb ended (status ${code}) before giving a display`)));
  });
  return `:${number}`;
}

test.afterAll(() => {
  xvfb?.kill('SIGTERM');
});

/**
 * The built app with its own library in `dir`, launched as `npm start` launches it (the app
 * folder; --no-sandbox only where the sandbox cannot run), without executablePath, so
 * Playwright adds its loader and firstWindow() waits for the window rather than racing it.
 */
async function launchApp(executable: string, dir: string) {
  const shown = await display();
  if (shown === null) test.skip(true, 'no display here and no Xvfb to make one (apt install xvfb)');
  await buildElectron();
  const launch = decideLaunch(probeLaunch(executable), ROOT);
  if (launch.kind !== 'electron') throw new Error(`the Electron binary is at ${executable}, yet npm start would open ${launch.kind}`);
  return electron.launch({
    args: launch.args,
    cwd: ROOT,
    env: { ...process.env, ...(shown ? { DISPLAY: shown } : {}), DISKDELTA_DB: join(dir, 'library.sqlite') },
  });
}

test('desktop app: sandboxed renderer, run → library → compare two runs', async () => {
  const executable = electronOrSkip('The same flow runs in browser mode in app.spec.ts.');
  if (executable === null) return;
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-electron-'));
  const targetDir = join(dir, 'target');
  mkdirSync(targetDir);
  const app = await launchApp(executable, dir);
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

test('desktop app: report PDF printed by Electron’s printToPDF from a hidden window', async () => {
  const executable = electronOrSkip(
    'The report content is the same static HTML that browser mode prints with the system Chromium (report.spec.ts); ' +
      'only electron/main/report-printer.ts (type-checked by tsconfig.electron.json) is not run here.',
  );
  if (executable === null) return;
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-electron-report-'));
  const app = await launchApp(executable, dir);
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('page-overview')).toBeVisible();
    // Through the preload's named verbs, as the Save PDF button does (a click would open
    // Electron's save dialog, which a test cannot answer).
    const answer = await page.evaluate(async () => {
      type Verb = (input: unknown) => Promise<{ ok: boolean; data?: unknown; error?: unknown }>;
      const verbs = (globalThis as unknown as { diskdelta: { verbs: Record<string, Verb> } }).diskdelta.verbs;
      const refs = (await verbs['references.list']!({})) as { ok: boolean; data: Array<{ key: string }> };
      const runs = refs.data.slice(0, 3).map((r) => ({ kind: 'reference', key: r.key }));
      return verbs['report.render']!({ runs, format: 'pdf', paper: 'letter', unit: 'MB' });
    });
    expect(answer.ok, JSON.stringify(answer.error)).toBe(true);
    const { contentBase64, mimeType } = answer.data as { contentBase64: string; mimeType: string };
    expect(mimeType).toBe('application/pdf');
    const pdf = join(dir, 'report.pdf');
    writeFileSync(pdf, Buffer.from(contentBase64, 'base64'));
    const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const needle of ['×3.29', '×1.73', '×69.5', 'Laptop hard disk, ThinkPad X201i (2011)', 'Intel 320 SSD, ThinkPad X201i (2011)'])
      expect(text).toContain(needle);
    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(/pts \(letter\)/);
    expect(execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).trim().split('\n')).toHaveLength(2);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
