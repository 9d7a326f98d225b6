// The Live run page followed from other tabs: a tab opened before the run said "No run in
// progress" the whole run while its sidebar dot said one was; one opened during it showed
// "Unlabelled run on" with no target or preset and missed the tests before it. Both now show
// the run whole. Its chart's legend draws each test's swatch as its line (colour and dash), its
// lines stay off the floor, and a cancelled run leaves no progress bar or stray test line.
import type { Locator, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';
import { startRun } from './flows.ts';

/** The page at 1280 and 390 px, light and dark. */
async function screenshots(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await fullPageScreenshot(page, join(SCREENSHOT_DIR, `${name}-${viewport.width}-${scheme}.png`));
    }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The run's heading line: label, target, preset. */
async function expectRunShown(page: Page, targetDir: string) {
  const lead = page.getByTestId('run-lead');
  await expect(lead).toContainText('followed');
  await expect(lead).toContainText(targetDir);
  await expect(lead).toContainText('preset standard');
}

/** Each drawn line's stroke and dash, and each legend swatch's, in order. */
async function strokes(lines: Locator): Promise<string[]> {
  return Promise.all(
    (await lines.all()).map(async (l) => `${await l.getAttribute('stroke')} / ${(await l.getAttribute('stroke-dasharray')) ?? ''}`),
  );
}

/** How far above the x axis each line's median point is drawn, as a share of the plot's height. */
async function heightsOffTheFloor(page: Page): Promise<number[]> {
  // A string, not a function: e2e code is type-checked without the DOM's types.
  return page.evaluate(`(() => {
    const box = document.querySelector('[data-testid="live-chart"]');
    const plot = box.querySelector('[data-testid="y-axis"]').getBoundingClientRect();
    return [...box.querySelectorAll('path.plot-line')].map((path) => {
      const ys = [...(path.getAttribute('d') ?? '').matchAll(/[ML][^,]+,([-\\d.]+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
      const median = path.ownerSVGElement.getBoundingClientRect().top + ys[Math.floor(ys.length / 2)];
      return (plot.bottom - median) / plot.height;
    });
  })()`) as Promise<number[]>;
}

test('Live run in other tabs: opened before and during a run, each shows it whole; legend swatches as the lines; cancelled leaves no bar', async ({
  page,
  app,
  context,
}) => {
  test.setTimeout(300_000);
  const before = page;
  await before.goto(`${app.url}#/live`);
  await expect(before.getByText('No run in progress')).toBeVisible();

  // 8 tests × 20 s: after the second test starts, the run has two minutes or more to go, however
  // slowly a loaded machine lets the tabs follow.
  const starter = await context.newPage();
  await startRun(starter, (p, route) => p.goto(`${app.url}#/${route}`).then(() => undefined), app.targetDir, 'followed', {
    preset: 'standard',
    sizeMiB: '32',
    duration: '20',
  });
  // The tab that started it moves on (and draws no chart meanwhile): the other two follow the run.
  await starter.goto(`${app.url}#/library`);
  await expect(before.getByTestId('run-status')).toHaveText('Running');
  await expectRunShown(before, app.targetDir);

  // A tab opened once the first test is over: it has that test too, and its samples.
  // The tests started so far (not the "+ 6 more" line).
  const tests = (p: Page) => p.getByRole('list', { name: 'Tests' }).getByRole('listitem').filter({ hasNotText: /more$/ });
  await expect.poll(() => tests(before).count(), { timeout: 240_000 }).toBeGreaterThanOrEqual(2);
  const during = await context.newPage();
  await during.goto(`${app.url}#/live`);
  await expect(during.getByTestId('run-status')).toHaveText('Running');
  await expectRunShown(during, app.targetDir);
  await expect(tests(during).first()).toContainText('sequential read 1M Q8T1 (done)');
  const legend = during.getByTestId('live-legend').getByRole('listitem');
  await expect(legend.first()).toContainText('sequential read 1M Q8T1');
  await expect.poll(() => legend.count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(2);

  // The legend: each swatch is drawn as its line is, and no two alike (greyscale tells them apart).
  for (const p of [before, during]) {
    const chart = p.getByTestId('live-chart');
    const lineStrokes = await strokes(chart.locator('path.plot-line'));
    const swatchStrokes = await strokes(p.getByTestId('live-legend').locator('svg line'));
    // As sets: the SVG's paint order says nothing about which swatch is which line's.
    const n = Math.min(lineStrokes.length, swatchStrokes.length);
    expect(swatchStrokes.slice(0, n).sort()).toEqual(lineStrokes.slice(0, n).sort());
    // In greyscale the dash alone tells them apart (the grid's eight: live-view.test.ts).
    expect(new Set(swatchStrokes.map((s) => s.split(' / ')[1])).size, swatchStrokes.join('\n')).toBe(swatchStrokes.length);
    // Every test's line is drawn off the floor, whatever the spread of their levels.
    for (const h of await heightsOffTheFloor(p)) expect(h).toBeGreaterThanOrEqual(0.05);
  }

  await screenshots(during, 'live-followed');

  await during.getByRole('button', { name: 'Cancel' }).click();
  await starter.goto(`${app.url}#/live`);
  for (const p of [before, during, starter]) {
    await expect(p.getByTestId('run-status')).toHaveText('Cancelled', { timeout: 120_000 });
    // No bar left part-filled, no test left looking as if it were still to come.
    await expect(p.getByTestId('run-progress')).toHaveCount(0);
    await expect(p.getByTestId('run-stopped')).toContainText('Cancelled during');
    await expect(tests(p).last()).toContainText('(cancelled)');
    await expect(tests(p).filter({ hasText: '(waiting)' })).toHaveCount(0);
  }
  await screenshots(before, 'live-followed-cancelled');
  expect(app.leftovers()).toEqual([]);
});
