// Prints a report's HTML to PDF in the system's Chromium through playwright-core: what the
// CLI and browser mode use (the Electron app prints with its own Chromium, electron/main/
// report-printer.ts). No browser is ever downloaded: Debian's /usr/bin/chromium, or the one
// DISKDELTA_CHROMIUM names.
import { accessSync, constants } from 'node:fs';
import type { Browser } from 'playwright-core';
import { PRINT_OPTIONS, ReportPrintError, type ReportPrinter } from '../../shared/report/printer.ts';

export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export const CHROMIUM_MISSING =
  'no Chromium found to print the PDF: install the Debian package "chromium" (sudo apt-get install chromium), ' +
  'or set DISKDELTA_CHROMIUM to a Chromium or Chrome executable. `--html` writes the report without one.';

/** The executable to start, or null. DISKDELTA_CHROMIUM wins and is not second-guessed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = env.DISKDELTA_CHROMIUM ? [env.DISKDELTA_CHROMIUM] : CHROMIUM_CANDIDATES;
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not there or not executable: try the next
    }
  }
  return null;
}

/** Chromium's sandbox cannot start as root (CI, the device lab): only then is it turned off. */
export function chromiumArgs(): string[] {
  const args = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  return args;
}

export function chromiumPrinter(options: { executablePath?: string } = {}): ReportPrinter {
  // One launch per print: nothing is left running between reports (browser mode may print
  // rarely). prepare() starts it early; print() and close() end it.
  let launching: Promise<Browser> | null = null;
  let executable = '';
  const launch = (): Promise<Browser> =>
    (launching ??= (async () => {
      const executablePath = options.executablePath ?? findChromium();
      if (!executablePath) throw new ReportPrintError(CHROMIUM_MISSING);
      executable = executablePath;
      // Loaded on first use: starting the CLI for any other command stays as fast as before.
      const { chromium } = await import('playwright-core');
      try {
        return await chromium.launch({ executablePath, headless: true, args: chromiumArgs(), timeout: 30_000 });
      } catch (error) {
        throw new ReportPrintError(
          `Chromium (${executablePath}) did not start: ${firstLine(error)}. Reinstall the "chromium" package or point DISKDELTA_CHROMIUM at a working one.`,
        );
      }
    })());
  const close = async () => {
    const pending = launching;
    launching = null;
    const browser = await pending?.catch(() => null);
    await browser?.close().catch(() => {});
  };
  return {
    name: 'chromium',
    prepare() {
      // A failure here is reported by print(), which awaits the same promise.
      launch().catch(() => {});
    },
    close,
    async print(html) {
      const browser = await launch();
      try {
        const page = await browser.newPage();
        // The report is static HTML with no script and nothing to fetch: 'load' is complete.
        await page.setContent(html, { waitUntil: 'load' });
        return new Uint8Array(await page.pdf(PRINT_OPTIONS));
      } catch (error) {
        throw new ReportPrintError(`Chromium (${executable}) failed while printing: ${firstLine(error)}`);
      } finally {
        await close();
      }
    },
  };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'unknown error'
  );
}
