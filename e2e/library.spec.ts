// The Library's table while a run is relabelled, and its order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const FIXTURES = join(import.meta.dirname, '..', 'electron', 'node', 'formats', 'fixtures');

async function importFiles(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('import-input').setInputFiles(files);
  await expect(page.getByTestId('import-outcome')).toHaveCount(files.length);
}

/** The box's right edge against the table's scroller and the window: whether it is in view. */
async function inView(page: Page, name: string | RegExp): Promise<boolean> {
  const button = page.getByRole('button', { name }).first();
  const box = (await button.boundingBox())!;
  const scroller = (await page.locator('.table-scroll').boundingBox())!;
  const viewport = page.viewportSize()!;
  return box.x >= scroller.x - 0.5 && box.x + box.width <= Math.min(scroller.x + scroller.width, viewport.width) + 0.5;
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
]) {
  test(`relabel at ${viewport.width} px keeps the table's width, and Save, Cancel and Delete in view`, async ({ page, app }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${app.url}#/library`);
    await importFiles(page, [join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv')]);
    const table = page.getByTestId('library-table');
    const before = (await table.boundingBox())!.width;
    // At 800 px the nine columns already scroll inside their box: Delete is as far in view as before.
    const deleteShown = await inView(page, /^Delete /);
    expect(deleteShown).toBe(viewport.width >= 1280);
    await page.getByRole('button', { name: /^Relabel / }).click();
    await expect(page.getByLabel('New label')).toBeFocused();
    const during = (await table.boundingBox())!.width;
    expect(during, `the table was ${before} px wide before Relabel`).toBeLessThanOrEqual(before + 1);
    for (const name of ['Save', 'Cancel']) expect(await inView(page, name), `${name} in view`).toBe(true);
    expect(await inView(page, /^Delete /), 'Delete as far in view as before Relabel').toBe(deleteShown);
    await page.screenshot({ path: `test-results/screenshots/library-relabel-${viewport.width}-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `test-results/screenshots/library-relabel-${viewport.width}-dark.png` });
  });
}

test('the Library’s own export imported back adds nothing and says why', async ({ page, app }) => {
  await page.goto(`${app.url}#/library`);
  await importFiles(page, [join(FIXTURES, 'fio-3.33-json.json')]);
  await page
    .getByRole('checkbox', { name: /^Select / })
    .first()
    .check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const exported = await (await download).path();
  await page
    .getByTestId('import-input')
    .setInputFiles({ name: 'export.json', mimeType: 'application/json', buffer: readFileSync(exported) });
  await expect(page.getByTestId('import-outcome')).toContainText(
    'export.json: imported 0 runs. 1 already in the library, not added again: #1 (the same measurement (figures, target and machine), from another file or an export).',
  );
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screenshots/library-reimport-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screenshots/library-reimport-dark.png' });
});

test('the Library lists newest first', async ({ page, app }) => {
  await page.goto(`${app.url}#/library`);
  await importFiles(page, [join(FIXTURES, 'fio-3.33-json.json')]);
  await importFiles(page, [join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv')]);
  await expect(page.getByTestId('library-row')).toHaveCount(2);
  const rows = await page.getByTestId('library-row').all();
  const ids = await Promise.all(rows.map(async (row) => Number(await row.getAttribute('data-run-id'))));
  expect(ids.length).toBeGreaterThanOrEqual(2);
  expect(ids, 'the run imported last is on top').toEqual([...ids].sort((a, b) => b - a));
});
