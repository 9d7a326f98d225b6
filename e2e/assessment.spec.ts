// Overview's "Assess an upgrade" as a person walks it: the current disk measured from its step
// through the real worker, the new disk, its dm-crypt run and the 2013 discard pair picked from
// the published references, a folder's working set scanned; every step survives a reload (the
// library keeps it), a run deleted behind the page's back empties its step and the step says so;
// then the report saved as PDF, whose first page (pdftotext) tells the story. Screenshots of
// each step, light and dark, in test-results/screenshots/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { deviceMapperMissing } from '../electron/node/crypto/throwaway-held.ts';
import { CLI, expect, NODE, plantAgedFiles, SCREENSHOT_DIR, test, fullPageScreenshot } from './fixtures.ts';

const LABEL = '2011 laptop: HDD → SSD';
const HDD = 'Laptop hard disk, ThinkPad X201i (2011)';
const SSD = 'Intel 320 SSD, ThinkPad X201i (2011)';
const CRYPT = 'Intel 320 SSD + dm-crypt (LUKS, AES-256), ThinkPad X201i (2011)';
const DISCARD_OFF = 'Intel 525, ext4 on LVM on LUKS: without discard (2013)';
const DISCARD_ON = 'Intel 525, ext4 on LVM on LUKS: mounted with discard (2013)';

/** 4 MB touched today and 12 MB untouched for two years: a 90-day working set of 4.1 MB. */
function plant(dir: string): void {
  plantAgedFiles(dir, [
    ['Projects/today.bin', 4_096_000, 0.2],
    ['Archive/old.bin', 12_288_000, 730.5],
  ]);
}

