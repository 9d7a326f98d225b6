// The encryption views in browser mode: Overview measures the CPU's cipher ceilings (on this
// machine through OpenSSL, labelled a user-space estimate, where the kernel has no AF_ALG);
// Compare shows HDD / SSD / SSD + dm-crypt with the cipher line and hatched forecasts.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, SCREENSHOT_DIR, test } from './fixtures.ts';

test('Overview measures the cipher ceilings; Compare draws the cipher line and the estimated forecasts apart from measurements', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${app.url}#/`);
  const section = page.getByTestId('cipher-ceilings');
  await section.getByRole('button', { name: 'Measure cipher ceilings' }).click();
  await expect(section.getByTestId('cipher-table')).toBeVisible({ timeout: 60_000 });
  await expect(section.getByTestId('cipher-table')).toContainText('aes-xts-plain64');
  await expect(section.getByTestId('cipher-table')).toContainText('64 KiB (bulk)');
  const source = await section.getByTestId('cipher-source').textContent();
  // Kernel figures or a labelled estimate, never an unlabelled OpenSSL figure.
  expect(source).toMatch(/kernel crypto API \(AF_ALG\)|user-space estimate.*Every figure below is a user-space estimate/);
  if (/user-space/.test(source ?? '')) await expect(section.getByRole('columnheader', { name: /estimate/ }).first()).toBeVisible();
  await expect(section).toContainText(/AES-NI: (yes|no), VAES: (yes|no)/);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(SCREENSHOT_DIR, `overview-ciphers-${scheme}.png`) });
  }

  await page.goto(`${app.url}#/compare`);
  for (const name of ['Laptop hard disk', 'Intel 320 SSD, ThinkPad', 'Intel 320 SSD + dm-crypt']) {
    await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) }).check();
  }
  const enc = page.getByTestId('compare-encryption');
  await expect(enc).toBeVisible();
  await expect(enc.getByRole('heading')).toContainText(/sequential read/i);
  await expect(enc.getByTestId('enc-source')).toContainText('Cipher ceiling');
  // The cipher's ceiling is drawn as a labelled line; forecasts only for the two unencrypted runs.
  await expect(enc.getByTestId('enc-chart').locator('.recharts-reference-line')).toHaveCount(1);
  await expect(enc.getByTestId('enc-chart')).toContainText('cipher ceiling');
  const rows = enc.getByTestId('enc-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('(estimated)');
  await expect(rows.nth(1)).toContainText('(estimated)');
  await expect(rows.nth(2)).toContainText('measured encrypted');
  // Forecast bars are hatched (a pattern fill) and outlined dashed; measured bars are solid.
  const forecastBars = enc.getByTestId('enc-chart').locator('path[fill="url(#forecast-hatch)"]');
  await expect(forecastBars).toHaveCount(2);
  expect(await forecastBars.first().getAttribute('stroke-dasharray')).toBe('5 3');
  // The ceiling of a modern CPU dwarfs the 2011 disks: the log scale shows all three apart.
  await page.getByRole('radio', { name: 'Logarithmic' }).check();
  await expect(enc.getByRole('heading')).toContainText('log scale');
  await expect(enc.getByTestId('enc-chart')).toHaveAttribute('data-scale', 'log');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await enc.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await enc.screenshot({ path: join(SCREENSHOT_DIR, `compare-encryption-${scheme}.png`) });
  }
});

test('New run: "also measure what encryption costs" where dm-crypt cannot run ends with a message saying what is missing', async ({
  page,
  app,
}) => {
  // As throwaway.ts decides: the kernel's driver answers `dmsetup version`.
  const dmPossible = process.getuid?.() === 0 && spawnSync('dmsetup', ['version'], { stdio: 'ignore' }).status === 0;
  test.skip(
    dmPossible,
    'this machine can run dm-crypt: the failure path is not reachable; e2e/dm-crypt-lab.test.ts measures the real thing',
  );
  await page.goto(`${app.url}#/new`);
  await page.getByLabel('Target folder').fill(app.targetDir);
  await page.getByLabel('Also measure what encryption (dm-crypt) costs on this disk').check();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page).toHaveURL(/#\/live/);
  // No device-mapper in the kernel, or not root: the run fails at once, naming what is missing
  // and what still works.
  await expect(page.getByText(/device-mapper|needs root/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/diskdelta ciphers|forecast still work/)).toBeVisible();
  expect(app.leftovers()).toEqual([]);
});
