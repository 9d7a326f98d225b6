// Chart text that can be read at any width: on Compare, no x-axis tick label of a series chart
// runs into another or past the chart's edge, at 1280 and at 390 px (an 18-size block sweep's
// "512 B 1 KiB 2 KiB …" ran into one string at 390); in the report, the SVG charts' text is
// at least 10 CSS px in a 390 px window and at 200 % zoom (it was sized by the drawing's width,
// ~5 px at 390). The runs are two real block-size sweeps measured by the CLI into the test's library.
// The Live run chart during a real run: its time axis labelled with round seconds that fit
// (recharts' own ticks said "19.957 s"), at 1280 and 390 px.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CLI, expect, NODE, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';
import { startRun } from './flows.ts';

const SIZES = ['512', '1k', '2k', '4k', '8k', '16k', '32k', '64k', '128k', '256k', '512k', '1m'];

/** A real sweep of 12 block sizes (sequential reads, Q4T1, 0.2 s each) on the test's folder, saved in its library. */
function measureSweep(app: { targetDir: string; dbPath: string }, label: string): void {
  const jobs = SIZES.flatMap((bs) => ['--job', `bs=${bs},qd=4,pattern=seq,rw=read`]);
  execFileSync(
    NODE,
    [
      CLI,
      'run',
      '--target',
      app.targetDir,
      ...jobs,
      '--size',
      '16MiB',
      '--duration',
      '0.2',
      '--warmup',
      '0',
      '--runs',
      '1',
      '--label',
      label,
    ],
    { env: { ...process.env, DISKDELTA_DB: app.dbPath }, stdio: 'ignore', timeout: 300_000 },
  );
}

interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The x-axis tick labels of a chart as drawn, and its drawing's box. */
async function xTicks(page: Page, testId: string): Promise<{ ticks: Box[]; svg: Box }> {
  // A string, not a function: e2e code is type-checked without the DOM's types.
  return page.evaluate(`(() => {
    const section = document.querySelector('[data-testid="${testId}"]');
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const ticks = [...section.querySelectorAll('[data-testid="x-tick"]')].map(box);
    return { ticks, svg: box(section.querySelector('svg')) };
  })()`) as Promise<{ ticks: Box[]; svg: Box }>;
}

/** What is wrong with a chart's x-axis labels: two that overlap, one past the drawing's edge. */
function tickProblems(where: string, { ticks, svg }: { ticks: Box[]; svg: Box }): string[] {
  const problems: string[] = [];
  const sorted = [...ticks].sort((a, b) => a.left - b.left);
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (b.left < a.right + 2) problems.push(`${where}: "${a.text}" and "${b.text}" overlap (${Math.round(a.right - b.left + 2)} px)`);
  }
  for (const t of ticks)
    if (t.left < svg.left - 0.5 || t.right > svg.right + 0.5) problems.push(`${where}: "${t.text}" is cut by the chart's edge`);
  return problems;
}

async function pickRuns(page: Page, url: string, labels: string[]) {
  await page.goto(`${url}#/compare`);
  for (const label of labels)
    await page
      .getByTestId('pick-run')
      .and(page.getByRole('checkbox', { name: label }))
      .check();
  await expect(page.getByTestId('compare-view')).toBeVisible();
}

