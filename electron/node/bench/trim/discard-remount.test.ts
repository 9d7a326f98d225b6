// discard-cost --remount on a stand-in for the user's own filesystem: ext4 on a loop device whose
// file lies in /dev/shm (tmpfs punches holes, so the loop takes discards and counts them).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { runDiscardCostRemount } from './discard-remount.ts';
import { inspectPath } from '../../system/index.ts';
import { runCli } from '../../../cli/run-cli-in-process.ts';
import { openMount, remount, REMOUNT_RECORDS, sweepRemounts } from './remount-record.ts';
import { folderIn, scratchExt4, scratchUnavailable } from './fixtures/scratch-ext4.ts';
import { isStillOwn, ownProcess, signalOwn, type OwnProcess } from '../../../../scripts/own-process.ts';

/** "The user's filesystem": a scratch ext4 mounted with `option`, with a folder in it. */
function usersFilesystem(t: { after: (fn: () => void) => void }, option: 'discard' | 'nodiscard', bytes?: number) {
  const s = scratchExt4(t, bytes);
  s.mount(option);
  return { device: s.device, mountpoint: s.mountpoint, folder: folderIn(s) };
}

/** The discard setting the mount is in now, from /proc/self/mountinfo. */
function settingNow(mountpoint: string): 'discard' | 'nodiscard' | 'unmounted' {
  const line = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .findLast((l) => l.split(' ')[4] === mountpoint);
  if (!line) return 'unmounted';
  return /[ ,]discard(,|$| )/.test(line) ? 'discard' : 'nodiscard';
}

/** Mounts each scratch device at its path (made), runs `body`, then unmounts them and removes `dir`. */
async function mountedAt(dir: string, mounts: [string, string][], body: () => Promise<void>): Promise<void> {
  try {
    for (const [device, point] of mounts) {
      mkdirSync(point, { recursive: true });
      const m = spawnSync('mount', ['-o', 'nodiscard', device, point], { encoding: 'utf8' });
      assert.equal(m.status, 0, m.stderr);
    }
    await body();
  } finally {
    // By the real paths only (a symlink swapped in would lead umount elsewhere), innermost first.
    const under = () =>
      readFileSync('/proc/self/mountinfo', 'utf8')
        .split('\n')
        .map((l) => l.split(' ')[4] ?? '')
        .filter((p) => p.startsWith(dir + '/'))
        .reverse();
    for (const point of under()) spawnSync('umount', [point]);
    for (const point of under()) spawnSync('umount', ['--lazy', point]);
    if (under().length === 0) rmSync(dir, { recursive: true, force: true });
  }
}

