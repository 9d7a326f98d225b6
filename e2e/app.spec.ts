// The app in browser mode, end to end, with real (small) runs on a temporary folder.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';
import { compareTwoRuns, recordProgressEvents, startRun, watchRun, type Open } from './flows.ts';

const PAGES = ['overview', 'new', 'live', 'library', 'compare'] as const;

/** Browser mode: pages are hash routes of the printed URL. */
const openAt =
  (url: string): Open =>
  async (page, route) => {
    await page.goto(`${url}#/${route}`);
  };

test('run → live progress → library → compare two runs → bars in the chart SVG; screenshots of every page', async ({ page, app }) => {
  const open = openAt(app.url);
  const progress = recordProgressEvents(page);
  await startRun(page, open, app.targetDir, 'HDD');
  await watchRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('Finished');
  await expect(page.getByTestId('run-progress')).toHaveAttribute('aria-valuenow', '100');
  // Progress between start and end reached the page (what the bar showed of it depends on
  // how busy the machine was, so the events themselves are what is checked).
  expect(
    progress.some((f) => f > 0 && f < 1),
    `progress sent: ${progress.join(', ')}`,
  ).toBe(true);
  await expect(page.getByTestId('run-saved')).toBeVisible();
  // A drawn line: a path through two points or more. (Not toBeVisible: a line whose samples are
  // all alike is flat, and a zero-height box counts as hidden; how many samples a short run
  // gets depends on how busy the machine is.)
  await expect(page.getByTestId('live-chart').locator('svg path.plot-line').first()).toHaveAttribute('d', /^M[^L]+L/);
  expect(app.leftovers()).toEqual([]);

  await startRun(page, open, app.targetDir, 'SSD');
  await watchRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('Finished');

  await page.goto(`${app.url}#/library`);
  await expect(page.getByTestId('library-table')).toContainText('HDD');
  await expect(page.getByTestId('library-table')).toContainText('SSD');
  const seqBars = await compareTwoRuns(page, open);
  for (const bar of await seqBars.all()) {
    expect(Number(await bar.getAttribute('data-value'))).toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('height'))).toBeGreaterThan(0);
  }
  // Through locators, not evaluateAll: e2e code is type-checked without DOM types.
  const tests = (
    await Promise.all((await seqBars.all()).map(async (b) => `${await b.getAttribute('data-run')}:${await b.getAttribute('data-test')}`))
  ).sort();
  expect(tests).toEqual(['0:seq1m-q8t1-read', '0:seq1m-q8t1-write', '1:seq1m-q8t1-read', '1:seq1m-q8t1-write']);
  await expect(page.getByTestId('speedup-table')).toContainText('×');
  await expect(page.getByTestId('speedup-table')).toContainText('MB/s');

  // The units switch changes every throughput figure's unit.
  await page.getByRole('radio', { name: 'KiB/s' }).check();
  await expect(page.getByTestId('speedup-table')).toContainText('KiB/s');
  await page.getByRole('radio', { name: 'MB/s', exact: true }).check();
  await page.getByRole('radio', { name: 'Logarithmic' }).check();
  await expect(page.getByTestId('bars-throughput')).toHaveAttribute('data-scale', 'log');
  await expect(seqBars).toHaveCount(4);

  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const name of PAGES) {
      await page.goto(`${app.url}#/${name}`);
      await expect(page.getByTestId(`page-${name}`)).toBeVisible();
      if (name === 'compare') await expect(seqBars).toHaveCount(4);
      if (name === 'overview') await expect(page.getByRole('heading', { name: 'Disks' })).toBeVisible();
      await page.mouse.move(0, 0);
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`), fullPage: false });
      if (name === 'compare') {
        // Scrolled to, as a reader would: the section is drawn only near the window.
        const series = page.getByTestId('picker-time-series');
        await series.scrollIntoViewIfNeeded();
        await expect(series.locator('svg path.plot-line').first()).toHaveAttribute('d', /^M[^L]+L/);
        // Its lower sections are painted near the window only: fullPageScreenshot paints them.
        await fullPageScreenshot(page, join(SCREENSHOT_DIR, `compare-full-${scheme}.png`));
        await series.screenshot({ path: join(SCREENSHOT_DIR, `compare-time-series-${scheme}.png`) });
      }
    }
  }
});

test('cancel stops the run and leaves no test file', async ({ page, app }) => {
  // 8 tests × 20 s: the run cannot end on its own before the cancel, however slow the machine,
  // so "Cancelled" can only be the cancel. The click comes before any screenshot: on a loaded
  // machine a page that redraws its live chart ten times a second took minutes to photograph.
  test.setTimeout(900_000);
  await startRun(page, openAt(app.url), app.targetDir, 'to cancel', { preset: 'standard', sizeMiB: '32', duration: '20' });
  // A bound against a hung run, not a speed check: the run may first wait for its disk while
  // another DiskDelta process (a second test suite on this machine) measures it.
  await expect(page.getByTestId('run-progress')).not.toHaveAttribute('aria-valuenow', '0', { timeout: 600_000 });
  // The Live run page mid-run: progress, current figures and the live chart.
  await expect(page.getByTestId('live-chart').locator('svg path.plot-line').first()).toHaveAttribute('d', /^M[^L]+L/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('Cancelled', { timeout: 60_000 });
  expect(app.leftovers()).toEqual([]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `live-cancelled-${scheme}.png`) });
  }
  await page.goto(`${app.url}#/library`);
  await expect(page.getByTestId('empty-state')).toContainText('The library is empty');
});

