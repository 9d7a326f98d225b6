// The TRIM audit on a real stack: ext4 on a loop device whose backing file lies in memory
// (tmpfs punches holes, so the loop takes discards; nobody else's discards reach it). Mounted
// with `discard`, the delete alone reaches the loop; without it, only fstrim does.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runDiscardCost, sweepDiscardScratch } from './discard-cost.ts';
import { loopName, scratchExt4, scratchUnavailable } from './fixtures/scratch-ext4.ts';
import { parseFstrimBytes, runTrimAudit, trimAuditText } from './trim-audit.ts';

/** The audit's view of a scratch ext4: its loop device by kernel name. */
function scratch(t: { after: (fn: () => void) => void }) {
  const s = scratchExt4(t);
  return { ...s, device: loopName(s) };
}

describe('TRIM audit on a loop device', { skip: scratchUnavailable ?? false }, () => {
  it('mounted with discard: the delete alone reaches the loop device (counters), and the verdict says so', async (t) => {
    const s = scratch(t);
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
    const s = scratch(t);
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

describe('discard on vs off on a scratch ext4 in a loop file', { skip: scratchUnavailable ?? false }, () => {
  it('the tree delete with and without discard: both timed, the loop device’s counters prove discards only with it; fstrim timed', async (t) => {
    const folder = mkdtempSync(join('/dev/shm', 'dd-discard-cost-'));
    t.after(() => rmSync(folder, { recursive: true, force: true }));
    const r = await runDiscardCost(folder, { files: 3000, bytes: 40_000_000, runs: 1 });
    const [off, on] = r.settings;
    assert.equal(off?.option, 'nodiscard');
    assert.equal(on?.option, 'discard');
    assert.equal(off.discards, 0, 'no discard reached the loop device without the option');
    assert.ok(on.discards! > 0, `${on.discards} discards reached it with the option`);
    for (const s of r.settings)
      assert.deepEqual(
        s.figures.map((f) => f.subject),
        ['write', 'delete'],
      );
    assert.ok(r.fstrim.bytes! > 0, 'fstrim found the deleted trees’ blocks to trim');
    assert.match(
      r.verdict,
      /^online discard costs (nothing|\d+\.\d{2,3} s) per 3k-file delete here \(.*\); one run each: no range to tell a cost from noise \(--runs 3\); a fstrim after 2 such trees took \d+\.\d{2,3} s\. The seed's Intel 525 \(2013\): 1\.99 s per 45k-file delete/,
    );
    assert.deepEqual(readdirSync(folder), [], 'the loop file is gone');
    console.log(`# ${r.verdict}`);
  });
});

/** A scratch filesystem as a discard-cost run of process PID makes it: named image, loop, mount. */
function scratchOf(pid: number, folder: string) {
  const image = join(folder, `.diskdelta-${pid}-discard-cost.tmp`);
  spawnSync('truncate', ['-s', String(64 * 2 ** 20), image]);
  const device = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).stdout.trim();
  assert.match(device, /^\/dev\/loop\d+$/);
  assert.equal(spawnSync('mkfs.ext4', ['-q', device]).status, 0);
  const mountpoint = mkdtempSync(join(tmpdir(), `diskdelta-discard-${pid}-`));
  assert.equal(spawnSync('mount', [device, mountpoint]).status, 0);
  return { image, device, mountpoint };
}

const isMounted = (point: string) => readFileSync('/proc/self/mounts', 'utf8').includes(` ${point} `);
const loopOf = (image: string) => spawnSync('losetup', ['-j', image], { encoding: 'utf8' }).stdout.trim();

describe('what a killed discard-cost run leaves', { skip: scratchUnavailable ?? false }, () => {
  it('the next run unmounts, detaches and removes a scratch filesystem whose owner is gone, and keeps one whose owner runs', async (t) => {
    const folder = mkdtempSync(join('/dev/shm', 'dd-discard-left-'));
    const owner = spawn('sleep', ['600']);
    const gone = spawnSync('true').pid!;
    const dead = scratchOf(gone, folder);
    const live = scratchOf(owner.pid!, folder);
    t.after(() => {
      owner.kill();
      for (const s of [dead, live]) {
        spawnSync('umount', [s.mountpoint]);
        spawnSync('losetup', ['-d', s.device]);
        rmSync(s.mountpoint, { recursive: true, force: true });
      }
      rmSync(folder, { recursive: true, force: true });
    });
    // The sweep is machine-wide: other killed runs' leftovers may be said too.
    const said = await sweepDiscardScratch();
    const ours = said.filter((line) => line.includes(folder));
    assert.equal(ours.length, 1, said.join('\n'));
    assert.match(
      ours[0]!,
      new RegExp(`removed the scratch filesystem ${dead.device}, unmounted from ${dead.mountpoint}, .*\\(pid ${gone}\\)`),
    );
    assert.equal(isMounted(dead.mountpoint), false);
    assert.equal(existsSync(dead.mountpoint), false, 'its mount point is removed');
    assert.equal(loopOf(dead.image), '', 'its loop device is detached');
    assert.equal(existsSync(dead.image), false, 'its file is removed');
    assert.equal(isMounted(live.mountpoint), true, 'a running owner keeps its filesystem');
    assert.notEqual(loopOf(live.image), '');
  });

  it(
    'Ctrl-C/SIGTERM during `diskdelta discard-cost`: exit 7 (interrupted), nothing left mounted or attached',
    { timeout: 120_000 },
    async (t) => {
      const folder = mkdtempSync(join('/dev/shm', 'dd-discard-stop-'));
      t.after(() => rmSync(folder, { recursive: true, force: true }));
      const cli = fileURLToPath(new URL('../../../../bin/diskdelta.js', import.meta.url));
      const child = spawn(process.execPath, [cli, 'discard-cost', folder, '--runs', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const image = join(folder, `.diskdelta-${child.pid}-discard-cost.tmp`);
      // Stop it once its scratch filesystem is mounted: the state a Ctrl-C must unwind.
      let mountpoint: string | undefined;
      while (!mountpoint && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 50));
        const device = loopOf(image).split(':')[0];
        const line = readFileSync('/proc/self/mounts', 'utf8')
          .split('\n')
          .find((l) => device && l.startsWith(`${device} `));
        mountpoint = line?.split(' ')[1];
      }
      assert.ok(mountpoint, `the run mounted its scratch filesystem before it ended: ${stderr}`);
      child.kill('SIGTERM');
      assert.equal(await exited, 7, stderr);
      assert.match(stderr, /stopped: the scratch filesystem is removed/);
      assert.equal(isMounted(mountpoint), false);
      assert.equal(existsSync(mountpoint), false);
      assert.equal(loopOf(image), '');
      assert.deepEqual(readdirSync(folder), []);
    },
  );
});
