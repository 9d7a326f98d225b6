// What a new user saw at a phone's width and on a desktop (issue #43): every page of the app
// (Overview and its cipher ceilings, New run, Live run, Library, Compare and its encryption and
// speed-up tables, an assessment, Working set, Fleet, Report) filled with data, at 390 and 1280
// px, light and dark. Fails on a page wider than a 390 px
// window (sideways scroll), on table cells whose text runs into the next cell's ("175,958
// IOPS115,533 IOPS"), and on a word or a figure broken over lines inside a table cell
// ("aes-xts-plain64", "542 MB"). The fleets are two real fio --client files and one SYNTHETIC file
// (scripts/fleet-client-fio.ts) of ten tests a host at six-digit IOPS, as an NVMe drive or a RAM
// disk measures: its figures are there to be laid out, nothing here judges them. The Fleet page printed by Chromium (page.pdf(), what the
// browser's Print makes) holds every host row, not only those that were in view.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { PAGES as ROUTES } from '../renderer/src/view/route.ts';
import { fleetClientFio } from '../scripts/fleet-client-fio.ts';
import { CLI, expect, fullPageScreenshot, NODE, plantAgedFiles, SCREENSHOT_DIR, test } from './fixtures.ts';
import { startRun } from './flows.ts';
import { WHOLE } from '../electron/shared/model/whole-tokens.ts';

const FIXTURES = join(import.meta.dirname, '..', 'electron', 'node', 'formats', 'fixtures');
const FLEET_FILES = ['fio-3.33-client-5-throttled-hosts.json', 'fio-3.33-client-2-hosts.json'].map((f) => join(FIXTURES, f));
const FAST_HOSTS = 12;
const FLEET_ROWS = 7 + FAST_HOSTS;
const FLEET_HOSTS = ['198.18.245.2:8765', '198.18.245.6:8765', '198.18.245.10:8765', '198.18.245.14:8765', '198.18.245.18:8765'];

// The probes run in the page: written as JavaScript text (this folder's TypeScript has no DOM
// types), as the other specs' page.evaluate calls are.

