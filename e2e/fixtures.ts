// Every test gets its own temporary folder holding the benchmark target and its own library
// file, and its own `diskdelta serve` on a free port (Insomnia-style data isolation).
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, utimesSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppFixture {
  /** The URL printed by `diskdelta serve`, token included. */
  url: string;
  origin: string;
  token: string;
  /** An empty folder to benchmark (on the same disk as the temp dir). */
  targetDir: string;
  dbPath: string;
  /** Files left in targetDir (a finished or cancelled run must leave none). */
  leftovers(): string[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const NODE = join(ROOT, 'node_modules', '.bin', 'node');
export const CLI = join(ROOT, 'bin', 'diskdelta.js');

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`diskdelta serve printed no URL in 20 s:\n${out}\n${err}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`diskdelta serve exited with ${code}:\n${out}\n${err}`));
    });
  });
}

/** `diskdelta serve` on a port (0: a free one) with its own library file; `url` is the address it prints. */
export function startServe(dbPath: string, port: number): { child: ChildProcess; url: Promise<string> } {
  // The build global-setup made, as it is: serve would otherwise rebuild it when a source is
  // newer (an edit during the run), which is slow and not what the tests are about.
  const env = { ...process.env, DISKDELTA_RENDERER_DIR: join(ROOT, 'dist', 'renderer') };
  const child = spawn(NODE, [CLI, 'serve', '--port', String(port), '--db', dbPath], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, url: waitForUrl(child) };
}

/** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}

export const test = base.extend<{ app: AppFixture }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
  app: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-'));
    const targetDir = join(dir, 'target');
    mkdirSync(targetDir);
    const dbPath = join(dir, 'library.sqlite');
    const { child, url: printed } = startServe(dbPath, 0);
    try {
      const url = await printed;
      const parsed = new URL(url);
      await use({
        url,
        origin: parsed.origin,
        token: parsed.searchParams.get('token')!,
        targetDir,
        dbPath,
        leftovers: () => readdirSync(targetDir),
      });
    } finally {
      await stopServe(child);
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export { expect };

export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');

/**
 * The whole page as a reader who scrolls it sees it. What is styled `content-visibility: auto`
 * (Compare's lower sections, the Fleet page's host rows) is painted only near the window, so a
 * full-page capture showed it blank: the capture paints it, then the page is as it was.
 */
export async function fullPageScreenshot(page: Page, path: string): Promise<void> {
  const paintAll = await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  try {
    await page.screenshot({ path, fullPage: true });
  } finally {
    await paintAll.evaluate((style) => style.parentNode?.removeChild(style));
  }
}

/**
 * Files a working-set scan knows the answer for: each `[path under dir, bytes, days since it was
 * last touched]`, written in full (allocated, not sparse) and its atime and mtime set back.
 */
export function plantAgedFiles(dir: string, files: ReadonlyArray<readonly [string, number, number]>): void {
  const now = Date.now() / 1000;
  for (const [name, bytes, daysAgo] of files) {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    const fd = openSync(path, 'w');
    writeSync(fd, Buffer.alloc(bytes, 1));
    closeSync(fd);
    utimesSync(path, now - daysAgo * 86_400, now - daysAgo * 86_400);
  }
}
