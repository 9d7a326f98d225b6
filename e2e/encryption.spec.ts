// The encryption views in browser mode: Overview measures the CPU's cipher ceilings (on this
// machine through OpenSSL, labelled a user-space estimate, where the kernel has no AF_ALG);
// Compare shows HDD / SSD / SSD + dm-crypt with the cipher line and hatched forecasts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CLI, expect, NODE, SCREENSHOT_DIR, test } from './fixtures.ts';

test('Overview measures the cipher ceilings; Compare draws the cipher line and the estimated forecasts apart from measurements', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${app.url}#/`);
  const section = page.getByTestId('cipher-ceilings');
  await section.getByRole('button', { name: 'Measure cipher ceilings' }).click();
  await expect(section.getByTestId('cipher-table')).toBeVisible({ timeout: 60_000 });
  await expect(section.getByTestId('cipher-table')).toContainText('aes-xts-plain64');
  await expect(section.getByTestId('cipher-table')).toContainText('64 KiB (bulk)');
  const source = await section.getByTestId('cipher-source').textContent();
  // Kernel figures or a labelled estimate, never an unlabelled OpenSSL figure.
  expect(source).toMatch(/kernel crypto API \(AF_ALG\)|user-space estimate.*Every figure below is a user-space estimate/);
  if (/user-space/.test(source ?? '')) await expect(section.getByRole('columnheader', { name: /estimate/ }).first()).toBeVisible();
  await expect(section).toContainText(/AES-NI: (yes|no), VAES: (yes|no)/);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(SCREENSHOT_DIR, `overview-ciphers-${scheme}.png`) });
  }

  await page.goto(`${app.url}#/compare`);
  for (const name of ['Laptop hard disk', 'Intel 320 SSD, ThinkPad', 'Intel 320 SSD + dm-crypt']) {
    await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[+]/g, '\\+')}`) }).check();
  }
  const enc = page.getByTestId('compare-encryption');
  await expect(enc).toBeVisible();
  await expect(enc.getByRole('heading')).toContainText(/sequential read/i);
  await expect(enc.getByTestId('enc-source')).toContainText('Cipher ceiling');
  // The cipher's ceiling is drawn as a labelled line; forecasts only for the two unencrypted runs.
  await expect(enc.getByTestId('enc-chart').getByTestId('enc-ceiling')).toHaveCount(1);
  await expect(enc.getByTestId('enc-chart')).toContainText('cipher ceiling');
  const rows = enc.getByTestId('enc-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('(estimated)');
  await expect(rows.nth(1)).toContainText('(estimated)');
  await expect(rows.nth(2)).toContainText('measured encrypted');
  // Forecast bars are hatched (a pattern fill) and outlined dashed; measured bars are solid.
  const forecastBars = enc.getByTestId('enc-chart').locator('rect[fill="url(#forecast-hatch)"]');
  await expect(forecastBars).toHaveCount(2);
  expect(await forecastBars.first().getAttribute('stroke-dasharray')).toBe('5 3');
  // The ceiling of a modern CPU dwarfs the 2011 disks: the log scale shows all three apart.
  await page.getByRole('radio', { name: 'Logarithmic' }).check();
  await expect(enc.getByRole('heading')).toContainText('log scale');
  await expect(enc.getByTestId('enc-chart')).toHaveAttribute('data-scale', 'log');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await enc.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await enc.screenshot({ path: join(SCREENSHOT_DIR, `compare-encryption-${scheme}.png`) });
  }
});

test('New run: "also measure what encryption costs" is offered only where the kernel has device-mapper, and says why not', async ({
  page,
  app,
}) => {
  // The kernel's own answer, read here as throwaway-held.ts reads it (no root needed).
  const misc = existsSync('/proc/misc') ? readFileSync('/proc/misc', 'utf8') : '';
  const modules = `/lib/modules/${release()}/kernel/drivers/md`;
  const kernelHasDm =
    /\bdevice-mapper\b/.test(misc) ||
    existsSync('/sys/module/dm_mod') ||
    (existsSync(modules) && readdirSync(modules).some((m) => m.startsWith('dm-mod.ko')));
  await page.goto(`${app.url}#/new`);
  const box = page.getByLabel('Also measure what encryption (dm-crypt) costs on this disk');
  if (kernelHasDm) {
    await expect(box).toBeEnabled();
    await expect(page.getByTestId('encryption-unavailable')).toHaveCount(0);
    return;
  }
  // Before: offered, and the run then failed with "This is a fault in DiskDelta or the machine".
  await expect(box).toBeDisabled();
  const why = page.getByTestId('encryption-unavailable');
  await expect(why).toContainText('this kernel has no device-mapper (dm-mod)');
  await expect(why).not.toContainText(/fault|diskdelta ciphers|--/);
  await expect(box).toHaveAccessibleDescription(/no device-mapper/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('form').screenshot({ path: join(SCREENSHOT_DIR, `new-run-no-dm-${scheme}.png`) });
  }
  await why.getByRole('link', { name: 'cipher ceilings on Overview' }).click();
  await expect(page.getByTestId('cipher-ceilings')).toBeVisible();
  expect(app.leftovers()).toEqual([]);
});