test('series charts: no x tick label overlaps another or the edge at 1280 and 390 px; the report’s chart text ≥ 10 CSS px at 390 and 200 %', async ({
  page,
  app,
  browser,
}) => {
  test.setTimeout(300_000);
  measureSweep(app, 'sweep one');
  measureSweep(app, 'sweep two');
  const problems: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await pickRuns(page, app.url, ['sweep one', 'sweep two']);
    const sweep = page.getByTestId('series-block-size-sweep');
    await sweep.scrollIntoViewIfNeeded();
    await expect(sweep.locator('[data-testid="x-tick"]').first()).toBeVisible();
    const drawn = await xTicks(page, 'series-block-size-sweep');
    // The axis still says where it starts and ends, and labels more than the two ends where there is room.
    expect(drawn.ticks[0]?.text).toBe('512 B');
    expect(drawn.ticks.at(-1)?.text).toBe('1 MiB');
    expect(drawn.ticks.length).toBeGreaterThanOrEqual(width > 800 ? SIZES.length : 4);
    problems.push(...tickProblems(`block-size sweep at ${width} px`, drawn));
    const overTime = page.getByTestId('series-time-series');
    await overTime.scrollIntoViewIfNeeded();
    await expect(overTime.locator('svg')).toBeVisible();
    problems.push(...tickProblems(`throughput over time at ${width} px`, await xTicks(page, 'series-time-series')));
    // A reload forgets the picked runs: the next width starts from an empty Compare.
    await page.reload();
  }
  expect(problems, problems.join('\n')).toEqual([]);

  // The report: each SVG text's size in CSS px is its font size times the drawing's scale.
  const smallest = (p: Page) =>
    p.evaluate(`Math.min(
      ...[...document.querySelectorAll('[data-testid="report-preview"] svg')].flatMap((svg) => {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * scale);
      }),
    )`) as Promise<number>;
  const zoomed = await browser.newContext({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  try {
    const sizes: Record<string, number> = {};
    for (const [name, p, width] of [
      ['390 px', page, 390],
      ['200 % zoom', await zoomed.newPage(), 640],
    ] as const) {
      await p.setViewportSize({ width, height: 844 });
      await pickRuns(p, app.url, ['sweep one', 'sweep two']);
      await p.evaluate(`window.location.hash = '#/report'`);
      await expect(p.getByTestId('report-chart').first()).toBeVisible();
      sizes[name] = await smallest(p);
    }
    for (const [name, size] of Object.entries(sizes)) expect(size, `the smallest report chart text at ${name}`).toBeGreaterThanOrEqual(10);
  } finally {
    await zoomed.close();
  }
});

/** Labels that are not "N unit" on one round step (1, 2 or 5 × 10^n), such as recharts' "0.85 s … 3.374 s" or "650 MB/s". */
function roundProblems(where: string, ticks: Box[], unit: string): string[] {
  const values = ticks.map((t) => new RegExp(`^(\\d[\\d,]*(?:\\.\\d+)?) ${unit.replace('/', '\\/')}$`).exec(t.text)?.[1]);
  const odd = ticks.filter((_, i) => values[i] === undefined).map((t) => `"${t.text}"`);
  if (odd.length > 0) return [`${where}: ${odd.join(', ')} not a number of ${unit}`];
  const numbers = values.map((v) => Number(v!.replace(/,/g, '')));
  const steps = [-1, 0, 1, 2, 3, 4].flatMap((p) => [1, 2, 5].map((m) => m * 10 ** p));
  // At most ten steps across the axis: "0 2 4 6.1 s" is on a 0.1 s step, but its end is not round.
  const span = Math.max(...numbers) - Math.min(...numbers);
  const onStep = (step: number) => step >= span / 10 && numbers.every((v) => Math.abs(v / step - Math.round(v / step)) < 1e-6);
  return steps.some(onStep) ? [] : [`${where}: ${ticks.map((t) => `"${t.text}"`).join(' ')} are not on one round step`];
}

/** The value axis's tick labels as drawn. */
async function yTicks(page: Page, testId: string): Promise<Box[]> {
  return page.evaluate(`[...document.querySelectorAll('[data-testid="${testId}"] [data-testid="y-tick"]')].map((e) => {
    const r = e.getBoundingClientRect();
    return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  })`) as Promise<Box[]>;
}

/** The seconds the Live chart's lines have reached, from its accessible name ("… MB/s at 4.2 s"). */
async function liveSeconds(page: Page): Promise<number> {
  const name = (await page.getByTestId('live-chart').locator('> [role=img]').getAttribute('aria-label')) ?? '';
  return Math.max(0, ...[...name.matchAll(/at ([\d.]+) s/g)].map((m) => Number(m[1])));
}

test('Live run chart: round tick labels (time, and a linear value axis), the time labels neither overlapping nor past the edge at 1280 and 390 px, during a real run', async ({
  page,
  app,
}) => {
  test.setTimeout(180_000);
  // quick × 10 s a test: the first test alone outlasts both widths' looks.
  await startRun(page, (p, route) => p.goto(`${app.url}#/${route}`).then(() => undefined), app.targetDir, 'live ticks', {
    duration: '10',
  });
  const problems: string[] = [];
  for (const [width, seconds] of [
    [1280, 3],
    [390, 6],
  ] as const) {
    await page.setViewportSize({ width, height: 844 });
    await expect.poll(() => liveSeconds(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(seconds);
    await expect(page.getByTestId('run-status')).toHaveText('Running');
    const drawn = await xTicks(page, 'live-chart');
    expect(drawn.ticks.length, `tick labels at ${width} px`).toBeGreaterThanOrEqual(3);
    expect(drawn.ticks[0]?.text).toBe('0 s');
    problems.push(...tickProblems(`live chart at ${width} px`, drawn), ...roundProblems(`live chart at ${width} px`, drawn.ticks, 's'));
    // One test so far: its values axis is linear, and round too.
    await expect(page.getByTestId('live-chart')).toHaveAttribute('data-scale', 'linear');
    problems.push(...roundProblems(`live chart's values at ${width} px`, await yTicks(page, 'live-chart'), 'MB/s'));
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // The pointer off the chart: where Start was clicked, a line's hover title would cover the lines.
  await page.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await fullPageScreenshot(page, join(SCREENSHOT_DIR, `live-run-ticks-390-${scheme}.png`));
  }
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('Cancelled', { timeout: 60_000 });
  expect(problems, problems.join('\n')).toEqual([]);
});