async function shoot(page: Page, what: Locator | Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const path = join(SCREENSHOT_DIR, `assessment-${name}-${scheme}.png`);
    await (what === page ? fullPageScreenshot(page, path) : what.screenshot({ path }));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** axe's serious and critical WCAG 2.1 AA findings, light and dark, and any sideways scroll at a phone's 390 px. */
async function accessibilityProblems(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        problems.push(`${where} ${scheme} ${width}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      const extra = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
      if (width === 390 && extra > 0) problems.push(`${where} ${scheme} 390: ${extra} px wider than the window`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

async function pick(step: Locator, choices: Record<string, string>): Promise<void> {
  for (const [field, label] of Object.entries(choices)) await step.getByLabel(field).selectOption({ label });
  await step.getByRole('button', { name: Object.keys(choices).length > 1 ? 'Use these runs' : 'Use this run' }).click();
  await expect(step).toHaveAttribute('data-state', 'done');
}

test('assess an upgrade from Overview: each step measured or picked, kept across a reload, a deleted run said, the PDF tells the story first', async ({
  page,
  app,
}) => {
  test.setTimeout(300_000);
  await page.goto(`${app.url}#/overview`);
  const offer = page.getByTestId('assess-offer');
  await offer.getByLabel('What are you upgrading?').fill(LABEL);
  await shoot(page, offer, '0-offer');
  await offer.getByRole('button', { name: 'Assess an upgrade' }).click();
  await expect(page).toHaveURL(/#\/overview\/assess\/1$/);
  await expect(page.getByTestId('assessment-label')).toContainText(LABEL);

  // 1. The current disk, measured now from its step (the real worker, the quick preset).
  const before = page.getByTestId('step-before');
  await expect(before).toHaveAttribute('data-state', 'open');
  await before.getByLabel('Folder on the current disk').fill(app.targetDir);
  await before.getByRole('button', { name: 'Measure now' }).click();
  await expect(before).toHaveAttribute('data-state', 'done', { timeout: 180_000 });
  await expect(before.getByTestId('step-run-before')).toContainText(`run 1 “${LABEL}: before”`);
  await expect(before.getByTestId('step-run-before')).toContainText('measured here');
  expect(app.leftovers()).toEqual([]);
  await shoot(page, before, '1-before');

  // A reload (or a reboot with the new disk in) finds the step where it was.
  await page.reload();
  await expect(page.getByTestId('step-before')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('step-after')).toHaveAttribute('data-state', 'open');

  // 2–4. The new disk, its dm-crypt run and the discard pair: published references, kept in the library when picked.
  const after = page.getByTestId('step-after');
  await pick(after, { 'Run of the new disk': SSD });
  await expect(after.getByTestId('step-run-after')).toContainText(`run 2 “${SSD}” · published reference`);
  await shoot(page, after, '2-after');
  const encryption = page.getByTestId('step-encryption');
  await expect(encryption.getByTestId('encryption-help')).toContainText(
    "the report forecasts it from this CPU's cipher ceilings (estimated)",
  );
  // What New run knows: on a kernel without device-mapper the step does not send the user to New run.
  const noDm = await deviceMapperMissing();
  if (noDm) {
    await expect(encryption.getByTestId('encryption-help')).toContainText(`It cannot be measured on this machine: ${noDm}.`);
    await expect(encryption.getByTestId('encryption-help')).not.toContainText('New run');
  } else await expect(encryption.getByTestId('encryption-help')).toContainText('start a run on New run');
  await shoot(page, encryption, '3-encryption-open');
  await pick(encryption, { 'Run under dm-crypt': CRYPT });
  await expect(encryption.getByTestId('encryption-help')).toContainText('the report shows it as the third column');
  await shoot(page, encryption, '3-encryption');
  const trim = page.getByTestId('step-trim');
  await pick(trim, { 'Run without discard': DISCARD_OFF, 'Run with discard': DISCARD_ON });
  await expect(trim.getByTestId('step-run-discardOn')).toContainText(DISCARD_ON);
  await shoot(page, trim, '4-trim');

  // 5. How big an SSD: a folder of known files scanned from the step.
  const home = join(app.targetDir, '..', 'home');
  plant(home);
  const workingSet = page.getByTestId('step-working-set');
  await workingSet.getByLabel('Folder to scan').fill(home);
  await workingSet.getByRole('button', { name: 'Scan now' }).click();
  // Polled with the card's text as the message: a scan that failed says why in the failure.
  await expect(async () => expect(await workingSet.getAttribute('data-state'), await workingSet.innerText()).toBe('done')).toPass({
    timeout: 60_000,
  });
  await expect(workingSet.getByTestId('step-run-workingSet')).toContainText(`run 6 “working set of ${home}”`);
  // The size verdict is the page's verdicts panel's (analysis/verdicts.ts), as the report's page 1 says it.
  await expect(page.getByTestId('verdict-size')).toHaveText(
    'Whether your data fits: Your 90-day working set is 4.1 MB; what you have not touched in a year, 12.3 MB, can live on the old disk or the network. The new disk’s size is not known, so whether it fits cannot be said.',
  );
  await shoot(page, workingSet, '5-working-set');

  // The measured before run deleted outside the page (the CLI, on the same library): its step is empty again and says which run went.
  execFileSync(NODE, [CLI, 'delete', '1', '--db', app.dbPath], { encoding: 'utf8' });
  await page.reload();
  const emptied = page.getByTestId('step-before');
  await expect(emptied).toHaveAttribute('data-state', 'emptied');
  await expect(emptied.getByTestId('step-emptied')).toHaveText(
    new RegExp(
      `^Run 1 "${LABEL}: before" was deleted from the library on \\d{4}-\\d\\d-\\d\\d, so this step is empty again\\. Pick another run or measure again\\.$`,
    ),
  );
  await expect(emptied.getByTestId('step-run-before')).toHaveText('none yet');
  const report = page.getByTestId('step-report');
  await expect(report.getByRole('button', { name: 'Save PDF' })).toBeDisabled();
  await shoot(page, emptied, '6-before-emptied');
  const problems = await accessibilityProblems(page, 'with an emptied step');
  await pick(emptied, { 'Run of the current disk': HDD });
  await expect(emptied.getByTestId('step-emptied')).toHaveCount(0);
  await shoot(page, page, '7-all-steps');
  problems.push(...(await accessibilityProblems(page, 'every step done')));
  expect(problems, problems.join('\n')).toEqual([]);

  // 6. The report, saved as PDF: its first page decides, before any other figure.
  const download = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Save PDF' }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toBe('diskdelta-assessment-1.pdf');
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-assessment-'));
  try {
    const path = join(dir, pdf.suggestedFilename());
    await pdf.saveAs(path);
    expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
    const first = execFileSync('pdftotext', ['-f', '1', '-l', '1', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(first).toContain(`Upgrade assessment: ${LABEL}`);
    // Page 1 decides (report/first-page.ts): the verdicts of analysis/verdicts.ts, as the page's panel and `assess show` say them.
    const story = first.indexOf('The verdict');
    expect(story).toBeGreaterThan(-1);
    const told = first.slice(story);
    expect(told).toContain('Sequential read 41.27 MB/s → 135.9 MB/s, ×3.29 faster');
    // Run 3 is the published encrypted run: never this machine's cost, shown as the published story beside.
    expect(told).toContain(
      "The published story (2011, another machine): the same drive's sequential read fell from 135.9 MB/s to 71.5 MB/s",
    );
    expect(told).toMatch(/Online discard costs 1\.99 s per tree delete on the published 2013 machine/);
    expect(told).toMatch(/Your 90-day working set is 4\.1 MB;/);
    // Page 1 comes before every figure.
    const whole = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(whole.indexOf('Every figure')).toBeGreaterThan(-1);
    expect(whole.indexOf('The verdict')).toBeLessThan(whole.indexOf('Every figure'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Overview counts the steps as `diskdelta assess list` and `assess show` do (one function).
  const listed = execFileSync(NODE, [CLI, 'assess', 'list', '--db', app.dbPath], { encoding: 'utf8' });
  const progress = /\((\d+ of \d+ steps[^)]*)\)/.exec(listed)?.[1];
  expect(progress, listed).toBe('5 of 5 steps done, then the report');
  expect(execFileSync(NODE, [CLI, 'assess', 'show', '1', '--db', app.dbPath], { encoding: 'utf8' })).toContain(`: ${progress}\n`);
  await page.goto(`${app.url}#/overview`);
  await expect(page.getByTestId('assessment-item')).toContainText(`· ${progress} ·`);
});