/** How far the page reaches past the window's right edge, in CSS px (0: no sideways scroll), and the outermost elements past it. */
const pastTheEdge = (page: Page) =>
  page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const past = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width + 0.5);
    const outermost = past.filter((e) => !past.includes(e.parentElement) && !e.parentElement.closest('.table-scroll'));
    return {
      extra: document.documentElement.scrollWidth - width,
      where: outermost.slice(0, 4).map((e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '')),
    };
  })()`) as Promise<{ extra: number; where: string[] }>;

/**
 * Table cells whose text boxes touch or overlap the next cell's on the same line (less than a
 * 4 px gap), and table words or figures broken over lines. Measured on the text itself (a Range
 * over each cell's contents), not on the cells' boxes: a cell's text can spill past its box.
 */
const tableTextProblems = (page: Page, within = 'main') =>
  page.evaluate(`(() => {
    const MIN_GAP = 4;
    const problems = [];
    // Text on the screen: not a closed <details>' content (it still answers getClientRects), not
    // a label for screen readers only (.sr-only, clipped to a pixel: its text's boxes are not).
    const shown = (node) => !node.parentElement.closest('details:not([open]) > :not(summary), .sr-only');
    const textBox = (cell) => {
      const rects = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!shown(node)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        rects.push(...[...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0));
      }
      if (rects.length === 0) return null;
      return {
        left: Math.min(...rects.map((r) => r.left)),
        right: Math.max(...rects.map((r) => r.right)),
        top: Math.min(...rects.map((r) => r.top)),
        bottom: Math.max(...rects.map((r) => r.bottom)),
      };
    };
    // A closed <details>' content still answers getClientRects: it is not on the screen.
    const visible = (e) =>
      e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden' && !e.closest('details:not([open]) > :not(summary)');
    for (const row of document.querySelectorAll('${within} tr')) {
      if (!visible(row)) continue;
      const boxes = [...row.children]
        .filter(visible)
        .map((cell) => ({ cell, box: textBox(cell) }))
        .filter((c) => c.box !== null)
        .sort((a, b) => a.box.left - b.box.left);
      for (let i = 1; i < boxes.length; i++) {
        const [a, b] = [boxes[i - 1], boxes[i]];
        const sameLine = a.box.top < b.box.bottom && b.box.top < a.box.bottom;
        if (sameLine && b.box.left - a.box.right < MIN_GAP)
          problems.push('cells touch (' + (b.box.left - a.box.right).toFixed(1) + ' px apart): "' + a.cell.textContent + '" | "' + b.cell.textContent + '"');
      }
      // A token with no space in it (a cipher's name, a path) or a figure with its unit ("542 MB",
      // "12,345 IOPS") drawn on two lines, where it would fit on one: within the box the table
      // scrolls in, or the page's main column (a path longer than that may break).
      for (const cell of row.children) {
        if (!visible(cell)) continue;
        const room = (cell.closest('.table-scroll') ?? document.querySelector('main')).clientWidth - 24;
        // The cell's text as one string over its text nodes: React writes {bits} bit as two
        // nodes ("256", " bit"), and a figure so split was never matched whole.
        // A closed <details>' content (a warning's text under its summary) is not on the screen
        // and is left out; a <br> ends a word as a space does.
        const nodes = [];
        const afterBr = new Set();
        let br = false;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.nodeType === Node.ELEMENT_NODE) br ||= node.tagName === 'BR';
          else if (shown(node)) {
            if (br) afterBr.add(node);
            br = false;
            nodes.push(node);
          }
        }
        // A box of its own (a line under the cell's first, a <code> that is inline-block) starts a
        // new word: "tables" and the "not yet seen" below it are not one token.
        const boxOf = (node) => {
          let e = node.parentElement;
          while (e !== cell && ['inline', 'contents'].includes(getComputedStyle(e).display)) e = e.parentElement;
          return e;
        };
        const starts = [];
        let text = '';
        let box = null;
        for (const node of nodes) {
          if (box !== null && (boxOf(node) !== box || afterBr.has(node))) text += '\\n';
          box = boxOf(node);
          starts.push(text.length);
          text += node.textContent ?? '';
        }
        const at = (offset) => {
          let i = nodes.length - 1;
          while (i > 0 && starts[i] > offset) i--;
          return [nodes[i], Math.min(offset - starts[i], (nodes[i].textContent ?? '').length)];
        };
        {
          // A whole token (whole-tokens.ts's, the one the cells are cut by), else any word.
          for (const m of text.matchAll(new RegExp(${JSON.stringify(`(?:${WHOLE.source})|[^\\s]+`)}, 'gu'))) {
            const range = document.createRange();
            range.setStart(...at(m.index));
            range.setEnd(...at(m.index + m[0].length));
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            // Lines, not tops: a token over two fonts (a <code> and its comma) sits a pixel apart on one line.
            const half = Math.min(...rects.map((r) => r.height)) / 2;
            const tops = new Set(rects.map((r) => Math.round(r.top / half)));
            const width = rects.reduce((sum, r) => sum + r.width, 0);
            // A path may break after a slash, and only there: each line of it after the first starts
            // right after a "/" ("/tmp/…/home/" over "Projects").
            const lineStarts = () => {
              const starts = [];
              let last = null;
              for (let i = 0; i < m[0].length; i++) {
                const char = document.createRange();
                char.setStart(...at(m.index + i));
                char.setEnd(...at(m.index + i + 1));
                const box = [...char.getClientRects()].find((r) => r.width > 0);
                if (!box) continue;
                const line = Math.round(box.top / half);
                if (last !== null && line !== last) starts.push(i);
                last = line;
              }
              return starts;
            };
            if (tops.size > 1 && m[0].includes('/') && lineStarts().every((i) => m[0][i - 1] === '/')) continue;
            if (tops.size > 1 && width <= room) problems.push('"' + m[0] + '" broken over ' + tops.size + ' lines in "' + cell.textContent + '"');
          }
        }
      }
    }
    return problems;
  })()`) as Promise<string[]>;

const QUICK_RUN = 'quick run on the test folder, 390 px wide';
const REFERENCES = ['Laptop hard disk', 'Intel 320 SSD, ThinkPad', 'Intel 320 SSD + dm-crypt'];

/** The CLI on the test's own library, as a person adds to it before opening the app. */
const cli = (dbPath: string, ...args: string[]) =>
  execFileSync(NODE, [CLI, ...args, '--db', dbPath], { encoding: 'utf8', timeout: 120_000 });

/**
 * Every page with data on it: the published references (`diskdelta import --reference`), two
 * working-set scans, an assessment over the references and a scan, a measured run (New run's
 * form, then Live run), the cipher ceilings measured, the fleets imported, three runs picked on
 * Compare (its speed-up and encryption tables) and so the Report.
 */
async function fillThePages(page: Page, app: { url: string; dbPath: string; targetDir: string }, home: string, fastFleet: string) {
  cli(app.dbPath, 'import', '--reference');
  const scan = (JSON.parse(cli(app.dbPath, 'working-set', home, '--json')) as { id: number }[])[0]!.id;
  cli(app.dbPath, 'working-set', join(home, 'Projects'), '--json');
  const started = cli(app.dbPath, 'assess', 'start', '2011 laptop: HDD → SSD', '--before', '1', '--after', '2', '--encrypted', '3');
  const assessment = /\d+/.exec(started)![0];
  cli(app.dbPath, 'assess', 'set', assessment, '--discard', '4,5', '--working-set', String(scan));
  // A run measured here: Live run shows it, Library and Compare list it beside the references.
  await startRun(
    page,
    async (p, route) => {
      await p.goto(`${app.url}#/${route}`);
    },
    app.targetDir,
    QUICK_RUN,
  );
  await expect(page.getByTestId('run-saved')).toBeVisible({ timeout: 90_000 });
  // Overview: the cipher ceilings measured (the table that broke "aes-xts-plain64").
  await page.goto(`${app.url}#/`);
  const ciphers = page.getByTestId('cipher-ceilings');
  await ciphers.getByRole('button', { name: 'Measure cipher ceilings' }).click();
  await expect(ciphers.getByTestId('cipher-table')).toBeVisible({ timeout: 60_000 });
  // Fleet: the fleet lab's five hosts, two loopback servers and twelve fast hosts of ten tests each.
  await page.goto(`${app.url}#/fleet`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import fio --client JSON…' }).click();
  await (await chooser).setFiles([...FLEET_FILES, fastFleet]);
  await expect(page.getByTestId('fleet-hosts').locator('tbody tr')).toHaveCount(FLEET_ROWS);
  // Compare: the hard disk, the SSD and the SSD under dm-crypt (speed-ups, the encryption table).
  await page.goto(`${app.url}#/compare`);
  for (const name of REFERENCES)
    await page
      .getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) })
      .first()
      .check();
  await expect(page.getByTestId('speedup-table')).toBeVisible();
  await expect(page.getByTestId('enc-table')).toBeVisible({ timeout: 60_000 });
  return assessment;
}

