// axe-core (WCAG 2.1 A and AA) on every page, light and dark, at a desktop window and a phone's
// width: any serious or critical violation fails, and so does a page wider than a 390 px window
// (WCAG 1.4.10, reflow). The pages hold data: an imported run in the library, the three shipped
// 2011 references on Compare and in the report.
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';

const PAGES = ['overview', 'new', 'live', 'library', 'compare', 'report'] as const;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const REFERENCES = ['Laptop hard disk', 'Intel 320 SSD, ThinkPad', 'Intel 320 SSD + dm-crypt'];

/** One import and three references: every page then has its tables and charts to check. */
async function fillThePages(page: Page, url: string) {
  await page.goto(`${url}#/library`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import files…' }).click();
  await (await chooser).setFiles(join(import.meta.dirname, 'data', 'bonnie-throttled-loop.csv'));
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await page.goto(`${url}#/compare`);
  for (const name of REFERENCES) await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) }).check();
  await expect(page.getByTestId('bars-throughput').locator('svg rect[data-testid="bar"]').first()).toBeVisible();
}

/** Serious and critical violations as lines a reader can act on: rule, impact, where, why. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.slice(0, 5).map((n) => `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${n.target.join(' ')} — ${n.failureSummary ?? ''}`),
    );
}

/** How far the page reaches past the window's right edge, in CSS px (0: no sideways scroll). */
const overflowX = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

/** The outermost elements that reach past the window's right edge: what to fix. */
const pastTheEdge = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && !e.parentElement.closest('.table-scroll, .report-preview'))
    .filter((e, _, all) => !all.includes(e.parentElement))
    .slice(0, 4)
    .map((e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '') + ' ' + Math.round(e.getBoundingClientRect().right) + 'px')`) as Promise<
    string[]
  >;

test('axe: no serious or critical WCAG 2.1 AA violation on any page, light and dark, at 1280 and 390 px; no sideways scroll at 390', async ({
  page,
  app,
}) => {
  test.setTimeout(300_000);
  await fillThePages(page, app.url);
  const failures: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const name of PAGES) {
        // A hash change keeps the picked runs (the compare store lives as long as the page).
        await page.evaluate(`window.location.hash = '#/${name}'`);
        await expect(page.getByTestId(`page-${name}`)).toBeVisible();
        if (name === 'compare') await expect(page.getByTestId('compare-view')).toBeVisible();
        if (name === 'report') await expect(page.getByTestId('report-preview')).toBeVisible();
        if (name === 'overview') await expect(page.getByRole('heading', { name: 'Disks' })).toBeVisible();
        const where = `${name} ${scheme} ${viewport.width}×${viewport.height}`;
        for (const line of await seriousViolations(page)) failures.push(`${where}: ${line}`);
        if (viewport.width <= 390) {
          const extra = await overflowX(page);
          if (extra > 0)
            failures.push(
              `${where}: the page is ${extra} px wider than the window (sideways scroll): ${(await pastTheEdge(page)).join(', ')}`,
            );
        }
      }
    }
  }
  expect(failures, failures.join('\n')).toEqual([]);
});

test('screenshots at 390 px and at 200 % zoom of Library, Compare and the report, light and dark; Compare in greyscale', async ({
  page,
  app,
  browser,
}) => {
  test.setTimeout(300_000);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // 200 % zoom of a 1280×800 window: 640×400 CSS px drawn at two device pixels each.
  const zoomed = await browser.newContext({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  try {
    const shots: Array<[string, Page]> = [
      ['390', page],
      ['zoom200', await zoomed.newPage()],
    ];
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [size, p] of shots) {
      await fillThePages(p, app.url);
      for (const scheme of ['light', 'dark'] as const) {
        await p.emulateMedia({ colorScheme: scheme });
        for (const name of ['library', 'compare', 'report'] as const) {
          await p.evaluate(`window.location.hash = '#/${name}'`);
          await expect(p.getByTestId(`page-${name}`)).toBeVisible();
          await p.mouse.move(0, 0);
          await p.screenshot({ path: join(SCREENSHOT_DIR, `a11y-${name}-${size}-${scheme}.png`), fullPage: size === '390' });
        }
      }
    }
    // Greyscale: the runs must stay told apart by their dashes and numbers, not only by hue.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(`window.location.hash = '#/compare'`);
    await expect(page.getByTestId('compare-view')).toBeVisible();
    await page.addStyleTag({ content: 'html { filter: grayscale(1); }' });
    const lines = page.locator('[data-testid^="series-"]').first();
    if ((await lines.count()) > 0) await lines.scrollIntoViewIfNeeded();
    await fullPageScreenshot(page, join(SCREENSHOT_DIR, 'a11y-compare-greyscale.png'));
  } finally {
    await zoomed.close();
  }
});

/** The text of what the element with this name attribute is described by (aria-describedby). */
const description = (page: Page, name: string) =>
  page.evaluate(`(document.querySelector('form [name="${name}"]').getAttribute('aria-describedby') ?? '').split(/\\s+/).filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '').join(' ')`) as Promise<string>;

test('New run: a field the form refuses is aria-invalid, described by the message and focused; mended, it is valid again', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/new`);
  const target = page.getByLabel('Target folder');
  await target.fill('relative/path');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('form-problem')).toContainText('absolute path');
  await expect(target).toHaveAttribute('aria-invalid', 'true');
  expect(await description(page, 'target')).toContain('The target must be an absolute path');
  await expect(target).toBeFocused();

  // A run setting out of range: that field, and only it, is the one marked.
  await target.fill(app.targetDir);
  const size = page.getByLabel('Test file size (MiB)');
  await size.fill('1');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  expect(await description(page, 'sizeBytes')).toMatch(/Test file size \(MiB\): a whole number of at least/);
  await expect(target).not.toHaveAttribute('aria-invalid', 'true');
  await expect(size).toBeFocused();

  // A target the backend refuses (it does not exist): the target is marked, described by the refusal.
  await size.fill('');
  await target.fill(`${app.targetDir}/missing`);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('error-note')).toBeVisible();
  await expect(target).toHaveAttribute('aria-invalid', 'true');
  expect(await description(page, 'target')).toContain('missing');
  await expect(size).not.toHaveAttribute('aria-invalid', 'true');
});

