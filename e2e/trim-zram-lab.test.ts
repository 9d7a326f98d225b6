// Issue 40 item 3, against its truth: the TRIM audit on zram, a bio-based driver that takes
// discards but counts none in /sys/block/zramN/stat. A zram device of our own (hot-added, removed
// after; zram0 is never touched) with ext4 on it: files written and deleted, then `diskdelta
// trim-audit`, which deletes its own file and runs fstrim. The truth: fstrim trims bytes and
// zram frees the pages (its mm_stat), while its stat counts 0 discards. The audit must say
// "cannot tell on this driver" with that evidence, never "no layer saw a discard", and the
// Overview's TRIM cell must say the same. Needs root, zram's hot_add, mkfs.ext4 and fstrim.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TrimAuditResult } from '../electron/shared/model/trim-audit-schema.ts';
import { withTrimAudits } from '../electron/node/api/trim-seen.ts';
import { trimCell } from '../renderer/src/view/trim-cell.ts';
import type { SystemOverview } from '../electron/shared/contract/contract.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONTROL = '/sys/class/zram-control';

const unavailable =
  process.getuid?.() !== 0
    ? 'needs root (zram hot_add, mount, fstrim)'
    : !existsSync(join(CONTROL, 'hot_add'))
      ? `needs the zram module with ${CONTROL}/hot_add`
      : ['mkfs.ext4', 'fstrim'].find((t) => spawnSync('which', [t]).status !== 0)
        ? 'needs mkfs.ext4 and fstrim'
        : null;

function diskdelta(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/diskdelta.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('TRIM audit on zram, which counts no discards (issue 40 item 3)', () => {
  it(
    'says "cannot tell on this driver" with fstrim\'s bytes and zram\'s mm_stat, in the CLI and the Overview',
    { skip: unavailable ?? false, timeout: 120_000 },
    async (t) => {
      const id = readFileSync(join(CONTROL, 'hot_add'), 'utf8').trim();
      const name = `zram${id}`;
      assert.notEqual(name, 'zram0');
      const mountpoint = mkdtempSync(join(tmpdir(), 'dd-corners-zram-'));
      t.after(() => {
        for (let i = 0; i < 50 && spawnSync('umount', [mountpoint]).status === 0; i++);
        rmSync(mountpoint, { recursive: true, force: true });
        // Reset frees its memory; hot_remove takes the device away.
        try {
          writeFileSync(`/sys/block/${name}/reset`, '1');
        } catch {
          // already gone
        }
        try {
          writeFileSync(join(CONTROL, 'hot_remove'), id);
        } catch {
          // already gone
        }
      });
      writeFileSync(`/sys/block/${name}/disksize`, String(256 * 2 ** 20));
      assert.equal(spawnSync('mkfs.ext4', ['-q', '-E', 'nodiscard', `/dev/${name}`]).status, 0);
      const m = spawnSync('mount', [`/dev/${name}`, mountpoint], { encoding: 'utf8' });
      assert.equal(m.status, 0, m.stderr);
      // Files written and deleted before the audit: their blocks are for fstrim to trim.
      for (let i = 0; i < 4; i++) writeFileSync(join(mountpoint, `old-${i}`), Buffer.alloc(8 * 2 ** 20, i + 1));
      spawnSync('sync');
      for (let i = 0; i < 4; i++) unlinkSync(join(mountpoint, `old-${i}`));
      spawnSync('sync');

      const json = await diskdelta(['trim-audit', mountpoint, '--json', '--no-save']);
      assert.equal(json.code, 0, json.stderr);
      const r = JSON.parse(json.stdout) as TrimAuditResult;
      const zram = r.audit.layers.find((l) => l.device === name);
      assert.ok(zram, JSON.stringify(r.audit.layers));
      // The truth: fstrim trimmed bytes, zram's stat counted none.
      assert.ok('bytes' in r.fstrim && (r.fstrim.bytes ?? 0) > 0, `fstrim: ${JSON.stringify(r.fstrim)}`);
      assert.equal(zram.discards, 0, 'zram counts no discards in its stat');
      assert.equal(zram.reached, null, 'a count of 0 on zram says nothing');
      assert.ok(r.audit.cannotTell, 'the audit says it cannot tell');
      const trimmed = (r.fstrim as { bytes: number }).bytes.toLocaleString('en');
      assert.ok(
        r.audit.cannotTell.evidence.some((e) => e.includes(`fstrim reported ${trimmed} bytes trimmed`)),
        JSON.stringify(r.audit.cannotTell),
      );
      assert.ok(
        r.audit.cannotTell.evidence.some((e) => /zram's mm_stat: data held/.test(e)),
        JSON.stringify(r.audit.cannotTell),
      );

      const text = await diskdelta(['trim-audit', mountpoint, '--no-save']);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, new RegExp(`cannot tell on this driver whether TRIM reached [a-z]+ ${name}`));
      assert.match(text.stdout, /fstrim reported [\d,]+ bytes trimmed/);
      assert.doesNotMatch(text.stdout, /no layer saw a discard/);

      // The Overview's TRIM cell says the audit's sentence.
      const overview = { mounts: [{ path: r.mountPoint!, trimReachesDisk: null, trimSeen: null }] } as unknown as SystemOverview;
      const cell = trimCell(withTrimAudits(overview, [r]).mounts[0]!);
      assert.match(cell.text, /^cannot tell on this driver whether TRIM reached .* \(audit \d{4}-\d\d-\d\d\)$/);
      assert.doesNotMatch(cell.text, /no layer saw a discard/);
      t.diagnostic(text.stdout);
    },
  );
});
