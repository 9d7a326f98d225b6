// Overview's TRIM column after a real audit: `diskdelta trim-audit` run by the CLI into the app's
// library, then the Overview says what the kernel's counters saw, and when.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, expect, NODE, SCREENSHOT_DIR, test } from './fixtures.ts';

test("a TRIM audit kept by the CLI: Overview's row of that mount says what a discard was seen reaching, and when", async ({
  page,
  app,
}) => {
  const before = spawnSync(NODE, [CLI, 'trim-audit', app.targetDir, '--no-fstrim', '--json', '--db', app.dbPath], { encoding: 'utf8' });
  expect(before.status, before.stderr).toBe(0);
  const audit = JSON.parse(before.stdout) as { mountPoint: string | null; at: string; audit: { deepestReached: string | null } };
  expect(audit.mountPoint, 'the audit knows its mount point').not.toBeNull();
  await page.goto(`${app.url}#/overview`);
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: audit.mountPoint!, exact: true }) });
  const cell = row.getByTestId('trim-reaches');
  await expect(cell).toHaveAttribute('data-basis', 'seen');
  const day = audit.at.slice(0, 10);
  // Whether this machine's filesystem sends discards online decides what was seen; the cell must say it.
  await expect(cell).toHaveText(
    audit.audit.deepestReached
      ? new RegExp(`^seen reaching ${audit.audit.deepestReached} on ${day}`)
      : `no layer saw a discard (audit ${day})`,
  );
  // Mounts without an audit say what the tables claim, as such, and how to look.
  const others = page.getByTestId('trim-reaches').and(page.locator('[data-basis="tables"]'));
  for (const other of await others.all()) {
    await expect(other).toContainText(/by the tables/);
    await expect(other).toContainText(/diskdelta trim-audit \//);
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.getByRole('heading', { name: 'Mounted file systems' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'overview-trim-seen.png') });
});