/** Each page of the app and what shows it has its data; Compare (encryption) and Cipher ceilings are sections of Compare and Overview. */
const pages = (assessment: string) =>
  [
    { name: 'overview', hash: '#/', ready: (page: Page) => expect(page.getByTestId('cipher-table')).toBeVisible() },
    { name: 'new-run', hash: '#/new', ready: (page: Page) => expect(page.getByLabel('Target folder')).toBeVisible() },
    { name: 'live-run', hash: '#/live', ready: (page: Page) => expect(page.getByTestId('current-figures')).toBeVisible() },
    {
      name: 'library',
      hash: '#/library',
      ready: (page: Page) => expect(page.getByTestId('library-row').filter({ hasText: QUICK_RUN })).toBeVisible(),
    },
    {
      name: 'compare',
      hash: '#/compare',
      ready: async (page: Page) => {
        await expect(page.getByTestId('speedup-table')).toBeVisible();
        await expect(page.getByTestId('enc-table')).toBeVisible();
      },
    },
    {
      name: 'assessment',
      hash: `#/overview/assess/${assessment}`,
      ready: (page: Page) => expect(page.getByTestId('assessment-label')).toBeVisible(),
    },
    { name: 'working-set', hash: '#/working-set', ready: (page: Page) => expect(page.getByTestId('working-set-history')).toBeVisible() },
    {
      name: 'fleet',
      hash: '#/fleet',
      ready: (page: Page) => expect(page.getByTestId('fleet-hosts').locator('tbody tr')).toHaveCount(FLEET_ROWS),
    },
    { name: 'report', hash: '#/report', ready: (page: Page) => expect(page.getByTestId('report-preview')).toBeVisible() },
  ] as const;

test('every page at 390 and 1280 px, light and dark: no sideways scroll at 390, no table text touching or broken', async ({
  page,
  app,
}) => {
  test.setTimeout(480_000);
  const home = join(app.targetDir, '..', 'home');
  plantAgedFiles(home, [
    ['Projects/today.bin', 4_096_000, 0.2],
    ['Music/album.bin', 8_192_000, 20.5],
    ['Archive/old.bin', 12_288_000, 730.5],
  ]);
  const fastFleet = join(app.targetDir, '..', 'fast-fleet.json');
  writeFileSync(fastFleet, fleetClientFio(FAST_HOSTS, 180_000));
  const assessment = await fillThePages(page, app, home, fastFleet);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const failures: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const { name, hash, ready } of pages(assessment)) {
        await page.evaluate(`window.location.hash = '${hash}'`);
        await ready(page);
        const where = `${name} ${width} ${scheme}`;
        // No table's box needs to scroll sideways: at 1280 px (Fleet's hosts: four figure columns
        // of six-digit IOPS, the verdict in view), and at 390 px, where a wide table is a block a
        // row and a narrow one fits.
        {
          const scrolling = (await page.evaluate(`[...document.querySelectorAll('main .table-scroll')]
            .filter((box) => box.getClientRects().length > 0 && !box.closest('details:not([open])') && box.scrollWidth > box.clientWidth + 1)
            .map((box) => box.getAttribute('aria-label') + ': ' + (box.scrollWidth - box.clientWidth) + ' px')`)) as string[];
          for (const box of scrolling) failures.push(`${where}: a table scrolls sideways (${box})`);
        }
        if (width === 390) {
          const { extra, where: past } = await pastTheEdge(page);
          if (extra > 0) failures.push(`${where}: the page is ${extra} px wider than the window (${past.join(', ')})`);
        }
        // Rows out of view are painted (and so measured) only once scrolled near: paint them all.
        const paintAll = await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
        for (const line of await tableTextProblems(page)) failures.push(`${where}: ${line}`);
        await paintAll.evaluate((style) => style.parentNode?.removeChild(style));
        await fullPageScreenshot(page, join(SCREENSHOT_DIR, `page-fit-${name}-${width}-${scheme}.png`));
      }
    }
  }
  expect([...new Set(failures)], [...new Set(failures)].join('\n')).toEqual([]);
});

