// The two charts a buyer of an SSD reads (issue "What decides an SSD purchase"): the sustained
// write over bytes written and the block-size sweep, from recorded real runs (e2e/data/README.md:
// the sustained-write lab's QEMU throttle and a blkio-capped loop device), imported with the file
// picker, drawn in Compare and in the report, light and dark, and photographed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SCREENSHOT_DIR, test } from './fixtures.ts';

const DATA = join(import.meta.dirname, 'data');
const SUSTAINED = ['QEMU throttle: 80 MiB/s for 365 MiB, then 10 MiB/s', 'QEMU throttle: 48 MiB/s for 153 MiB, then 3 MiB/s'];
const SWEEP = 'Loop device capped at 100 MB/s and 300 IOPS';

/** The labels of a chart's x-axis ticks, as drawn. */
const tickTexts = (chart: Locator) => chart.locator('[data-testid="x-tick"]').allTextContents();

async function importRecorded(page: Page): Promise<void> {
  await page
    .getByTestId('import-input')
    .setInputFiles([join(DATA, 'sustained-write-qemu-throttle.json'), join(DATA, 'sweep-throttled-loop.json')]);
  await expect(page.getByTestId('import-outcome')).toHaveCount(2);
}

/** A run's box on Compare (its name starts with the run's "#n" once ticked). */
const runBox = (page: Page, label: string) =>
  page.getByRole('checkbox', { name: new RegExp(`^(#\\d )?${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

async function pick(page: Page, labels: string[]): Promise<void> {
  for (const label of labels) await runBox(page, label).check();
  await expect(page.getByTestId('compare-view')).toBeVisible();
}

test('the sustained write and the sweep: drawn over bytes written and over block size, in Compare and in the report, light and dark', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/library`);
  await importRecorded(page);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });

  await page.goto(`${app.url}#/compare`);
  await pick(page, SUSTAINED);
  const fill = page.getByTestId('series-sustained-write').first();
  // One line per run, over bytes written, with the buyer's sentence of each run.
  await expect(fill.locator('path.plot-line')).toHaveCount(2);
  const fillTicks = await tickTexts(fill);
  expect(
    fillTicks.length > 2 && fillTicks.every((t) => /^\d+(\.\d+)? ?(MiB|GiB|MB|GB)$|^0( B)?$/.test(t)),
    `bytes-written ticks: ${fillTicks.join(', ')}`,
  ).toBe(true);
  await expect(page.getByText(/after 38\d MB this drive writes at 10\.\d MB\/s/).first()).toBeVisible();
  await expect(page.getByText(/after 16\d MB this drive writes at 3\.\d\d? MB\/s/).first()).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await fill.scrollIntoViewIfNeeded();
    await fill.screenshot({ path: join(SCREENSHOT_DIR, `purchase-sustained-compare-${scheme}.png`) });
  }

  await page.getByRole('link', { name: 'Open the report view' }).click();
  const preview = page.getByTestId('report-preview');
  const reportFill = preview.locator('[data-testid="report-chart"][data-chart-type="sustained-write"]').first();
  await expect(reportFill).toBeVisible();
  await expect(reportFill.locator('.chart-note')).toContainText('this drive writes at');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await reportFill.screenshot({ path: join(SCREENSHOT_DIR, `purchase-sustained-report-${scheme}.png`) });
  }

  // The sweep: one chart per direction over 18 block sizes, 512 B to 64 MiB. Compare takes two
  // runs or more: beside it, a sustained write, which has no sweep line.
  await page.goto(`${app.url}#/compare`);
  await runBox(page, SUSTAINED[1]!).uncheck();
  await pick(page, [SWEEP]);
  const sweep = page.getByTestId('series-block-size-sweep').first();
  await expect(sweep.locator('path.plot-line')).toHaveCount(1);
  const ticks = await tickTexts(sweep);
  expect(ticks.length, `block-size ticks: ${ticks.join(', ')}`).toBeGreaterThanOrEqual(4);
  expect(
    ticks.every((t) => /^\d+ ?(B|KiB|MiB|K|M)$/.test(t)),
    `block-size ticks: ${ticks.join(', ')}`,
  ).toBe(true);
  // ×655 from 512 B to 64 MiB: a log axis labelled in decades (recharts' own log ticks read
  // "1,000, 200, 60, 10, 3, 0.9, 0.2 MB/s").
  const yTicks = await sweep.locator('[data-testid="y-tick"]').allTextContents();
  const decade = (t: string) => Number.isInteger(Math.log10(Number(t.replace(/ MB\/s$/, '').replace(/,/g, ''))));
  expect(yTicks.length >= 3 && yTicks.every(decade), `value ticks: ${yTicks.join(', ')}`).toBe(true);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await sweep.scrollIntoViewIfNeeded();
    await sweep.screenshot({ path: join(SCREENSHOT_DIR, `purchase-sweep-compare-${scheme}.png`) });
  }
  await page.getByRole('link', { name: 'Open the report view' }).click();
  const reportSweep = page.getByTestId('report-preview').locator('[data-testid="report-chart"][data-chart-type="block-size-sweep"]');
  await expect(reportSweep).toHaveCount(2);
  // One line, and a legend of that run alone (the sustained write beside it has no sweep).
  await expect(reportSweep.first().getByTestId('series-line')).toHaveCount(1);
  await expect(reportSweep.first()).not.toContainText('#1 QEMU');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await reportSweep.first().screenshot({ path: join(SCREENSHOT_DIR, `purchase-sweep-report-${scheme}.png`) });
  }
});
