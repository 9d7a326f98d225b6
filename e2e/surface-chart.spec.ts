// The surface chart (issue 41 item 3) from two real measured runs (e2e/data/README.md): the lab's
// two-part disk, whose slower first part must be shaded as its slowest zone and named in the
// note, beside a host loop device (whose slowest zone overlaps it: each zone's bar and tag above
// the plot say whose it is). Imported with the file picker, drawn in Compare and in the
// report preview, light and dark, and photographed at 1280 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SCREENSHOT_DIR, test } from './fixtures.ts';

const FIXTURE = join(import.meta.dirname, 'data', 'surface-two-part-qemu.json');
const TWO_PART = 'QEMU two-part disk: 160 MiB at 8 MiB/s, then 240 MiB at 16 MiB/s';
const LOOP = 'Loop device over a 256 MiB file (page cache)';
/** The note's words for the two-part run: its slowest zone is the first part, 0 B to ~160 MiB. */
const TWO_PART_NOTE = /#1 QEMU two-part disk[^;]*: slowest 8\.\d+ MB\/s from 0 B to 1[56]\d(\.\d+)? MiB \(0–(39|40|41) %\)/;

const runBox = (page: Page, label: string) =>
  page.getByRole('checkbox', { name: new RegExp(`^(#\\d )?${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

/** The two-part run's slowest zone shaded, its bar tagged above the plot, and the note naming it. */
async function shadedAndNamed(chart: Locator): Promise<void> {
  await expect(chart.locator('[data-testid="series-span"][data-run="0"]')).toBeVisible();
  await expect(chart.locator('[data-testid="span-bar"][data-run="0"]')).toBeVisible();
  await expect(chart.getByTestId('span-tag').first()).toHaveText(/^#1 slowest zone: 8\.\d+ MB\/s$/);
  await expect(chart.locator('.chart-note')).toContainText(TWO_PART_NOTE);
}

test('the surface chart: the two-part disk’s slowest zone shaded and named, in Compare and in the report, light and dark', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/library`);
  await page.getByTestId('import-input').setInputFiles([FIXTURE]);
  await expect(page.getByTestId('import-outcome')).toHaveCount(1);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });

  await page.goto(`${app.url}#/compare`);
  for (const label of [TWO_PART, LOOP]) await runBox(page, label).check();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  const chart = page.getByTestId('series-surface').first();
  await expect(chart.locator('path.plot-line')).toHaveCount(2);
  // The two-part run's slowest zone: one shaded stretch, over the first 40 % of the disk.
  const span = chart.locator('[data-testid="series-span"][data-run="0"]');
  await expect(span).toHaveCount(1);
  const box = (await span.boundingBox())!;
  const plot = (await chart.locator('[data-testid="x-axis"]').boundingBox())!;
  expect(box.width / plot.width, 'the shaded zone covers ~40 % of the x axis').toBeGreaterThan(0.35);
  expect(box.width / plot.width, 'the shaded zone covers ~40 % of the x axis').toBeLessThan(0.45);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shadedAndNamed(chart);
    await chart.scrollIntoViewIfNeeded();
    await chart.screenshot({ path: join(SCREENSHOT_DIR, `surface-compare-${scheme}.png`) });
  }

  await page.getByRole('link', { name: 'Open the report view' }).click();
  const report = page.getByTestId('report-preview').locator('[data-testid="report-chart"][data-chart-type="surface"]');
  await expect(report).toHaveCount(1);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shadedAndNamed(report);
    await report.screenshot({ path: join(SCREENSHOT_DIR, `surface-report-${scheme}.png`) });
  }
});
