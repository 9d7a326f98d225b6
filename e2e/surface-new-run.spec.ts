// Issue 41 item 3 in the app: the surface scan started from New run (the `surface` preset), as
// `diskdelta surface DEVICE` measures it. The preset shows its own fields (offsets, bytes at each,
// access reads), not the rate tests' seconds per test; a folder is refused with what to give
// instead; a loop device is measured read-only (its bytes hashed before and after), lands in
// Library and is drawn by Compare's surface chart beside `run --preset surface` from the CLI. Needs root and losetup for the device half;
// skips it naming what is missing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, expect, NODE, SCREENSHOT_DIR, test } from './fixtures.ts';
import { watchRun } from './flows.ts';

const SECONDS = 30_000;

/** Why a loop device cannot be made here, or null. */
function loopUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to attach a loop device (run the suite as root)';
  const probe = spawnSync('losetup', ['--version'], { encoding: 'utf8', timeout: SECONDS });
  return probe.status === 0 ? null : 'needs losetup (apt-get install mount)';
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('New run: the surface preset shows its own fields and says it reads, never writes; a folder is refused saying what to give', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}#/new`);
  await page.getByLabel('Preset').selectOption('surface');
  await expect(page.getByLabel('Offsets read across the device')).toHaveAttribute('placeholder', '100');
  await expect(page.getByLabel('Read at each offset (MiB)')).toHaveAttribute('placeholder', '4');
  await expect(page.getByLabel('Random reads for the access time')).toHaveAttribute('placeholder', '100');
  await expect(page.getByLabel('Seconds per test')).toHaveCount(0);
  await expect(page.getByLabel('Test file size (MiB)')).toHaveCount(0);
  await expect(page.getByText('It reads, never writes')).toBeVisible();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('form').screenshot({ path: join(SCREENSHOT_DIR, `new-run-surface-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByLabel('Target folder').fill(app.targetDir);
  await page.getByLabel('Label').fill('surface of a folder');
  await page.getByRole('button', { name: 'Start' }).click();
  // Refused before anything is made in the folder, saying what to give instead.
  await expect(page.getByText(/not a block device; give one \(\/dev\/sdb\)/).first()).toBeVisible({ timeout: SECONDS });
  expect(app.leftovers()).toEqual([]);
});

test('New run: the surface preset on a loop device measures it read-only; the run lands in Library and Compare draws its curve beside the CLI run', async ({
  page,
  app,
}) => {
  const unavailable = loopUnavailable();
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-e2e-surface-'));
  const image = join(dir, 'disk.img');
  // Bytes that are not all zero, so a write anywhere would change the hash.
  writeFileSync(image, Buffer.alloc(64 * 2 ** 20, 'surface'));
  const before = sha256(image);
  const attach = spawnSync('losetup', ['--find', '--show', '--direct-io=on', image], { encoding: 'utf8', timeout: SECONDS });
  expect(attach.status, attach.stderr).toBe(0);
  const device = attach.stdout.trim();
  try {
    await page.goto(`${app.url}#/new`);
    await page.getByLabel('Preset').selectOption('surface');
    await page.getByLabel('Target folder').fill(device);
    await page.getByLabel('Offsets read across the device').fill('12');
    await page.getByLabel('Read at each offset (MiB)').fill('1');
    await page.getByLabel('Random reads for the access time').fill('20');
    await page.getByLabel('Label').fill('surface from the app');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByTestId('page-live')).toBeVisible();
    await watchRun(page);
    await expect(page.getByTestId('run-status')).toHaveText('Finished');
    await expect(page.getByTestId('run-saved')).toBeVisible();
    // Compare takes two runs: the same preset from the CLI into the same library.
    const cli = spawnSync(
      NODE,
      [
        CLI,
        'run',
        '--preset',
        'surface',
        '--target',
        device,
        '--samples',
        '12',
        '--sample-bytes',
        '1MiB',
        '--label',
        'surface from the CLI',
        '--db',
        app.dbPath,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(cli.status, cli.stderr).toBe(0);
  } finally {
    spawnSync('losetup', ['-d', device], { timeout: SECONDS });
  }
  expect(sha256(image), 'nothing written to the device').toBe(before);
  rmSync(dir, { recursive: true, force: true });

  await page.goto(`${app.url}#/library`);
  await expect(page.getByTestId('library-table')).toContainText('surface from the app');
  await expect(page.getByTestId('library-table')).toContainText('surface from the CLI');
  await page.goto(`${app.url}#/compare`);
  await page.getByRole('checkbox', { name: /^surface from the app/ }).check();
  await page.getByRole('checkbox', { name: /^surface from the CLI/ }).check();
  const chart = page.getByTestId('series-surface').first();
  await expect(chart).toBeVisible();
  await expect(chart.locator('path.plot-line')).toHaveCount(2);
  await expect(chart).toContainText('MB/s');
});