describe('discard-cost --remount', { skip: scratchUnavailable ?? false }, () => {
  it('remounts the mount it opened, even when a folder above its mount point is swapped for a symlink before the remount', async (t) => {
    const a = scratchExt4(t, 64 * 2 ** 20);
    const b = scratchExt4(t, 64 * 2 ** 20);
    const dir = mkdtempSync(join(tmpdir(), 'dd-remount-swap-'));
    const away = join(dir, 'a-away');
    await mountedAt(
      dir,
      [
        [a.device, join(dir, 'a', 'mnt')],
        [b.device, join(dir, 'b', 'mnt')],
      ],
      async () => {
        const mount = await openMount(join(dir, 'a', 'mnt'));
        assert.ok(mount, 'opened, and the root of the mount listed there');
        try {
          // Whoever may write to DIR swaps DIR/a for a symlink to a folder with another mount at mnt.
          renameSync(join(dir, 'a'), away);
          symlinkSync(join(dir, 'b'), join(dir, 'a'));
          await remount(mount, 'discard');
          assert.equal(settingNow(join(away, 'mnt')), 'discard', 'the mount opened first was remounted');
          assert.equal(settingNow(join(dir, 'b', 'mnt')), 'nodiscard', 'the mount the path leads to now was left alone');
          await remount(mount, 'nodiscard');
          assert.equal(settingNow(join(away, 'mnt')), 'nodiscard', 'and put back, there too');
        } finally {
          mount.close();
        }
      },
    );
  });

  it("the sweep refuses to put back a killed run's setting when its mount point no longer leads to the recorded mount", async (t) => {
    const a = scratchExt4(t, 64 * 2 ** 20);
    const dir = mkdtempSync(join(tmpdir(), 'dd-remount-swap-'));
    const point = join(dir, 'a', 'mnt');
    const records = mkdtempSync(join(tmpdir(), 'dd-remount-records-'));
    t.after(() => rmSync(records, { recursive: true, force: true }));
    await mountedAt(dir, [[a.device, point]], async () => {
      // A killed run's remount, and its record; then the path is made to lead elsewhere while
      // mountinfo still lists the recorded mount there (another filesystem mounted over DIR/a).
      assert.equal(spawnSync('mount', ['-o', 'remount,discard', point]).status, 0);
      const record = join(records, 'remount-999999997.json');
      writeFileSync(record, JSON.stringify({ pid: 999_999_997, mountPoint: point, source: a.device, original: 'nodiscard' }));
      assert.equal(spawnSync('mount', ['-t', 'tmpfs', 'dd-over', join(dir, 'a')]).status, 0);
      mkdirSync(point);
      const said = await sweepRemounts(records);
      assert.deepEqual(said, [
        `refused to put ${point} back to nodiscard for a killed run (pid 999999997): that path no longer leads to the filesystem it remounted (${a.device}); the record ${record} stays`,
      ]);
      assert.ok(existsSync(record), 'kept, for a later run or the user');
      spawnSync('umount', [join(dir, 'a')]);
      assert.equal(settingNow(point), 'discard', 'not remounted');
    });
  });

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
    // The user's own disk: others' discards count too, and the result says so.
    assert.deepEqual(
      r.warnings.map((w) => w.code),
      ['shared-counters'],
    );
    assert.match(r.warnings[0]!.message, new RegExp(`counted on loop ${fs.device.replace('/dev/', '')}, which other programs use too`));
    assert.equal(r.where.mode, 'remount');
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
    // The seed's second case on the user's own filesystem: the big file under each setting, scaled
    // down to the room the folder has (the seed's 3 GB by default) and said so.
    const [bigOff, bigOn] = r.bigfile.settings;
    assert.deepEqual([bigOff?.option, bigOn?.option], ['nodiscard', 'discard'], 'told without, then with');
    for (const s of [bigOff!, bigOn!]) assert.ok((s.figures.find((f) => f.subject === 'delete')?.value ?? 0) > 0, `${s.option}: timed`);
    assert.equal(bigOff!.discards, 0, 'the big file: no discard while remounted nodiscard');
    assert.ok(bigOn!.discards! > 0, `the big file: ${bigOn!.discards} discards as mounted (discard)`);
    assert.match(r.bigfile.scaled ?? '', new RegExp(`scaled down from the 3,000 MB asked: ${fs.mountpoint} had [\\d,]+ MB free`));
  });

  it('refuses a filesystem it cannot remount that way (tmpfs), saying what works instead', async () => {
    await assert.rejects(runDiscardCostRemount('/dev/shm', { runs: 1 }), {
      code: 'target-unusable',
      message: /\/dev\/shm is on tmpfs: --remount changes the discard option of ext4 only; leave it out to measure on a scratch ext4/,
    });
  });

  it("a remount a killed run left is said everywhere: inspect and a run's stack call it DiskDelta's, and the next discard-cost says it put it back even when it is stopped", async (t) => {
    const fs = usersFilesystem(t, 'nodiscard');
    // What a discard-cost run SIGKILLed while remounted leaves: the mount with discard, and its record.
    const deadPid = 999_999_998;
    const record = join(REMOUNT_RECORDS, `remount-${deadPid}.json`);
    mkdirSync(REMOUNT_RECORDS, { recursive: true, mode: 0o700 });
    t.after(() => rmSync(record, { force: true }));
    const source = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .findLast((l) => l.split(' ')[4] === fs.mountpoint)!
      .split(' - ')[1]!
      .split(' ')[1]!;
    writeFileSync(record, JSON.stringify({ pid: deadPid, mountPoint: fs.mountpoint, source, original: 'nodiscard' }));
    spawnSync('mount', ['-o', 'remount,discard', fs.mountpoint]);
    assert.equal(settingNow(fs.mountpoint), 'discard');

    const seen = await inspectPath(fs.folder);
    assert.equal(seen.trim.onlineDiscard, 'on');
    assert.match(
      seen.trim.onlineDiscardNote ?? '',
      new RegExp(`not your setting: DiskDelta's discard-cost \\(pid ${deadPid}\\) remounted it; yours is off`),
    );
    assert.match(seen.trim.onlineDiscardNote ?? '', /killed before it could put it back: the next `diskdelta discard-cost` puts it back/);
    assert.ok(
      seen.warnings.some((w) => w.code === 'discard-remounted'),
      'a warning, which a run keeps in its record',
    );
    const inspect = await runCli(['inspect', fs.folder]);
    assert.match(inspect.stdout, /online discard: on \(DiskDelta's, not yours: see the warning\)/);
    assert.match(inspect.stdout, /\[discard-remounted\] online discard on on .* is not your setting/);

    // The next discard-cost, stopped at once: the setting is put back first, and that is said.
    const said: string[] = [];
    const stopped = new AbortController();
    stopped.abort();
    await assert.rejects(
      runDiscardCostRemount(fs.folder, { files: 200, bytes: 2_000_000, runs: 1, signal: stopped.signal, onCleaned: (l) => said.push(l) }),
      { code: 'interrupted' },
    );
    assert.equal(settingNow(fs.mountpoint), 'nodiscard', 'put back');
    assert.ok(
      said.includes(`put ${fs.mountpoint} back to nodiscard, as it was before a killed run (pid ${deadPid}) remounted it`),
      said.join('\n'),
    );
    assert.equal(existsSync(record), false);
  });

  it(
    'SIGKILL while remounted: the next run puts the setting back and says so; an unreadable record is dropped',
    { timeout: 300_000 },
    async (t) => {
      // Room for the CLI's seed-sized tree (592 MB as 45,168 files).
      const fs = usersFilesystem(t, 'nodiscard', 2 * 2 ** 30);
      const cli = fileURLToPath(new URL('../../../../bin/diskdelta.js', import.meta.url));
      const child = spawn(process.execPath, [cli, 'discard-cost', fs.folder, '--remount', '--runs', '1'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      t.after(() => child.kill('SIGKILL'));
      // Wait for the remount (after the first setting's passes), then kill the process that recorded it.
      let owner: number | null = null;
      let recorder: OwnProcess | null = null;
      while (owner === null && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 100));
        if (settingNow(fs.mountpoint) !== 'discard') continue;
        for (const name of readdirSync(REMOUNT_RECORDS)) {
          const record = JSON.parse(readFileSync(join(REMOUNT_RECORDS, name), 'utf8')) as { pid: number; mountPoint: string };
          if (record.mountPoint === fs.mountpoint) [owner, recorder] = [record.pid, ownProcess(record.pid)];
        }
      }
      assert.ok(owner, `the run remounted the filesystem with discard and recorded it; it said: ${stderr}`);
      // By pid, so only while it is still the process that wrote the record (scripts/own-process.ts).
      assert.ok(signalOwn(recorder, 'SIGKILL'), `the recording process ${owner} still ran`);
      for (let i = 0; i < 600 && isStillOwn(recorder!); i++) await new Promise((r) => setTimeout(r, 50));
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