test('Fleet printed by the browser: every host row is in the PDF, not only those that were in view', async ({ page, app }) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto(`${app.url}#/fleet`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import fio --client JSON…' }).click();
  await (await chooser).setFiles(FLEET_FILES.slice(0, 1));
  await expect(page.getByTestId('fleet-hosts').locator('tbody tr')).toHaveCount(5);
  // page.pdf() is Chromium's own print of the page, as its Print dialog makes it.
  const pdf = join(app.targetDir, '..', 'fleet-page.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const old of readdirSync(SCREENSHOT_DIR).filter((f) => f.startsWith('page-fit-fleet-print'))) rmSync(join(SCREENSHOT_DIR, old));
  execFileSync('pdftoppm', ['-png', '-r', '50', pdf, join(SCREENSHOT_DIR, 'page-fit-fleet-print')]);
  expect(text.trimStart(), 'the printed page starts with its title').toMatch(/^Fleet\b/);
  const missing = FLEET_HOSTS.filter((host) => !text.includes(host));
  expect(missing, `hosts missing from the printed page:\n${text}`).toEqual([]);
  // Each row whole, its verdict too (the last column, the first to fall off a page too narrow).
  const flat = text.replace(/\s+/g, ' ');
  expect(flat.match(/on an SSD already: no upgrade needed for speed/g), flat).toHaveLength(4);
  expect(flat).toContain("on a hard disk: an SSD like the fleet's would give ×4.9 sequential and ×5.4 random reads");
});

test("every page printed by the browser's own Print keeps its title; the Report route prints the report alone", async ({ page, app }) => {
  await page.goto(`${app.url}#/`);
  await page.emulateMedia({ media: 'print' });
  const untitled: string[] = [];
  for (const { id, title } of ROUTES) {
    await page.evaluate(`window.location.hash = '#/${id}'`);
    const heading = page.locator('main h1').first();
    await expect(heading).toHaveText(title);
    if (id === 'report') {
      // The report's own first page is its title: the app's header (and its Back link) would print above it.
      await expect(page.locator('main .page-header')).toBeHidden();
      continue;
    }
    if (!(await heading.isVisible())) untitled.push(`${title} (#/${id})`);
    // The header's buttons are for the screen: paper cannot press them.
    const actions = page.locator('main .page-header .actions');
    if ((await actions.count()) > 0) await expect(actions).toBeHidden();
  }
  expect(untitled, 'pages printed without their title').toEqual([]);
});

test('Compare at 390 px: every chart\'s "Figures as a table", opened, fits the window and no text in it touches or breaks', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${app.url}#/compare`);
  for (const name of ['Laptop hard disk', 'Intel 320 SSD, ThinkPad', 'Intel 320 SSD + dm-crypt'])
    await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) }).check();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  const figures = page.locator('details.chart-figures');
  expect(await figures.count()).toBeGreaterThan(0);
  for (const details of await figures.all()) await details.evaluate((d) => d.setAttribute('open', ''));
  const failures: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const scrolling = (await page.evaluate(`[...document.querySelectorAll('details.chart-figures .table-scroll')]
      .filter((box) => box.scrollWidth > box.clientWidth + 1)
      .map((box) => box.closest('section').getAttribute('data-chart-id') + ': ' + (box.scrollWidth - box.clientWidth) + ' px')`)) as string[];
    for (const box of scrolling) failures.push(`${scheme}: a chart's figures scroll sideways (${box})`);
    const { extra, where } = await pastTheEdge(page);
    if (extra > 0) failures.push(`${scheme}: the page is ${extra} px wider than the window (${where.join(', ')})`);
    for (const line of await tableTextProblems(page, 'details.chart-figures')) failures.push(`${scheme}: ${line}`);
    await fullPageScreenshot(page, join(SCREENSHOT_DIR, `page-fit-compare-figures-390-${scheme}.png`));
  }
  expect([...new Set(failures)], [...new Set(failures)].join('\n')).toEqual([]);
});
