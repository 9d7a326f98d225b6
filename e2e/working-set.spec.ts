// The Working set page as a user meets it: a folder of known files (sizes allocated, times set),
// scanned from the page through the real worker, then the verdict said against the SSD size
// typed in, the windows' bytes and the kept scan listed; screenshots light and dark.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, plantAgedFiles, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';

const MB = 1e6;

/** Files of whole 4 KiB blocks: 4 MB read today, 8 MB read 20 days ago, 12 MB untouched for 2 years. */
function plant(dir: string): void {
  plantAgedFiles(dir, [
    ['Projects/today.bin', 4_096_000, 0.2],
    ['Music/album.bin', 8_192_000, 20.5],
    ['Archive/old.bin', 12_288_000, 730.5],
  ]);
}

test('scan a folder from the page: the windows, the largest folders and the verdict against the SSD typed in', async ({ page, app }) => {
  const home = join(app.targetDir, 'home');
  plant(home);
  await page.goto(`${app.url}#/working-set`);
  await page.getByLabel('Folder to scan').fill(home);
  await page.getByRole('button', { name: 'Scan' }).click();
  const verdict = page.getByTestId('working-set-verdict');
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(verdict.locator('p.verdict')).toHaveText(
    `Your 90-day working set is ${(12_288_000 / MB).toFixed(1)} MB; what you have not touched in a year, ${(12_288_000 / MB).toFixed(1)} MB, can live on the old disk or the network.`,
  );
  await page.getByLabel('SSD you consider (GB)').fill('0.01');
  await expect(verdict.locator('p.verdict')).toContainText(
    'it does not fit on the 10 MB SSD (2.29 MB short); what you touched within 7 days (4.1 MB) would fit',
  );
  const windows = verdict.locator('table.working-set-windows');
  await expect(windows.getByRole('row', { name: /^1 day/ })).toContainText('4.1 MB');
  await expect(windows.getByRole('row', { name: /^30 days/ })).toContainText('12.3 MB');
  await expect(verdict.locator('table.working-set-folders').getByRole('row').nth(1)).toContainText('Archive');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await fullPageScreenshot(page, join(SCREENSHOT_DIR, `working-set-${scheme}.png`));
  }
});
