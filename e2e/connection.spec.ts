// The server stopped mid-use: every control then fails at once with the banner's advice (none
// waits for an answer that cannot come), and when `diskdelta serve` is back on the same port
// the tab names its token as stale and the new address works.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, startServe, stopServe, test } from './fixtures.ts';

const ADVICE = /connection to diskdelta serve was lost: restart it and open the new address it prints/;

test('server stopped: ticking, Save PDF, relabel and delete fail at once with the advice; back on the same port, the stale token is named', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-conn-'));
  const db = join(dir, 'library.sqlite');
  let serve = startServe(db, 0);
  try {
    const url = await serve.url;
    const port = Number(new URL(url).port);
    await page.goto(`${url}#/library`);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import files…' }).click();
    await (await chooser).setFiles(join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv'));
    await expect(page.getByTestId('library-row')).toHaveCount(1);
    await page.evaluate("window.location.hash = '#/compare'");
    for (const name of ['Laptop hard disk', 'Intel 320 SSD, ThinkPad'])
      await page.getByRole('checkbox', { name: new RegExp(`^${name}`) }).check();
    await expect(page.getByTestId('compare-view')).toBeVisible();

    await stopServe(serve.child);
    await expect(page.getByTestId('connection-banner')).toContainText('was lost');

    // Save PDF ends (no "Making the PDF…" left) with the same advice.
    await page.getByRole('button', { name: 'Save PDF' }).click();
    await expect(page.getByRole('button', { name: 'Save PDF' })).toBeEnabled();
    await expect(page.locator('.save-report').getByTestId('error-note')).toContainText(ADVICE);
    // Ticking a third run reloads the comparison: it fails, and says what to do.
    await page.getByRole('checkbox', { name: /^Intel 320 SSD \+ dm-crypt/ }).check();
    await expect(page.getByTestId('error-note').first()).toContainText(ADVICE);

    await page.evaluate("window.location.hash = '#/library'");
    await page.getByRole('button', { name: /^Relabel / }).click();
    await page.getByLabel('New label').fill('renamed while offline');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('error-note')).toContainText(ADVICE);
    await expect(page.getByTestId('library-table')).not.toContainText('renamed while offline');
    await page.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('error-note')).toContainText(ADVICE);
    await expect(page.getByTestId('library-row')).toHaveCount(1);

    // A new launch on the same port prints a new token: the tab says its own is stale.
    serve = startServe(db, port);
    const fresh = await serve.url;
    await expect(page.getByTestId('connection-banner')).toContainText('stale', { timeout: 30_000 });
    // The old address itself says so too, rather than "needs the token".
    await page.goto(`${url}#/library`);
    await expect(page.locator('body')).toContainText('stale');
    // And the new address works: the library kept the run.
    await page.goto(`${fresh}#/library`);
    await expect(page.getByTestId('library-row')).toHaveCount(1);
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  } finally {
    await stopServe(serve.child);
    rmSync(dir, { recursive: true, force: true });
  }
});