/** Each run name under the encryption chart's bars, as drawn: one box per line (tspan); and the drawing's box. */
async function encNameBoxes(page: Page): Promise<{ lines: Box[]; svg: Box }> {
  return page.evaluate(`(() => {
    const svg = document.querySelector('[data-testid="enc-chart"] svg');
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    return { lines: [...svg.querySelectorAll('text:not([data-testid]) tspan')].map(box), svg: box(svg) };
  })()`);
}
interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

// Issue 39 said the encryption chart's x labels overlapped at 1280 px with the 2011 references;
// tried again with every shipped reference imported and picked (the chart keeps the three disks),
// the cipher ceilings measured (forecast bars beside), linear and log scale, at 1280 and 390 px.
test('Compare encryption with the references imported: no run name under the bars overlaps another or the edge at 1280 and 390 px', async ({
  page,
  app,
}) => {
  test.setTimeout(180_000);
  execFileSync(NODE, [CLI, 'import', '--reference', '--db', app.dbPath], { encoding: 'utf8', timeout: 60_000 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${app.url}#/compare`);
  const boxes = page.getByRole('checkbox', { name: /· reference, also in your library$/ });
  await expect(boxes).toHaveCount(5);
  for (const box of await boxes.all()) await box.check();
  const enc = page.getByTestId('compare-encryption');
  await expect(enc.getByTestId('enc-chart').locator('svg')).toBeVisible();
  await enc.getByRole('button', { name: 'Measure the cipher ceilings to add forecasts' }).click();
  await expect(enc.getByTestId('enc-forecast').first()).toBeVisible({ timeout: 90_000 });
  const problems: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    for (const scale of ['Linear', 'Logarithmic']) {
      await page.getByRole('radio', { name: scale }).check();
      await expect(enc.getByTestId('enc-chart')).toHaveAttribute('data-scale', scale === 'Linear' ? 'linear' : 'log');
      const where = `${scale} at ${width} px`;
      const { lines, svg } = await encNameBoxes(page);
      expect(lines.map((l) => l.text).join(' '), where).toMatch(/^#1 Laptop hard disk.*#2 Intel 320 SSD.*#3 Intel 320 SSD \+/);
      for (const a of lines)
        for (const b of lines)
          if (a !== b && a.left <= b.left && b.left < a.right + 2 && a.top < b.bottom && b.top < a.bottom)
            problems.push(`${where}: "${a.text}" and "${b.text}" overlap (${Math.round(a.right - b.left + 2)} px)`);
      for (const t of lines)
        if (t.left < svg.left - 0.5 || t.right > svg.right + 0.5) problems.push(`${where}: "${t.text}" is cut by the chart's edge`);
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await enc.scrollIntoViewIfNeeded();
      await enc.screenshot({ path: join(SCREENSHOT_DIR, `compare-encryption-references-${width}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  expect(problems, problems.join('\n')).toEqual([]);
});
