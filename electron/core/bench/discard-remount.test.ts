// discard-cost --remount on a stand-in for the user's own filesystem: ext4 on a loop device whose
// file lies in /dev/shm (tmpfs punches holes, so the loop takes discards and counts them).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { runDiscardCostRemount } from './discard-remount.ts';
import { REMOUNT_RECORDS, sweepRemounts } from './remount-record.ts';

const unavailable =
  process.getuid?.() !== 0
    ? 'needs root (a loop device, mount, remount)'
    : !existsSync('/dev/shm')
      ? 'needs /dev/shm (a tmpfs for the backing file)'
      : ['losetup', 'mkfs.ext4', 'fstrim'].find((t) => spawnSync('which', [t]).status !== 0)
        ? 'needs losetup, mkfs.ext4 and fstrim (util-linux, e2fsprogs)'
        : null;

/** "The user's filesystem": ext4 on a loop device, mounted with `option`, with a folder in it (sparse: RAM only for what is written). */
function usersFilesystem(t: { after: (fn: () => void) => void }, option: 'discard' | 'nodiscard', bytes = 512 * 2 ** 20) {
  const dir = mkdtempSync(join('/dev/shm', 'dd-remount-'));
  const image = join(dir, 'disk.img');
  spawnSync('truncate', ['-s', String(bytes), image]);
  const device = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).stdout.trim();
  assert.match(device, /^\/dev\/loop\d+$/);
  assert.equal(spawnSync('mkfs.ext4', ['-q', '-E', 'nodiscard', device]).status, 0);
  const mountpoint = mkdtempSync(join(tmpdir(), 'dd-users-fs-'));
  const m = spawnSync('mount', ['-o', option, device, mountpoint], { encoding: 'utf8' });
  assert.equal(m.status, 0, m.stderr);
  const folder = join(mountpoint, 'home');
  mkdirSync(folder);
  t.after(() => {
    spawnSync('umount', [mountpoint]);
    spawnSync('losetup', ['-d', device]);
    rmSync(mountpoint, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  return { device, mountpoint, folder };
}

/** The discard setting the mount is in now, from /proc/self/mountinfo. */
function settingNow(mountpoint: string): 'discard' | 'nodiscard' | 'unmounted' {
  const line = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .findLast((l) => l.split(' ')[4] === mountpoint);
  if (!line) return 'unmounted';
  return /[ ,]discard(,|$| )/.test(line) ? 'discard' : 'nodiscard';
}

describe('discard-cost --remount', { skip: unavailable ?? false }, () => {
  it('measures the tree delete as mounted and remounted the other way, counts the discards, and puts the setting back', async (t) => {
    const fs = usersFilesystem(t, 'discard');
    const records = mkdtempSync(join(tmpdir(), 'dd-remount-records-'));
    t.after(() => rmSync(records, { recursive: true, force: true }));
    const r = await runDiscardCostRemount(fs.folder, { files: 2000, bytes: 20_000_000, runs: 1, recordDir: records });
    assert.deepEqual(
      r.settings.map((s) => s.option),
      ['nodiscard', 'discard'],
    );
    const [off, on] = r.settings;
    assert.equal(off!.countedOn, `loop ${fs.device.replace('/dev/', '')}`);
    assert.equal(off!.discards, 0, 'no discard reached the device while remounted nodiscard');
    assert.ok(on!.discards! > 0, `${on!.discards} discards reached it as mounted (discard)`);
    for (const s of r.settings)
      assert.deepEqual(
        s.figures.map((f) => f.subject),
        ['write', 'delete'],
      );
    assert.equal(settingNow(fs.mountpoint), 'discard', 'put back as it was');
    assert.deepEqual(readdirSync(records), [], 'the remount record is removed once the setting is back');
    assert.match(
      r.verdict,
      new RegExp(`Measured on ${fs.mountpoint} itself \\(${fs.device}\\), remounted nodiscard and put back to discard\\.$`),
    );
    assert.deepEqual(readdirSync(fs.folder), [], 'the trees are gone');
  });

  it('refuses a filesystem it cannot remount that way (tmpfs), saying what works instead', async () => {
    await assert.rejects(runDiscardCostRemount('/dev/shm', { runs: 1 }), {
      code: 'target-unusable',
      message: /\/dev\/shm is on tmpfs: --remount changes the discard option of ext4 only; leave it out to measure on a scratch ext4/,
    });
  });

  it(
    'SIGKILL while remounted: the next run puts the setting back and says so; an unreadable record is dropped',
    { timeout: 300_000 },
    async (t) => {
      // Room for the CLI's seed-sized tree (592 MB as 45,168 files).
      const fs = usersFilesystem(t, 'nodiscard', 2 * 2 ** 30);
      const cli = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));
      const child = spawn(process.execPath, [cli, 'discard-cost', fs.folder, '--remount', '--runs', '1'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      t.after(() => child.kill('SIGKILL'));
      // Wait for the remount (after the first setting's passes), then kill the process that recorded it.
      let owner: number | null = null;
      while (owner === null && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 100));
        if (settingNow(fs.mountpoint) !== 'discard') continue;
        for (const name of readdirSync(REMOUNT_RECORDS)) {
          const record = JSON.parse(readFileSync(join(REMOUNT_RECORDS, name), 'utf8')) as { pid: number; mountPoint: string };
          if (record.mountPoint === fs.mountpoint) owner = record.pid;
        }
      }
      assert.ok(owner, `the run remounted the filesystem with discard and recorded it; it said: ${stderr}`);
      process.kill(owner, 'SIGKILL');
      while (existsSync(`/proc/${owner}`)) await new Promise((r) => setTimeout(r, 50));
      assert.equal(settingNow(fs.mountpoint), 'discard', 'left remounted by the kill');
      writeFileSync(join(REMOUNT_RECORDS, 'remount-999999999.json'), '{"pid": 9');
      const said = await sweepRemounts();
      assert.ok(
        said.includes(`put ${fs.mountpoint} back to nodiscard, as it was before a killed run (pid ${owner}) remounted it`),
        said.join('\n'),
      );
      assert.ok(said.includes(`dropped the unreadable remount record ${REMOUNT_RECORDS}/remount-999999999.json`), said.join('\n'));
      assert.equal(settingNow(fs.mountpoint), 'nodiscard');
      assert.ok(!readdirSync(REMOUNT_RECORDS).some((n) => n.includes(String(owner)) || n.includes('999999999')));
    },
  );
});
