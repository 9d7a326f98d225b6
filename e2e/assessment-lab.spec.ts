// Issue 39's lab: one upgrade assessment on two REAL disks, made with the CLI and made in the app,
// must read the same. The old HDD is a loop device capped by the cgroup v1 blkio throttle like
// the 2011 laptop disk (40 MB/s, 150 IOPS; e2e/throttled-lab.ts); the new SSD is a plain loop
// device (its cgroup is never joined, so nothing caps it). The CLI's engine measures both into
// the library the app serves; `diskdelta assess start/show --json/report` makes the assessment
// one way, the Assessment page's pickers and its Save PDF the other. The verdicts the CLI gives
// as data, the app's verdict panel and page 1 of both PDFs (pdftotext) must say the same
// sentences with the same figures. Page 1 is photographed (pdftoppm) from the PDF the app saved
// in its light and in its dark scheme (paper does not follow the screen: both must be the same
// light page), with the verdict panel itself, under test-results/screenshots/.
//
// Speeds are asserted only where the throttle guarantees them (the HDD's sequential read at most
// its cap): other helpers load the machine. Needs root, losetup, mkfs.ext4, cgroup v1 blkio,
// Chromium, pdftotext and pdftoppm; skips naming the first one missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { AssessmentVerdicts } from '../electron/shared/analysis/verdicts.ts';
import { CHROMIUM_PATH } from './chromium.ts';
import { CLI, expect, NODE, SCREENSHOT_DIR, test } from './fixtures.ts';
import { HDD_CAPS, labUnavailable, setUpThrottledLab, type ThrottledLab } from './throttled-lab.ts';

const LABEL = 'lab: throttled HDD → plain loop SSD';
const HDD = 'HDD (loop, 40 MB/s + 150 IOPS)';
const SSD = 'SSD (plain loop)';
/** The quick preset's four tests and the seeks (page 1's five rows), short: both disks in well under two minutes. */
const RUN_ARGS = [
  '--preset',
  'quick',
  '--tests',
  'seq1m-q8t1-read,seq1m-q8t1-write,rnd4k-q1t1-read,rnd4k-q1t1-write,seeks',
  '--size',
  '64MiB',
  '--duration',
  '0.5',
  '--runs',
  '3',
];

