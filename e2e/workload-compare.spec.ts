// Issue 11, App: a workload measured here through the API, beside the seed's Intel 525 runs
// (without and with the discard mount option) on Compare, as seconds per phase.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, SCREENSHOT_DIR, test } from './fixtures.ts';
import { watchRun } from './flows.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const CLI = join(ROOT, 'bin', 'diskdelta.js');
const WITHOUT = 'Intel 525, ext4 on LVM on LUKS: without discard (2013)';
const WITH = 'Intel 525, ext4 on LVM on LUKS: mounted with discard (2013)';

test('a measured big-file workload beside both Intel 525 reference runs: seconds per phase as labelled bars, lower is better', async ({
  page,
  app,
}) => {
  // The reference runs into the library the way a person adds them (`diskdelta import --reference`):
  // kept as reference data, so Compare offers each once, as a reference that is also in the library.
  const imported = execFileSync(NODE, [CLI, 'import', '--reference', '--db', app.dbPath], { encoding: 'utf8' });
  expect(imported).toContain(WITH);
  await page.goto(`${app.url}#/library`);
  await expect(page.getByTestId('library-table')).toContainText(WITHOUT);

  // New run: the workloads one by one, each saying what it costs; only the big file, kept small
  // (16 MiB, the least the form takes) so the run is real but brief: a warm-up and 3 timed passes.
  await page.goto(`${app.url}#/new`);
  await page.getByLabel('Target folder').fill(app.targetDir);
  await page.getByLabel('Preset').selectOption('workloads');
  const picks = page.getByTestId('workload-picks');
  await expect(picks).toContainText('~1.3 GB');
  await expect(picks).toContainText('up to 3 GB');
  await expect(picks).toContainText('needs root');
  await expect(picks).toContainText('only partly dropped');
  await expect(picks.getByRole('checkbox')).toHaveCount(5);
  // The preset's own pick to begin with: the 3.9.1-size tree, the big file, programs starting.
  await expect(picks.getByRole('checkbox', { checked: true })).toHaveCount(3);
  await picks.getByRole('checkbox', { name: /Source tree \(Linux 3\.9\.1 size\)/ }).uncheck();
  await picks.getByRole('checkbox', { name: /Programs starting/ }).uncheck();
  await expect(picks.getByRole('checkbox', { name: /Big file/ })).toBeChecked();
  await page.getByLabel('Test file size (MiB)').fill('16');
  await page.getByLabel('Runs').fill('3');
  await page.getByLabel('Label').fill('this disk, 16 MiB file');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'new-run-workloads.png') });
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('page-live')).toBeVisible();
  await watchRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('Finished');
  await expect(page.getByTestId('run-saved')).toBeVisible();
  expect(app.leftovers()).toEqual([]);

  // Compare: the measured run (baseline) and both Intel 525 runs in one view.
  await page.goto(`${app.url}#/compare`);
  await page.getByRole('checkbox', { name: /^this disk, 16 MiB file/ }).check();
  for (const name of [WITHOUT, WITH]) await page.getByTestId('pick-reference').and(page.getByRole('checkbox', { name })).check();
  await expect(page.getByTestId('pick-reference').and(page.getByRole('checkbox', { checked: true }))).toHaveCount(2);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  const chart = page.getByTestId('bars-workload');
  await expect(chart).toContainText('seconds per phase');
  await expect(chart).toContainText('lower is better');
  const bars = chart.locator('svg rect[data-testid="bar"]');
  // Big file delete: all three runs; big file write: the measured run only (the seed published no
  // write time); the 3.9.1 tree's write and delete: the two references (this run has no tree).
  await expect(bars).toHaveCount(8);
  const bar = (run: number, title: string) => chart.locator(`svg rect[data-testid="bar"][data-run="${run}"][data-title="${title}"]`);
  for (const run of [0, 1, 2]) await expect(bar(run, 'Big file (3 GB) · delete + sync')).toHaveCount(1);
  await expect(bar(1, 'Big file (3 GB) · delete + sync')).toHaveAttribute('data-value', '0.43');
  await expect(bar(2, 'Big file (3 GB) · delete + sync')).toHaveAttribute('data-value', '1.65');
  await expect(bar(0, 'Big file (3 GB) · write + sync')).toHaveCount(1);
  await expect(bar(2, 'Source tree (Linux 3.9.1 size) · delete + sync')).toHaveAttribute('data-value', '2.697');
  for (const b of await bars.all()) {
    expect(Number(await b.getAttribute('data-value'))).toBeGreaterThan(0);
    expect(Number(await b.getAttribute('height')), 'every bar has a visible height').toBeGreaterThan(0);
  }
  // Every bar says its value in seconds; the references' delete bars also their ratio to #1.
  const labels = chart.locator('[data-testid="bar-label"]');
  await expect(labels).toHaveCount(8);
  for (const l of await labels.all()) await expect(l).toContainText(/\d s/);
  await expect(chart.locator('[data-testid="bar-label"][data-run="2"]').filter({ hasText: '×' })).toHaveCount(1);
  // The range of the measured passes, under the chart.
  await expect(page.getByTestId('bases-workload')).toContainText(/median of 3 runs \([\d.]+ s–[\d.]+ s\), syncfs included/);
  await expect(page.getByTestId('speedup-table')).toContainText('delete');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await chart.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0); // no tooltip in the picture
    await chart.screenshot({ path: join(SCREENSHOT_DIR, `compare-workloads-${scheme}.png`) });
  }
});