test('a request without the token is refused, for the page and for the API', async ({ page, app }) => {
  const bare = await page.request.get(`${app.origin}/`);
  expect(bare.status()).toBe(403);
  const wrong = await page.request.get(`${app.origin}/?token=not-the-token`);
  expect(wrong.status()).toBe(403);
  // A page without the token says so instead of starting the app.
  await page.goto(`${app.origin}/index.html`);
  await expect(page.locator('body')).toContainText('token');
  // From a page of the right origin, a socket without the token is refused; with it, it opens.
  await page.goto(app.url);
  const outcome = await page.evaluate(
    async ({ origin, token }) => {
      const attempt = (url: string) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => (ws.close(), resolve('open'));
          ws.onerror = () => resolve('refused');
        });
      const host = origin.replace('http://', 'ws://');
      return {
        noToken: await attempt(`${host}/api`),
        badToken: await attempt(`${host}/api?token=x`),
        withToken: await attempt(`${host}/api?token=${token}`),
      };
    },
    { origin: app.origin, token: app.token },
  );
  expect(outcome).toEqual({ noToken: 'refused', badToken: 'refused', withToken: 'open' });
});

test('import of a bonnie++ file through the file picker lands in the library and compares with a reference', async ({ page, app }) => {
  await page.goto(`${app.url}#/library`);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import files…' }).click();
  await (await chooser).setFiles(join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv'));
  await expect(page.getByTestId('import-outcome')).toContainText('imported 1 run');
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await expect(page.getByTestId('library-table')).toContainText('bonnie++');

  // The same file again: nothing is added, and the page says which run it already is.
  const again = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import files…' }).click();
  await (await again).setFiles(join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv'));
  await expect(page.getByTestId('import-outcome')).toContainText(
    'imported 0 runs. 1 already in the library, not added again: #1 (this file was imported before).',
  );
  await expect(page.getByTestId('library-row')).toHaveCount(1);

  // Relabel it, export it, and (at the end) delete it after confirming.
  await page.getByRole('button', { name: /^Relabel / }).click();
  await page.getByLabel('New label').fill('2011 laptop HDD (bonnie++)');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('library-table')).toContainText('2011 laptop HDD (bonnie++)');
  await page.getByRole('checkbox', { name: 'Select 2011 laptop HDD (bonnie++)' }).check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^diskdelta-runs-.*\.json$/);
  const exported = JSON.parse(readFileSync(await file.path(), 'utf8')) as { runs: Array<{ label: string }> };
  expect(exported.runs.map((r) => r.label)).toEqual(['2011 laptop HDD (bonnie++)']);

  // The imported run against a shipped reference run: the seeks bars show both.
  await page.goto(`${app.url}#/compare`);
  await page.getByTestId('pick-run').first().check();
  await page.getByTestId('pick-reference').first().check();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('speedup-table')).toContainText('×');

  // The view DiskDelta exists for: HDD vs SSD vs SSD + dm-crypt (the shipped 2011 figures).
  await page.getByTestId('pick-run').first().uncheck();
  await page.getByTestId('pick-reference').first().uncheck();
  for (const name of ['Laptop hard disk', 'Intel 320 SSD, ThinkPad', 'Intel 320 SSD + dm-crypt']) {
    await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) }).check();
  }
  await expect(page.getByTestId('bars-iops').locator('svg rect[data-testid="bar"]').first()).toBeVisible();
  // HDD 151 seeks/s beside SSD 10,524: the automatic scale goes logarithmic, so at 1280 px every
  // bar keeps a visible height, says its value (and its ratio to #1), and no axis label overlaps another.
  const iopsChart = page.getByTestId('bars-iops');
  await expect(iopsChart).toHaveAttribute('data-scale', 'log');
  await expect(iopsChart).toContainText('log scale: values span');
  for (const chart of [iopsChart, page.getByTestId('bars-throughput')]) {
    const heights = await chart
      .locator('svg rect[data-testid="bar"]')
      .evaluateAll((els) => els.map((e) => Number((e as unknown as { getAttribute(name: string): string | null }).getAttribute('height'))));
    expect(heights.length).toBeGreaterThan(0);
    expect(Math.min(...heights), `bar heights ${heights.join(', ')}`).toBeGreaterThanOrEqual(8);
    const ticks = await chart
      .locator('[data-testid="axis-tick"]')
      .evaluateAll((els) =>
        els
          .map((e) => (e as unknown as { getBoundingClientRect(): { left: number; right: number } }).getBoundingClientRect())
          .map((r) => ({ left: r.left, right: r.right })),
      );
    expect(ticks.length).toBeGreaterThan(0);
    for (let i = 1; i < ticks.length; i++)
      expect(ticks[i]!.left, `tick ${i} starts after tick ${i - 1} ends`).toBeGreaterThanOrEqual(ticks[i - 1]!.right);
  }
  await expect(iopsChart.locator('[data-testid="bar-label"][data-run="1"]').first()).toContainText('×');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.getByTestId('compare-view').scrollIntoViewIfNeeded();
    await page.getByTestId('bars-throughput').scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0); // no tooltip in the picture
    await page.screenshot({ path: join(SCREENSHOT_DIR, `compare-references-${scheme}.png`) });
  }

  await page.goto(`${app.url}#/library`);
  await page.getByRole('button', { name: 'Delete 2011 laptop HDD (bonnie++)' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('cannot be undone');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Delete 2011 laptop HDD (bonnie++)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('empty-state')).toContainText('The library is empty');
});

