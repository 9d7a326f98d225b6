// Reports end to end: browser mode's Save PDF and Save HTML buttons download real files (the
// PDF read back with pdftotext), the report route shows every section and chart, and the
// self-contained HTML shows every chart with the network off.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';
import { loadReferenceRuns } from '../electron/node/formats/reference.ts';
import { renderReport } from '../electron/shared/report/print.ts';
import { barsOf } from '../electron/shared/charts/chart-model.ts';
import { buildReport } from '../electron/shared/report/report-model.ts';
import { renderReportHtml } from '../electron/shared/report/report-html.ts';

const SEED = [
  'Laptop hard disk, ThinkPad X201i (2011)',
  'Intel 320 SSD, ThinkPad X201i (2011)',
  'Intel 320 SSD + dm-crypt (LUKS, AES-256), ThinkPad X201i (2011)',
];

test('browser mode: Save PDF on Compare downloads a PDF with the runs’ labels; the report route shows it all and saves HTML', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/compare`);
  for (const label of SEED)
    await page
      .getByTestId('pick-reference')
      .and(page.getByRole('checkbox', { name: label }))
      .check();
  await expect(page.getByTestId('compare-view')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save PDF' }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^diskdelta-report-.*\.pdf$/);
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-report-'));
  try {
    const pdfPath = join(dir, 'report.pdf');
    await pdf.saveAs(pdfPath);
    expect(readFileSync(pdfPath).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const label of SEED) expect(text).toContain(label);
    for (const figure of ['×3.29', '×1.73', '×69.5']) expect(text).toContain(figure);

    // One drawing: Compare's seeks chart (151 beside 10,524 a second, ×69.5) and the PDF's are
    // the same bars on the same log axis. Compare in both themes; the PDF's chart page as a
    // picture (pdftoppm), the report being a light page.
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const iops = page.locator('[data-chart-id="iops"]');
    await expect(iops).toHaveAttribute('data-scale', 'log');
    await expect(iops.locator('svg rect[data-testid="bar"]')).toHaveCount(await iops.locator('svg rect[data-value]').count());
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await iops.scrollIntoViewIfNeeded();
      await page.mouse.move(0, 0);
      await iops.screenshot({ path: join(SCREENSHOT_DIR, `compare-iops-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' }))![1]);
    const chartPage = Array.from({ length: pages }, (_, i) => i + 1).find((n) =>
      execFileSync('pdftotext', ['-f', String(n), '-l', String(n), pdfPath, '-'], { encoding: 'utf8' }).includes('Random I/O and seeks'),
    );
    expect(chartPage, 'the PDF page with the IOPS chart').toBeDefined();
    expect(text).toContain('log scale: values span ×70');
    execFileSync('pdftoppm', [
      '-f',
      String(chartPage),
      '-l',
      String(chartPage),
      '-png',
      '-r',
      '110',
      '-singlefile',
      pdfPath,
      join(SCREENSHOT_DIR, 'report-pdf-charts'),
    ]);

    // The report view: the same sections and charts, in the app, with the paper choice.
    await page.getByRole('link', { name: 'Open the report view' }).click();
    await expect(page.getByTestId('page-report')).toBeVisible();
    const preview = page.getByTestId('report-preview');
    for (const id of ['summary', 'runs', 'charts', 'figures', 'warnings', 'method'])
      await expect(preview.getByTestId(`report-${id}`)).toBeVisible();
    await expect(preview.getByTestId('report-chart')).toHaveCount(2);
    await expect(preview.getByTestId('summary-upgrade')).toContainText('×69.5');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'report-route.png') });

    await page.getByLabel('Paper').selectOption('letter');
    const htmlDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save HTML' }).click();
    const htmlPath = join(dir, 'report.html');
    await (await htmlDownload).saveAs(htmlPath);
    const html = readFileSync(htmlPath, 'utf8');
    expect(html).toContain('size: letter portrait');
    for (const label of SEED) expect(html).toContain(label.replace(/&/g, '&amp;'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the self-contained HTML report shows every chart with the network disabled', async ({ browser }) => {
  const runs = (await loadReferenceRuns()).slice(0, 3);
  const expected = buildReport(runs, { generatedAt: new Date() });
  const report = await renderReport(runs, { format: 'html', paper: 'a4', unit: 'MB' }, { html: renderReportHtml, printer: null });
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-html-'));
  const file = join(dir, report.fileName);
  writeFileSync(file, report.bytes);
  const context = await browser.newContext({ offline: true });
  try {
    const page = await context.newPage();
    // Anything the page asks for beyond its own file is recorded and refused.
    const requested: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requested.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    const charts = page.getByTestId('report-chart');
    await expect(charts).toHaveCount(expected.charts.length);
    for (const chart of await charts.all()) {
      await chart.scrollIntoViewIfNeeded();
      await expect(chart.locator('svg')).toBeVisible();
      const box = await chart.locator('svg').boundingBox();
      expect(box && box.width > 100 && box.height > 20).toBe(true);
    }
    // Every figure a run has is a bar with a width; the seeks bar of the HDD is short but there.
    const bars = page.locator('rect[data-testid="bar"][data-value]');
    const values = expected.charts.flatMap((c) => barsOf(c).filter((b) => b.value !== null));
    await expect(bars).toHaveCount(values.length);
    for (const bar of await bars.all()) expect(Number(await bar.getAttribute('width'))).toBeGreaterThan(0);
    await expect(page.getByTestId('report-summary')).toContainText('×3.29');
    expect(requested).toEqual([]);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await fullPageScreenshot(page, join(SCREENSHOT_DIR, 'report-html-offline.png'));
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