test('your own tarball through New run: its path is asked for, tar extracts it for real, the run lands in the library with its seconds', async ({
  page,
  app,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-e2e-tarball-'));
  const tarball = join(dir, 'zod.tar.gz');
  execFileSync('tar', ['-czf', tarball, '-C', join(ROOT, 'node_modules'), 'zod']);
  try {
    await page.goto(`${app.url}#/new`);
    await page.getByLabel('Target folder').fill(app.targetDir);
    await page.getByLabel('Preset').selectOption('workloads');
    const picks = page.getByTestId('workload-picks');
    for (const name of [/Source tree \(Linux 3\.9\.1 size\)/, /Big file/, /Programs starting/])
      await picks.getByRole('checkbox', { name }).uncheck();
    await picks.getByRole('checkbox', { name: /Your tarball/ }).check();
    await page.getByLabel('Runs').fill('1');
    await page.getByLabel('Label').fill('zod tarball');
    // Without a path the form says what it needs.
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('alert')).toContainText('Tarball: the absolute path');
    await page.getByLabel('Tarball to extract').fill(tarball);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'new-run-tarball.png') });
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByTestId('page-live')).toBeVisible();
    await watchRun(page);
    await expect(page.getByTestId('run-status')).toHaveText('Finished');
    expect(app.leftovers()).toEqual([]);
    const listed = JSON.parse(
      execFileSync(NODE, [CLI, 'list', '--label', 'zod tarball', '--json', '--db', app.dbPath], { encoding: 'utf8' }),
    ) as Array<{
      id: number;
    }>;
    expect(listed).toHaveLength(1);
    const exported = execFileSync(NODE, [CLI, 'export', String(listed[0]!.id), '--db', app.dbPath], { encoding: 'utf8' });
    type Exported = {
      runs: Array<{ results: Array<{ test: string; figures?: Array<{ subject: string; value: number; basis: string }> }> }>;
    };
    const run = (JSON.parse(exported) as Exported).runs[0];
    const figures = run?.results.find((r) => r.test === 'tarball')?.figures ?? [];
    expect(figures.map((f) => f.subject)).toEqual(['write', 'delete']);
    for (const f of figures) {
      expect(f.value).toBeGreaterThan(0);
      expect(f.basis).toMatch(/zod\.tar\.gz extracted by tar: \d+ files/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