test('keyboard: skip link, navigation and the page controls are reached with Tab and work with Enter/Space', async ({ page, app }) => {
  await page.goto(`${app.url}#/overview`);
  await expect(page.getByTestId('page-overview')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const focusedName = () =>
    page.evaluate(
      'document.activeElement && (document.activeElement.getAttribute("aria-label") || document.activeElement.textContent || "").trim()',
    );
  const reached: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    reached.push(String(await focusedName()));
  }
  expect(reached.slice(0, 5)).toEqual(['Overview', 'New run', 'Live run', 'Library', 'Compare']);
  // Enter on the focused "Library" link opens the page; Tab then reaches its controls.
  await page.getByRole('link', { name: 'Library' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  const controls: string[] = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    controls.push(String(await focusedName()));
  }
  expect(controls).toContain('Import files…');
  // Every form control on New run has a label a screen reader announces.
  await page.goto(`${app.url}#/new`);
  // The page's own content, not the shell's: pages load when first opened.
  await expect(page.getByRole('heading', { name: 'New run', level: 1 })).toBeVisible();
  const unlabelled = await page.evaluate(
    `[...document.querySelectorAll('input, select')].filter((el) => !el.labels?.length && !el.getAttribute('aria-label')).map((el) => el.outerHTML)`,
  );
  expect(unlabelled).toEqual([]);
});

test('a failed start and a failed run say what to do: another folder, or allow page-cache I/O', async ({ page, app }) => {
  const open = openAt(app.url);
  await open(page, 'new');
  await page.getByLabel('Target folder').fill(join(app.targetDir, 'no-such-folder'));
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('failure-action')).toHaveAttribute('data-action', 'pick-folder');
  await expect(page.getByTestId('error-note')).toContainText('Choose another folder');
  // /dev/shm keeps files in memory: the worker refuses O_DIRECT there (failure no-direct-io).
  test.skip(!statSync('/dev/shm', { throwIfNoEntry: false })?.isDirectory(), 'no /dev/shm on this machine');
  await startRun(page, open, '/dev/shm', 'on tmpfs');
  await expect(page.getByTestId('run-status')).toHaveText('Failed', { timeout: 20_000 });
  await expect(page.getByTestId('failure-action')).toHaveAttribute('data-action', 'use-buffered');
  await expect(page.getByTestId('failure-action').getByRole('link', { name: 'Back to New run' })).toBeVisible();
});
