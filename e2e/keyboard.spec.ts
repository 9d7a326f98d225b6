// Keyboard only: tick runs, save a PDF, start and cancel a run, relabel, delete. After each,
// the keyboard's focus is on a named, visible element (it used to fall to <body>, throwing a
// keyboard or screen-reader user back to the top of the page).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** The focused element's accessible name (as far as the page gives one) and whether it is on screen. */
async function focused(page: Page): Promise<{ tag: string; name: string; visible: boolean }> {
  return page.evaluate(`(() => {
    const e = document.activeElement;
    if (!e || e === document.body) return { tag: 'body', name: '', visible: false };
    const labelled = e.getAttribute('aria-labelledby');
    const name = (e.getAttribute('aria-label') || (labelled && document.getElementById(labelled)?.textContent) ||
      (e.labels && e.labels[0]?.textContent) || e.textContent || '').trim().replace(/\\s+/g, ' ');
    const r = e.getBoundingClientRect();
    return { tag: e.tagName.toLowerCase(), name, visible: r.width > 0 && r.height > 0 };
  })()`);
}

/** Presses Tab until the focused element's name matches (at most 60 presses). */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (name.test((await focused(page)).name)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

async function expectFocusOn(page: Page, name: RegExp, after: string) {
  await expect.poll(async () => (await focused(page)).name, { message: `focus after ${after}` }).toMatch(name);
  expect((await focused(page)).visible, `the focused element after ${after} is visible`).toBe(true);
}

test('keyboard only: tick runs, Save PDF, relabel, delete — focus lands on a named, visible element after each', async ({ page, app }) => {
  test.setTimeout(600_000);
  // Compare: two references ticked with Space; Save PDF with Enter, and focus stays on it.
  await page.goto(`${app.url}#/compare`);
  await expect(page.getByTestId('page-compare')).toBeVisible();
  await tabTo(page, /Laptop hard disk/);
  await page.keyboard.press('Space');
  await expectFocusOn(page, /Laptop hard disk/, 'ticking a run');
  await tabTo(page, /Intel 320 SSD, ThinkPad/);
  await page.keyboard.press('Space');
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expectFocusOn(page, /Intel 320 SSD, ThinkPad/, 'ticking a second run');
  await tabTo(page, /^Save PDF$/);
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  await download;
  await expect(page.getByRole('button', { name: 'Save PDF' })).toHaveAttribute('aria-disabled', 'false');
  await expectFocusOn(page, /^Save PDF$/, 'Save PDF');

  // Library: import (Enter on the button), relabel with Enter and with Escape, delete kept and done.
  await page.goto(`${app.url}#/library`);
  await tabTo(page, /^Import files…$/);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv'));
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await tabTo(page, /^Relabel /);
  await page.keyboard.press('Enter');
  await expectFocusOn(page, /New label/, 'Relabel');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('old laptop disk');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('library-table')).toContainText('old laptop disk');
  await expectFocusOn(page, /^Relabel old laptop disk$/, 'Relabel → Save (Enter)');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expectFocusOn(page, /^Relabel old laptop disk$/, 'Relabel → Escape');

  await tabTo(page, /^Delete old laptop disk$/);
  await page.keyboard.press('Enter');
  await expectFocusOn(page, /^Keep it$/, 'Delete (the dialog opens on Keep it)');
  await page.keyboard.press('Enter');
  await expectFocusOn(page, /^Delete old laptop disk$/, 'Delete → Keep it');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expectFocusOn(page, /^Delete old laptop disk$/, 'Delete → Escape');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expectFocusOn(page, /^Delete$/, 'Tab in the dialog');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('empty-state')).toBeVisible();
  // The last run gone, the table with it: focus on Import files….
  await expectFocusOn(page, /^Import files…$/, 'Delete → Delete');
});

test('keyboard only: start a run with Enter and cancel it with Enter — focus lands on its status', async ({ page, app }) => {
  test.setTimeout(600_000);
  // New run → Start with Enter; Live run's Cancel with Enter: focus goes to the run's status.
  await page.goto(`${app.url}#/new`);
  await page.getByLabel('Target folder').focus();
  await page.keyboard.type(app.targetDir);
  await page.getByLabel('Preset').focus();
  await page.getByLabel('Preset').selectOption('standard');
  for (const [label, value] of [
    // 8 tests × 20 s: the run cannot end on its own before the cancel, however slow the machine.
    ['Test file size (MiB)', '32'],
    ['Seconds per test', '20'],
    ['Runs', '1'],
    ['Label', 'keyboard run'],
  ] as const) {
    await page.getByLabel(label).focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(value);
  }
  await tabTo(page, /^Start$/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('page-live')).toBeVisible();
  // The page change put focus on the page's content: Cancel is its first control.
  await tabTo(page, /^Cancel$/);
  await page.keyboard.press('Enter');
  // A bound against a hung run: the run may first wait for its disk while another suite measures it.
  await expect(page.getByTestId('run-status')).toHaveText('Cancelled', { timeout: 300_000 });
  await expectFocusOn(page, /^Cancelled/, 'Cancel');
  expect(app.leftovers()).toEqual([]);
});
