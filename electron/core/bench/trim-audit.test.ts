// The TRIM audit on a real stack: ext4 on a loop device whose backing file lies in memory
// (tmpfs punches holes, so the loop takes discards; nobody else's discards reach it). Mounted
// with `discard`, the delete alone reaches the loop; without it, only fstrim does.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runDiscardCost } from './discard-cost.ts';
import { parseFstrimBytes, runTrimAudit, trimAuditText } from './trim-audit.ts';

const unavailable =
  process.getuid?.() !== 0
    ? 'needs root (a loop device, mount, fstrim)'
    : !existsSync('/dev/shm')
      ? 'needs /dev/shm (a tmpfs for the backing file)'
      : ['losetup', 'mkfs.ext4', 'fstrim'].find((t) => spawnSync('which', [t]).status !== 0)
        ? 'needs losetup, mkfs.ext4 and fstrim (util-linux, e2fsprogs)'
        : null;

function scratchExt4(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join('/dev/shm', 'dd-trim-audit-'));
  const image = join(dir, 'disk.img');
  spawnSync('truncate', ['-s', String(512 * 2 ** 20), image]);
  const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
  assert.equal(l.status, 0, l.stderr);
  const device = l.stdout.trim();
  assert.equal(spawnSync('mkfs.ext4', ['-q', '-E', 'nodiscard', device]).status, 0);
  const mountpoint = mkdtempSync(join(tmpdir(), 'dd-trim-mnt-'));
  t.after(() => {
    spawnSync('umount', [mountpoint]);
    spawnSync('losetup', ['-d', device]);
    rmSync(mountpoint, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  const mount = (options: string) => {
    spawnSync('umount', [mountpoint]);
    const m = spawnSync('mount', ['-o', options, device, mountpoint], { encoding: 'utf8' });
    assert.equal(m.status, 0, m.stderr);
  };
  return { device: basename(device), mountpoint, mount };
}

describe('TRIM audit on a loop device', { skip: unavailable ?? false }, () => {
  it('mounted with discard: the delete alone reaches the loop device (counters), and the verdict says so', async (t) => {
    const s = scratchExt4(t);
    s.mount('discard');
    const r = await runTrimAudit(s.mountpoint, { fstrim: false });
    const loop = r.audit.layers.find((l) => l.device === s.device);
    assert.ok(loop, `the loop device ${s.device} is a layer: ${JSON.stringify(r.audit.layers.map((l) => l.device))}`);
    assert.equal(r.onlineDiscard, 'on');
    assert.ok(loop.discards! > 0 && loop.bytes! > 0, `${loop.discards} discards, ${loop.bytes} bytes`);
    assert.equal(r.audit.deepestReached, `loop ${s.device}`);
    assert.match(trimAuditText(r), new RegExp(`TRIM seen reaching loop ${s.device} on \\d{4}-\\d\\d-\\d\\d`));
    console.log(`# ${trimAuditText(r).replace(/\n/g, '\n# ')}`);
  });

  it('mounted without discard: the delete sends none; fstrim then does, and its time and bytes are reported', async (t) => {
    const s = scratchExt4(t);
    s.mount('nodiscard');
    const quiet = await runTrimAudit(s.mountpoint, { fstrim: false });
    assert.equal(quiet.onlineDiscard, 'off');
    assert.equal(quiet.audit.layers.find((l) => l.device === s.device)?.discards, 0);
    assert.equal(quiet.audit.deepestReached, null);
    const trimmed = await runTrimAudit(s.mountpoint);
    const loop = trimmed.audit.layers.find((l) => l.device === s.device);
    assert.ok(loop && loop.discards! > 0, 'fstrim reached the loop device');
    assert.ok(!('skipped' in trimmed.fstrim) && trimmed.fstrim.bytes! > 0, JSON.stringify(trimmed.fstrim));
    console.log(`# ${trimAuditText(trimmed).replace(/\n/g, '\n# ')}`);
  });
});

describe('fstrim output', () => {
  it('reads the bytes trimmed from `fstrim -v`', () => {
    assert.equal(parseFstrimBytes('/mnt: 480.2 MiB (503504896 bytes) trimmed\n'), 503504896);
    assert.equal(parseFstrimBytes('fstrim: /mnt: the discard operation is not supported'), null);
  });
});

describe('discard on vs off on a scratch ext4 in a loop file', { skip: unavailable ?? false }, () => {
  it('the tree delete with and without discard: both timed, the loop device’s counters prove discards only with it; fstrim timed', async (t) => {
    const folder = mkdtempSync(join('/dev/shm', 'dd-discard-cost-'));
    t.after(() => rmSync(folder, { recursive: true, force: true }));
    const r = await runDiscardCost(folder, { files: 3000, bytes: 40_000_000, runs: 1 });
    const [off, on] = r.settings;
    assert.equal(off?.option, 'nodiscard');
    assert.equal(on?.option, 'discard');
    assert.equal(off.loopDiscards, 0, 'no discard reached the loop device without the option');
    assert.ok(on.loopDiscards! > 0, `${on.loopDiscards} discards reached it with the option`);
    for (const s of r.settings)
      assert.deepEqual(
        s.figures.map((f) => f.subject),
        ['write', 'delete'],
      );
    assert.ok(r.fstrim.bytes! > 0, 'fstrim found the deleted trees’ blocks to trim');
    assert.match(
      r.verdict,
      /^online discard costs -?\d+\.\d\d s per 3k-file delete here .*; a fstrim after 2 such trees took \d+\.\d\d s\. The seed's Intel 525 \(2013\): 1\.99 s per 45k-file delete/,
    );
    assert.deepEqual(readdirSync(folder), [], 'the loop file is gone');
    console.log(`# ${r.verdict}`);
  });
});
