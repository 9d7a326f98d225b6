// The Candidates page as a user meets it (#42): a library holding the disk in use today (on SATA
// 2) and its workloads, and a friend's drive imported; a spec sheet typed in with a figure left
// out and one contradicting another is refused naming each field (the CLI's words), then fixed;
// a second candidate picked from the library; the two side by side with today's disk, the bus
// cap said, the workloads with their ranges, the lab's accuracy line. Screenshots light and dark
// at 1280 and 390 px wide.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { openLibrary } from '../electron/node/store/library.ts';
import { currentDiskRun, workloadRun } from '../electron/shared/analysis/forecast-fixtures.ts';
import { EXAMPLE_CANDIDATE } from '../electron/shared/model/candidate.ts';
import { expect, fullPageScreenshot, SCREENSHOT_DIR, test } from './fixtures.ts';

test('two candidates side by side: a bad spec sheet refused naming its fields, then a spec sheet and a run', async ({ page, app }) => {
  const library = openLibrary({ dbPath: app.dbPath });
  library.saveRun(currentDiskRun());
  library.saveRun(workloadRun());
  const friend = library.saveRun({
    ...currentDiskRun({ label: "a friend's Crucial MX500", source: 'imported', sourceFormat: 'kdiskmark' }),
    results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 5 })),
  });
  library.close();

  await page.goto(`${app.url}#/candidates`);
  await expect(page.getByRole('heading', { name: 'Candidates', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Fill in the example' }).click();
  await page.getByLabel('Name').fill('Crucial BX500 1 TB');
  await page.getByLabel('Sequential write (MB/s)').fill('');
  await page.getByLabel('Fast (SLC) cache (GB)').fill('4000');
  await page.getByRole('button', { name: 'Add this drive' }).click();
  const refused = page.getByTestId('spec-refused');
  await expect(refused).toContainText('sequentialMBps.write: missing');
  await expect(page.getByLabel('Sequential write (MB/s)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('candidate-list')).toHaveCount(0);
  // Fixed the missing one: the contradiction (a cache larger than the drive) is said next, naming its field.
  await page.getByLabel('Sequential write (MB/s)').fill('530');
  await page.getByRole('button', { name: 'Add this drive' }).click();
  await expect(refused).toContainText('fastCache.sizeGB: is larger than the drive (4000 GB cache on 1000 GB)');
  await expect(page.getByLabel('Fast (SLC) cache (GB)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Fast (SLC) cache (GB)').fill('12');
  await page.getByRole('button', { name: 'Add this drive' }).click();
  await expect(refused).toHaveCount(0);

  await page.getByLabel('Disk run').selectOption(String(friend));
  await page.getByRole('button', { name: 'Add this run' }).click();
  await expect(page.getByTestId('candidate-list').getByRole('listitem')).toHaveCount(2);

  const side = page.getByTestId('candidates-side-by-side');
  await expect(side.locator('thead th')).toHaveText([
    'figure',
    'today (measured)',
    '1. Crucial BX500 1 TB',
    // A run is named by its device's model; where it came from is said below the table.
    "2. a friend's Crucial MX500",
  ]);
  await expect(side.getByRole('row', { name: /^sequential read/ })).toContainText('279');
  await expect(side.getByRole('row', { name: /^sequential read/ })).toContainText('drive 560 · bus limit');
  await expect(side).toContainText('the bus (SATA 3.0 Gb/s, 300 MB/s) is the limit: sequential read 560 → 279 MB/s');
  await expect(side.getByRole('row', { name: /^bigfile write/ })).toContainText(/s ×[\d.]+/);
  await expect(side).toContainText(`run ${friend} "a friend's Crucial MX500"`);
  await expect(side.getByTestId('forecast-accuracy')).toContainText('estimated, not measured; model accuracy, measured in the lab');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    // Nothing scrolls sideways but the table, inside its own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await fullPageScreenshot(page, join(SCREENSHOT_DIR, `candidates-${width}-${scheme}.png`));
    }
  }
});

test('an assessment keeps its candidates and, once the new disk is measured, sets each forecast beside the measurement', async ({
  page,
  app,
}) => {
  const library = openLibrary({ dbPath: app.dbPath });
  const before = library.saveRun(currentDiskRun());
  library.saveRun(workloadRun());
  const friend = library.saveRun({
    ...currentDiskRun({ label: "a friend's Crucial MX500", source: 'imported', sourceFormat: 'kdiskmark' }),
    results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 5 })),
  });
  // The new disk (SYNTHETIC): another drive in the same slot, its rates and its tree timed on it (the big file not).
  const newDisk = {
    ...currentDiskRun().target,
    path: '/mnt/new',
    device: {
      ...currentDiskRun().target.device!,
      name: 'sdb',
      model: 'New SSD',
      serial: 'NEW1',
      rotational: false,
      class: 'SATA SSD' as const,
    },
  };
  const after = library.saveRun({
    ...currentDiskRun({ label: 'the new SSD, measured', target: newDisk }),
    results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 2.6 })),
  });
  const tree = workloadRun().results[1]!;
  library.saveRun({
    ...workloadRun({ label: 'SYNTHETIC tree on the new disk', target: newDisk }),
    results: [{ ...tree, figures: tree.figures!.map((f) => ({ ...f, value: f.value! / 5, passes: f.passes!.map((p) => p / 5) })) }],
  });
  const { id } = library.createAssessment('laptop HDD → SSD', { before });
  library.close();

  // A spec sheet typed in on the Candidates page, then taken into the assessment.
  await page.goto(`${app.url}#/candidates`);
  await page.getByRole('button', { name: 'Fill in the example' }).click();
  await page.getByRole('button', { name: 'Add this drive' }).click();
  await expect(page.getByTestId('candidate-list').getByRole('listitem')).toHaveCount(1);
  await page.evaluate((href) => (window.location.hash = href), `#/overview/assess/${id}`);
  const step = page.getByTestId('step-candidates');
  await expect(step.getByRole('heading', { name: /Before buying: the candidates/ })).toBeVisible();
  await step.getByRole('button', { name: "Use the Candidates page's drive (replaces those kept)" }).click();
  const kept = step.getByTestId('assessment-candidate-list').getByRole('listitem');
  await expect(kept).toHaveCount(1);
  await expect(kept.first()).toContainText('spec sheet, entered in the app');

  // A spec sheet file with a figure missing and one absurd: refused naming each field; nothing changes.
  await step.getByText('Change the candidates').click();
  await step.getByLabel(/A spec sheet file/).setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...EXAMPLE_CANDIDATE, sequentialMBps: { read: 560 }, enduranceTBW: -5 })),
  });
  const refused = step.getByTestId('candidates-refused');
  await expect(refused).toContainText('sequentialMBps.write: missing');
  await expect(refused).toContainText('enduranceTBW: must be above 0');
  await expect(kept).toHaveCount(1);

  // A drive measured elsewhere, from the library.
  await step.getByLabel('A drive measured elsewhere (disk run)').selectOption(String(friend));
  await step.getByRole('button', { name: 'Add this run' }).click();
  await expect(kept).toHaveCount(2);
  await expect(refused).toHaveCount(0);
  const forecast = step.getByTestId('assessment-candidates-forecast');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await expect(forecast).toContainText('the bus (SATA 3.0 Gb/s, 300 MB/s) is the limit: sequential read 560 → 279 MB/s');
  await expect(forecast).toContainText('Once the new disk’s run is set');

  await step.screenshot({ path: join(SCREENSHOT_DIR, 'assessment-candidates-waiting-1280-light.png') });

  // Kept in the library: a reload shows them.
  await page.reload();
  await expect(kept).toHaveCount(2);

  // The new disk measured: each forecast beside the measurement, in `assess show`'s words.
  const afterStep = page.getByTestId('step-after');
  await afterStep.getByLabel('Run of the new disk').selectOption(`run:${after}`);
  await afterStep.getByRole('button', { name: 'Use this run' }).click();
  const judged = step.getByTestId('candidates-judged');
  await expect(judged.locator('thead th')).toHaveText([
    'gain over the current disk',
    'measured (new disk)',
    'forecast: 1. Example SATA SSD 1 TB',
    "forecast: 2. a friend's Crucial MX500",
  ]);
  // "sequential read: forecast ×2.79, measured ×2.60", as `assess show` says it.
  await expect(judged.getByRole('row', { name: /^sequential read/ }).getByRole('cell')).toHaveText(['×2.60', '×2.79', '×2.79']);
  await expect(judged.getByRole('row', { name: /^4K random read at QD1\b/ }).getByRole('cell')).toHaveText(['×2.60', '×113', '×5.00']);
  // The workloads: the tree timed on both disks beside its forecasts; the big file not timed there, and the command said.
  await expect(
    judged
      .getByRole('row', { name: /^tree write/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('×5.00 (×5.00–×5.00)');
  await expect(
    judged
      .getByRole('row', { name: /^bigfile write/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('not measured on the new disk');
  await expect(step.getByTestId('candidates-judged-unmeasured')).toHaveText(
    'bigfile: not measured on the new disk; diskdelta run --tests bigfile --target /mnt/new times it there',
  );

  // The assessment's PDF saved from the app has the Candidates section, as `assess report` does.
  const download = page.waitForEvent('download');
  await page.getByTestId('step-report').getByRole('button', { name: 'Save PDF' }).click();
  const pdf = await download;
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-assess-candidates-'));
  try {
    const path = join(dir, pdf.suggestedFilename());
    await pdf.saveAs(path);
    const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8', timeout: 30_000 }).replace(/\s+/g, ' ');
    expect(text).toContain('Candidates: before you buy');
    expect(text).toContain('1. Example SATA SSD 1 TB');
    expect(text).toContain('the bus (SATA 3.0 Gb/s, 300 MB/s) is the limit: sequential read 560 → 279 MB/s');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const axe = await new AxeBuilder({ page })
    .include('[data-testid="step-candidates"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await step.screenshot({ path: join(SCREENSHOT_DIR, `assessment-candidates-1280-${scheme}.png`) });
  }
});
