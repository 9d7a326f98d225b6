// The Fleet page as someone deciding for many machines meets it: two real fio --client files
// imported from the page (the fleet lab's five throttled hosts, and two servers on loopback),
// the older one unticked with the keyboard, then the fleet's percentiles, the slow host named the
// outlier and a hard disk, "one fio run per test: no spread" said, and the fleet report saved as
// a PDF with Enter and read back with pdftotext. axe (WCAG 2.1 AA) and the 390 px reflow, light
// and dark; screenshots at 1280 and 390 px.
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';

const FIXTURES = join(import.meta.dirname, '..', 'electron', 'node', 'formats', 'fixtures');
const SLOW = '198.18.245.18:8765';

async function serious(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary ?? ''}`));
}

test('fleet page: import two fio --client files, choose one with the keyboard, read the fleet, save its report', async ({ page, app }) => {
  test.setTimeout(180_000);
  await page.goto(`${app.url}#/fleet`);
  await expect(page.getByTestId('empty-state')).toContainText('No fleet runs yet');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import fio --client JSON…' }).click();
  await (
    await chooser
  ).setFiles([join(FIXTURES, 'fio-3.33-client-5-throttled-hosts.json'), join(FIXTURES, 'fio-3.33-client-2-hosts.json')]);
  const hosts = page.getByTestId('fleet-hosts').locator('tbody tr');
  await expect(hosts).toHaveCount(7);

  // Keyboard only: Tab to the older measurement's box (2 hosts), Space unticks it.
  const two = page.getByRole('checkbox', { name: /· 2 hosts$/ });
  await page.getByRole('checkbox', { name: /· 5 hosts$/ }).focus();
  await page.keyboard.press('Tab');
  await expect(two).toBeFocused();
  await page.keyboard.press('Space');
  await expect(two).not.toBeChecked();
  await expect(hosts).toHaveCount(5);
  await expect(two).toBeFocused();

  await expect(page.getByTestId('fleet-summary')).toHaveText(
    /^1 of 5 hosts are on hard disks: an SSD would give them ×4\.9 sequential and ×5\.4 random reads \(median\)/,
  );
  await expect(page.getByTestId('fleet-spread-note')).toContainText('One fio run per test: no spread.');
  const seq = page.getByTestId('fleet-stats').getByRole('row', { name: /^sequential read/ });
  await expect(seq).toHaveText(/sequential read\s*5\s*16\.92 MB\/s\s*36\.18 MB\/s\s*46\.55 MB\/s/);
  await expect(page.getByTestId('fleet-outliers')).toHaveText(
    `${SLOW}: low: sequential read, sequential write, random 4K read QD1, random 4K write QD1`,
  );
  const slow = hosts.filter({ hasText: SLOW });
  await expect(slow).toHaveClass(/outlier/);
  await expect(slow.getByRole('cell').nth(1)).toHaveText('hard disk');
  await expect(slow).toContainText("on a hard disk: an SSD like the fleet's would give ×4.9 sequential and ×5.4 random reads");
  await expect(hosts.filter({ hasText: 'on an SSD already' })).toHaveCount(4);
  // Each row is laid out on its own (a grid per row, styles.css): still one table to a screen
  // reader, and every row's columns start where the header's do.
  const table = page.getByRole('table', { name: /^Every host/ });
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(table.getByRole('columnheader')).toHaveCount(9);
  await expect(table.getByRole('rowheader')).toHaveCount(5);
  const lefts = (await page.evaluate(`[...document.querySelectorAll('[data-testid=fleet-hosts] tr')].map((tr) =>
    [...tr.children].map((cell) => Math.round(cell.getBoundingClientRect().left)))`)) as number[][];
  for (const row of lefts.slice(1)) expect(row).toEqual(lefts[0]);
  // The fleet's two charts, three bars (10th, median, 90th) per figure.
  await expect(page.getByTestId('fleet-view').locator('svg rect[data-testid="bar"]')).toHaveCount(12);

  // The report, by keyboard: focus the button, Enter, read the PDF's text.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save fleet PDF' }).focus();
  await page.keyboard.press('Enter');
  const pdf = join(app.targetDir, '..', 'fleet.pdf');
  await (await download).saveAs(pdf);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(text).toContain('Fleet assessment: 5 hosts');
  expect(text).toContain('One fio run per test: no spread.');
  expect(text).toContain(`${SLOW}: low: sequential read, sequential write, random 4K read QD1, random 4K write QD1`);
  expect(text).toMatch(/sequential read 5 16\.92 MB\/s 36\.18 MB\/s 46\.55 MB\/s/);
  expect(text).not.toContain('127.0.0.2');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdf, join(SCREENSHOT_DIR, 'fleet-report-page')]);

  const failures: string[] = [];
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const line of await serious(page)) failures.push(`${viewport.width} ${scheme}: ${line}`);
      const extra = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
      if (extra > 0) failures.push(`${viewport.width} ${scheme}: the page is ${extra} px wider than the window`);
      await fullPageScreenshot(page, join(SCREENSHOT_DIR, `fleet-${viewport.width}-${scheme}.png`));
    }
  }
  expect(failures).toEqual([]);
});