function missing(): string | null {
  const lab = labUnavailable();
  if (lab) return lab;
  if (!existsSync(CHROMIUM_PATH)) return `needs Chromium at ${CHROMIUM_PATH}`;
  for (const tool of ['mkfs.ext4', 'pdftotext', 'pdftoppm'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`], { timeout: 10_000 }).status !== 0) return `needs ${tool}`;
  return null;
}

/** `diskdelta run` on the lab's ext4 through the CLI's engine, in the lab's cgroup when `capped`; the run's id. */
function measure(lab: ThrottledLab, label: string, capped: boolean, db: string): number {
  const command = [NODE, CLI, 'run', '--target', lab.mountPoint!, ...RUN_ARGS, '--label', label, '--json', '--db', db]
    .map((a) => `'${a}'`)
    .join(' ');
  const r = spawnSync('sh', ['-c', capped ? lab.joinGroup(command) : `exec ${command}`], { encoding: 'utf8', timeout: 150_000 });
  if (r.status !== 0) throw new Error(`diskdelta run (${label}) exited ${r.status ?? r.signal}:\n${r.stderr}`);
  const listed = JSON.parse(execFileSync(NODE, [CLI, 'list', '--json', '--db', db], { encoding: 'utf8', timeout: 60_000 })) as Array<{
    id: number;
    label: string;
  }>;
  const run = listed.find((x) => x.label === label);
  if (!run) throw new Error(`run "${label}" is not in the library:\n${JSON.stringify(listed)}`);
  return run.id;
}

const cli = (db: string, ...args: string[]) => execFileSync(NODE, [CLI, ...args, '--db', db], { encoding: 'utf8', timeout: 60_000 });
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const pageOne = (pdf: string) =>
  oneLine(execFileSync('pdftotext', ['-f', '1', '-l', '1', pdf, '-'], { encoding: 'utf8', timeout: 30_000 }));

/** Page 1 from "The verdict" on: what decides, without the title (the two assessments' labels and ids differ). */
function verdictPart(page1: string): string {
  const at = page1.indexOf('The verdict');
  expect(at, page1).toBeGreaterThan(-1);
  return page1.slice(at);
}

/** Picks run `id` in the step's picker `field` (its option reads "ID: LABEL (kind, date)"). */
async function pickRun(page: Page, stepId: string, field: string, id: number): Promise<void> {
  const step = page.getByTestId(stepId);
  const select = step.getByLabel(field);
  const option = select.locator('option', { hasText: new RegExp(`^${id}: `) });
  await expect(option).toHaveCount(1);
  await select.selectOption((await option.getAttribute('value'))!);
  await step.getByRole('button', { name: 'Use this run' }).click();
  await expect(step).toHaveAttribute('data-state', 'done');
}

async function savePdf(page: Page, path: string): Promise<void> {
  const download = page.waitForEvent('download', { timeout: 90_000 });
  await page.getByTestId('step-report').getByRole('button', { name: 'Save PDF' }).click();
  await (await download).saveAs(path);
  expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
}

// Decided before any fixture starts: the browser itself may be what is missing.
const unavailable = missing();
test.skip(unavailable !== null, unavailable ?? '');

test('two measured disks: the assessment made with the CLI and in the app give the same verdicts, page 1 photographed', async ({
  page,
  app,
}) => {
  test.setTimeout(420_000);
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-assess-lab-'));
  let hdd: ThrottledLab | null = null;
  let ssd: ThrottledLab | null = null;
  try {
    hdd = setUpThrottledLab({ name: 'dd-assess-hdd', sizeBytes: 512 * 2 ** 20, caps: HDD_CAPS, filesystem: true });
    // Its cgroup is never joined: a plain loop device, nothing capping it.
    ssd = setUpThrottledLab({ name: 'dd-assess-ssd', sizeBytes: 512 * 2 ** 20, caps: HDD_CAPS, filesystem: true });
    const before = measure(hdd, HDD, true, app.dbPath);
    const after = measure(ssd, SSD, false, app.dbPath);

    // 1. The CLI's assessment: its verdicts as data, and its report.
    cli(app.dbPath, 'assess', 'start', LABEL, '--before', String(before), '--after', String(after));
    const shown = JSON.parse(cli(app.dbPath, 'assess', 'show', '1', '--json')) as { verdicts: AssessmentVerdicts };
    const v = shown.verdicts;
    expect(v.ignored).toEqual([]);
    const cliPdf = join(dir, 'cli.pdf');
    cli(app.dbPath, 'assess', 'report', '1', '--out', cliPdf);

    // What the throttle guarantees: the old disk's sequential read is at most its cap.
    const seqRead = v.speedUp.rows.find((r) => r.slot === 'seq-read')!;
    expect(seqRead.before.value!).toBeLessThanOrEqual(HDD_CAPS.bytesPerSec * 1.05);
    expect(v.speedUp.rows.map((r) => r.slot)).toEqual(['seq-read', 'seq-write', 'rnd-read', 'rnd-write', 'seeks']);
    // What was measured, beside the pictures: each figure and the trust flags page 1 marks.
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(
      join(SCREENSHOT_DIR, 'assessment-lab-measured.txt'),
      v.speedUp.rows.map((r) => `${r.slot}: ${r.before.display} [${r.before.flags}] → ${r.after.display} [${r.after.flags}]\n`).join(''),
    );

    // 2. The same assessment made in the app: Overview's offer, the two pickers.
    await page.goto(`${app.url}#/overview`);
    const offer = page.getByTestId('assess-offer');
    await offer.getByLabel('What are you upgrading?').fill(LABEL);
    await offer.getByRole('button', { name: 'Assess an upgrade' }).click();
    await expect(page).toHaveURL(/#\/overview\/assess\/2$/);
    await pickRun(page, 'step-before', 'Run of the current disk', before);
    await pickRun(page, 'step-after', 'Run of the new disk', after);

    // The app's panel renders the CLI's data: every sentence, every figure with its flags, every speed-up.
    const panel = page.getByTestId('assessment-verdicts');
    // Each card says the title once: before the sentence, or bold where the sentence opens with it.
    const cards = {
      speed: ['How much faster', v.speedUp.sentence],
      encryption: ['What encryption costs', v.encryption.sentence],
      trim: ['What online discard costs', v.trim.sentence],
      size: ['Whether your data fits', v.size.sentence],
    } as const;
    for (const [id, [title, sentence]] of Object.entries(cards))
      await expect(panel.getByTestId(`verdict-${id}`)).toHaveText(sentence.startsWith(title) ? sentence : `${title}: ${sentence}`);
    const rows = panel.locator('table.verdict-figures tbody tr');
    await expect(rows).toHaveCount(v.speedUp.rows.length);
    for (const [i, r] of v.speedUp.rows.entries()) {
      const cells = rows.nth(i).locator('td');
      await expect(rows.nth(i).locator('th')).toHaveText(r.title);
      await expect(cells.nth(0)).toHaveText(r.before.display + (r.before.flags.length ? ' ⚑' : ''));
      await expect(cells.nth(1)).toHaveText(r.after.display + (r.after.flags.length ? ' ⚑' : ''));
      await expect(cells.nth(3)).toHaveText(r.delta?.ratioText ?? '—');
    }
    // Each figure is held whole with its unit (report/whole-text.ts's no-wrap spans).
    await expect(panel.locator('span[style*="nowrap"]').first()).toHaveCSS('white-space', 'nowrap');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await panel.screenshot({ path: join(SCREENSHOT_DIR, `assessment-lab-verdicts-${scheme}.png`) });
    }

    // 3. The app's report, saved in each scheme: page 1 says what the CLI's says, and paper stays light.
    const cliPage1 = pageOne(cliPdf);
    for (const sentence of [v.speedUp.sentence, v.encryption.sentence, v.trim.sentence, v.size.sentence])
      expect(cliPage1).toContain(oneLine(sentence));
    for (const r of v.speedUp.rows) for (const f of [r.before, r.after]) expect(cliPage1).toContain(f.display);
    // No unit begins a line of page 1: each figure stays whole with its unit (report/whole-text.ts).
    const orphans = execFileSync('pdftotext', ['-f', '1', '-l', '1', cliPdf, '-'], { encoding: 'utf8', timeout: 30_000 })
      .split('\n')
      .filter((line) => /^(%|[kMGT]?B\/s|[kMGT]?i?B|IOPS|seeks\/s|s)(\s|[),;.]|$)/u.test(line.trim()));
    expect(orphans, 'lines of page 1 that begin with a unit').toEqual([]);
    const shots: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const appPdf = join(dir, `app-${scheme}.pdf`);
      await savePdf(page, appPdf);
      expect(verdictPart(pageOne(appPdf))).toBe(verdictPart(cliPage1));
      const png = join(SCREENSHOT_DIR, `assessment-lab-page1-${scheme}`);
      execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '110', '-png', '-singlefile', appPdf, png], { timeout: 60_000 });
      shots.push(readFileSync(`${png}.png`).toString('base64'));
    }
    // The same page from the dark app as from the light one: a report is paper.
    expect(shots[1] === shots[0], 'page 1 saved from the dark app differs from the light one').toBe(true);
    execFileSync(
      'pdftoppm',
      ['-f', '1', '-l', '1', '-r', '110', '-png', '-singlefile', cliPdf, join(SCREENSHOT_DIR, 'assessment-lab-page1-cli')],
      {
        timeout: 60_000,
      },
    );
  } finally {
    hdd?.tearDown();
    ssd?.tearDown();
    rmSync(dir, { recursive: true, force: true });
  }
});