test('Compare: a run’s warnings open from its "⚠ 1 warning" by keyboard and are read as text, not kept in a title tooltip', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/compare`);
  for (const name of REFERENCES) await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) }).check();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  // No warning is kept only in a title (a mouse alone could read it).
  expect(await page.locator('.legend [title], .speedups [title*="warning" i], .warn-count[title]').count()).toBe(0);
  const legend = page.getByRole('list', { name: 'Compared runs' });
  const summary = legend.getByText(/^⚠ \d+ warnings?$/).first();
  await summary.focus();
  await page.keyboard.press('Enter');
  const opened = legend.locator('details[open] ul.warnings li').first();
  await expect(opened).toBeVisible();
  await expect(opened).toHaveText(/\w{4,}.*\(\S+\)$/);
});

test('no text only in a title tooltip on any page; Compare’s Auto scale rule and each speed-up’s percent and spread verdict read as text, by keyboard', async ({
  page,
  app,
}) => {
  await fillThePages(page, app.url);
  // Hash changes, not loads: Compare keeps its three runs, the Library its imported one.
  const titled: string[] = [];
  for (const route of ['overview', 'new', 'live', 'library', 'compare', 'working-set', 'fleet', 'report']) {
    await page.evaluate(`window.location.hash = '#/${route}'`);
    await expect(page.getByTestId(`page-${route}`)).toBeVisible();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    // HTML title attributes (SVG <title> elements are not matched by [title]).
    for (const t of (await page.evaluate(
      `[...document.querySelectorAll('main [title]')].map((e) => e.outerHTML.slice(0, 120))`,
    )) as string[])
      titled.push(`${route}: ${t}`);
  }
  expect(titled, titled.join('\n')).toEqual([]);

  // The Library's warning count is under its "Warnings" header; the sign is not read out.
  await page.evaluate(`window.location.hash = '#/library'`);
  await expect(page.getByTestId('library-row').locator('.warn-count')).toHaveText(/^⚠ \d+$/);
  await expect(page.getByTestId('library-row').locator('.warn-count [aria-hidden="true"]')).toHaveText('⚠');

  await page.evaluate(`window.location.hash = '#/compare'`);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  const autoDescription = (await page.evaluate(
    `(document.querySelector('input[name="scale"][value="auto"]').getAttribute('aria-describedby') ?? '').split(/\\s+/).filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '').join(' ')`,
  )) as string;
  expect(autoDescription).toMatch(/^Auto scale: a log axis where a chart's bars span ×\d+ or more/);
  await expect(page.getByTestId('scale-auto-hint')).toBeVisible();
  const delta = page.getByTestId('speedup-table').getByTestId('delta-details').first();
  await delta.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(delta).toHaveAttribute('open', '');
  await expect(delta.locator('p')).toBeVisible();
  await expect(delta.locator('p')).toHaveText(
    /^[+−-][\d.,]+ %; (the change \(×[\d.]+\) (exceeds|is within)|#\d+ (has no spread|is under-resolved))/,
  );
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await delta.scrollIntoViewIfNeeded();
    await page.getByTestId('speedup-table').screenshot({ path: join(SCREENSHOT_DIR, `a11y-speedup-delta-open-${width}.png`) });
  }
});
