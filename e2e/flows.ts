// Steps shared by the browser-mode spec and the Electron spec: both drive the same renderer.
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

/** Goes to a page of the app (#/new, #/library …). */
export type Open = (page: Page, route: string) => Promise<void>;

/** Fills New run and starts; returns once the Live run page shows the run. */
export async function startRun(
  page: Page,
  open: Open,
  targetDir: string,
  label: string,
  opts: { preset?: string; sizeMiB?: string; duration?: string } = {},
) {
  await open(page, 'new');
  await page.getByLabel('Target folder').fill(targetDir);
  await page.getByLabel('Preset').selectOption(opts.preset ?? 'quick');
  await page.getByLabel('Test file size (MiB)').fill(opts.sizeMiB ?? '16');
  await page.getByLabel('Seconds per test').fill(opts.duration ?? '0.3');
  await page.getByLabel('Runs').fill('1');
  await page.getByLabel('Label').fill(label);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('page-live')).toBeVisible();
}

/**
 * Every run.progress fraction the server sends to this page over its WebSocket (browser mode),
 * recorded from the moment of the call. Unlike sampling the progress bar, this does not depend
 * on how fast the machine is: a short run on a loaded machine can finish before the page is
 * looked at, but its progress events are still sent. Call before the page opens its socket.
 */
export function recordProgressEvents(page: Page): number[] {
  const fractions: number[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || !payload.includes('"run.progress"')) return;
      const message = JSON.parse(payload) as { event?: string; payload?: { fraction?: number } };
      if (message.event === 'run.progress' && typeof message.payload?.fraction === 'number') fractions.push(message.payload.fraction);
    });
  });
  return fractions;
}

/** Waits for the run to end, recording every progress value seen on the way. */
export async function watchRun(page: Page): Promise<number[]> {
  const seen: number[] = [];
  const bar = page.getByTestId('run-progress');
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const value = Number(await bar.getAttribute('aria-valuenow'));
    if (seen.at(-1) !== value) seen.push(value);
    const status = await page.getByTestId('run-status').textContent();
    if (status && status !== 'Running' && status !== 'Cancelling…') break;
    await page.waitForTimeout(50);
  }
  return seen;
}

/** Two finished runs → Library → Compare selected → the bar charts hold one bar per run and test. */
export async function compareTwoRuns(page: Page, open: Open) {
  await open(page, 'library');
  await expect(page.getByTestId('library-row')).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select HDD' }).check();
  await page.getByRole('checkbox', { name: 'Select SSD' }).check();
  await page.getByRole('button', { name: 'Compare selected (2)' }).click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  // quick = sequential read + write (MB/s) and 4K QD1 read + write (IOPS): 2 tests × 2 runs per chart.
  const seqBars = page.getByTestId('bars-throughput').locator('svg rect[data-testid="bar"]');
  await expect(seqBars).toHaveCount(4);
  await expect(page.getByTestId('bars-iops').locator('svg rect[data-testid="bar"]')).toHaveCount(4);
  return seqBars;
}
