// Issue 25, scope 1 in the app: a sustained write started from New run (the `sustained` preset),
// its cost said before it starts and again as the span is typed, with the share of the drive's
// rated endurance once a rating is typed and how to give one before; measured for real (2 GiB
// into the test's folder: a few 500 ms intervals, so each run is a line, not one point), then in the library and drawn on Compare as its line over bytes
// written. And a Cancel during the stream keeps what was measured: saved, marked stopped.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CLI, expect, NODE, SCREENSHOT_DIR, test } from './fixtures.ts';
import { watchRun } from './flows.ts';

const FLAG = /(^|[\s(`'"])--[a-z][\w-]*/;

/** New run with the sustained preset on the test's folder: the span, what is written again after how long a rest. */
async function fillSustained(
  page: Page,
  url: string,
  targetDir: string,
  fields: { span: string; recovery: string; rest: string; label: string },
) {
  await page.goto(`${url}#/new`);
  await page.getByLabel('Target folder').fill(targetDir);
  await page.getByLabel('Preset').selectOption('sustained');
  await page.getByLabel('Bytes to write (MiB)').fill(fields.span);
  await page.getByLabel('Written again after the rest (MiB)').fill(fields.recovery);
  await page.getByLabel('Rest before writing again (s)').fill(fields.rest);
  await page.getByLabel('Label').fill(fields.label);
}

test('New run: the sustained preset says its cost and the endurance share before it starts; the run lands in Library and Compare draws its line', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/new`);
  await page.getByLabel('Preset').selectOption('sustained');
  // Its own fields, not the rate tests' seconds per test.
  await expect(page.getByLabel('Bytes to write (MiB)')).toHaveAttribute('placeholder', '16384');
  await expect(page.getByLabel('Rated endurance (TB)')).toHaveAttribute('placeholder', 'not known, e.g. 600');
  await expect(page.getByLabel('Seconds per test')).toHaveCount(0);
  const cost = page.getByTestId('sustained-cost');
  // The defaults: 16 GiB, 4 GiB again after 30 s.
  await expect(cost).toContainText('The sustained write writes 17 GB, rests 30 s and writes 4.3 GB again');
  await expect(cost).toContainText('at 500 MB/s');
  await expect(cost).toContainText('at 50 MB/s');

  await fillSustained(page, app.url, app.targetDir, { span: '2048', recovery: '256', rest: '1', label: 'sustained from the app' });
  // The cost follows the span as it is typed; the rating is not known yet: said, and how to give it here (no CLI flag).
  await expect(cost).toContainText('writes 2.1 GB, rests 1 s and writes 268 MB again: about 6 s at 500 MB/s, 49 s at 50 MB/s');
  await expect(cost).toContainText("2.4 GB counts against the drive's rated write endurance; what share of it is not known");
  await expect(cost).toContainText('into Rated endurance');
  expect(await cost.textContent()).not.toMatch(FLAG);
  await page.getByLabel('Rated endurance (TB)').fill('600');
  await expect(cost).toContainText("2.4 GB is 0.0004 % of the drive's rated write endurance of 600 TB.");
  await expect(cost).toContainText('Stopping it keeps what it measured so far');
  await expect(page.getByRole('button', { name: 'Start' })).toHaveAccessibleDescription(/What it costs/);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('form').screenshot({ path: join(SCREENSHOT_DIR, `new-run-sustained-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('page-live')).toBeVisible();
  await watchRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('Finished');
  await expect(page.getByTestId('run-saved')).toBeVisible();
  // The run's own warning before it started: the same words, the share of the rating typed.
  await expect(page.getByText("of the drive's rated write endurance of 600 TB")).toBeVisible();
  expect(app.leftovers()).toEqual([]);

  // Compare takes two runs: a second, smaller one from the CLI into the same library (1 GiB, no recovery).
  execFileSync(
    NODE,
    [
      CLI,
      'run',
      '--target',
      app.targetDir,
      '--preset',
      'sustained',
      '--sustained-span',
      '1GiB',
      '--sustained-recovery',
      '0',
      '--label',
      'sustained from the CLI',
      '--db',
      app.dbPath,
    ],
    // Its cost warning is on stderr: kept out of the test's output.
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await page.goto(`${app.url}#/library`);
  await expect(page.getByTestId('library-table')).toContainText('sustained from the app');
  await expect(page.getByTestId('library-table')).toContainText('sustained from the CLI');
  await page.goto(`${app.url}#/compare`);
  await page.getByRole('checkbox', { name: /^sustained from the app/ }).check();
  await page.getByRole('checkbox', { name: /^sustained from the CLI/ }).check();
  const chart = page.locator('[data-chart-id="sustained-write:fill"]');
  await expect(chart).toBeVisible();
  // One line per run over the bytes written; the stream after the rest only the app's run has.
  // (A stream shorter than one interval, on a drive faster than this one, is a line of one point: a dot.)
  await expect(chart.getByRole('img', { name: /line chart of 2 runs over bytes written/ })).toBeVisible();
  await expect(chart.locator('path.plot-line')).toHaveCount(2);
  await expect(chart).toContainText('MB/s');
  await expect(page.locator('[data-chart-id="sustained-write:recovery"] path.plot-line')).toHaveCount(1);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await chart.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await chart.screenshot({ path: join(SCREENSHOT_DIR, `compare-sustained-${scheme}.png`) });
  }
});

test('Cancel during the sustained write keeps what it measured: saved, marked stopped, its test file gone', async ({ page, app }) => {
  // 8 GiB: far more than is written before the Cancel (a second or so of the stream).
  await fillSustained(page, app.url, app.targetDir, { span: '8192', recovery: '0', rest: '0', label: 'sustained, cancelled' });
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('page-live')).toBeVisible();
  // Once the stream is measured (its first interval's figure shown), stop it.
  await expect(page.getByTestId('current-figures')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await watchRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('Stopped, kept');
  await expect(page.getByTestId('run-saved')).toContainText('Stopped: what it measured so far is kept. Saved to the library as run #1');
  await expect(page.getByText('stopped during sustained-write: what it measured is kept')).toBeVisible();
  expect(app.leftovers()).toEqual([]);
  // What was stored: the stopped warnings of the run and of its result, and the part of the stream written.
  const shown = execFileSync(NODE, [CLI, 'show', '1', '--db', app.dbPath], { encoding: 'utf8' });
  expect(shown).toMatch(/stopped during sustained-write: what it measured is kept \[stopped\]/);
  expect(shown).toMatch(
    /sustained-write: stopped after [\d.]+ [MG]B of 8\.6 GB: the figures are of what was written \[sustained-stopped\]/,
  );
  expect(shown).toMatch(/the stream, per 1 GiB written:\n {4}0 B – /);
});
