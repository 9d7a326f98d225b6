// The throwaway mapping's pieces that run without device-mapper: what it refuses, the
// cryptsetup command line, and the one rule that lets the worker write to a block device —
// only DiskDelta's own loop device over its own .diskdelta-crypt-* file (root + loop devices).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cryptsetupOpenArgs, sweepThrowawayFiles, sweepThrowaways, throwawayUnavailable } from './throwaway.ts';
import { FILE_PREFIX, isOwnThrowawayDevice } from '../system/throwaway-devices.ts';

const WORKER = fileURLToPath(new URL('../../../native/build/diskdelta-worker', import.meta.url));
const isRoot = process.getuid?.() === 0;

test('cryptsetup gets a plain mapping whose key it reads from /dev/urandom itself; flags become --perf-*; junk specs are refused', () => {
  const args = cryptsetupOpenArgs(
    { cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 4096, flags: ['no_read_workqueue', 'same_cpu_crypt'] },
    '/dev/loop7',
    'diskdelta-crypt-1-ab',
  );
  assert.deepEqual(args, [
    'open',
    '--type',
    'plain',
    '--cipher',
    'aes-xts-plain64',
    '--key-size',
    '512',
    '--sector-size',
    '4096',
    '--key-file',
    '/dev/urandom',
    '--keyfile-size',
    '64',
    '--perf-no_read_workqueue',
    '--perf-same_cpu_crypt',
    '/dev/loop7',
    'diskdelta-crypt-1-ab',
  ]);
  assert.throws(
    () => cryptsetupOpenArgs({ cipher: 'aes; rm -rf /', keyBits: 256, sectorBytes: 512, flags: [] }, '/dev/loop7', 'x'),
    /not a dm-crypt cipher spec/,
  );
});

test('without cryptsetup (or root, or device-mapper) the reason names what is missing and what still works', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'dd-nopath-'));
  const saved = process.env['PATH'];
  process.env['PATH'] = empty;
  try {
    const why = await throwawayUnavailable();
    assert.ok(why);
    assert.match(why, isRoot ? /cryptsetup is not installed/ : /needs root/);
    // The words fit the app too: the CLI's action line names `diskdelta ciphers` (failures.ts).
    assert.match(why, /the cipher ceilings and the forecast still work/);
  } finally {
    process.env['PATH'] = saved;
    rmSync(empty, { recursive: true, force: true });
  }
});

test('a kernel without a device-mapper driver is named, whatever /dev/mapper/control says (this host may have a stale node)', async (t) => {
  const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  if (!isRoot || !has('cryptsetup', ['--version']) || !has('losetup', ['--version'])) return t.skip('needs root, cryptsetup and losetup');
  const driver = has('dmsetup', ['version']);
  const why = await throwawayUnavailable();
  if (driver) assert.equal(why, null, 'the kernel has device-mapper: nothing is missing');
  else {
    assert.match(why ?? '', /no device-mapper \(dm-mod\)/);
    assert.match(why ?? '', /forecast still work/);
  }
});

test("the worker writes to a loop device only when its file is DiskDelta's own throwaway file", async (t) => {
  if (!isRoot) return t.skip('needs root for loop devices');
  const dir = mkdtempSync(join(tmpdir(), 'dd-own-'));
  const loops: string[] = [];
  t.after(() => {
    for (const l of loops) spawnSync('losetup', ['-d', l]);
    rmSync(dir, { recursive: true, force: true });
  });
  const attach = (name: string): string | null => {
    const file = join(dir, name);
    writeFileSync(file, Buffer.alloc(32 << 20));
    const r = spawnSync('losetup', ['-f', '--show', file], { encoding: 'utf8' });
    if (r.status !== 0) return null;
    loops.push(r.stdout.trim());
    return r.stdout.trim();
  };
  const own = attach(`${FILE_PREFIX}${process.pid}-test.img`);
  const foreign = attach('someone-elses.img');
  if (!own || !foreign) return t.skip('no free loop device');
  assert.equal(await isOwnThrowawayDevice(own), true);
  assert.equal(await isOwnThrowawayDevice(foreign), false);
  assert.equal(await isOwnThrowawayDevice('/dev/null'), false);
  const write = (dev: string) =>
    spawnSync(
      WORKER,
      [
        'run',
        '--target',
        dev,
        '--size',
        String(16 << 20),
        '--duration',
        '0.2', // the shortest window the worker takes (worker-options.ts)
        '--warmup',
        '0',
        '--job',
        'name=w,rw=write,bs=1048576,qd=1,threads=1',
      ],
      { encoding: 'utf8' },
    );
  const refused = write(foreign);
  assert.equal(refused.status, 2, refused.stdout);
  assert.match(refused.stdout, /refusing to write to the block device.*only its own throwaway/);
  const allowed = write(own);
  assert.equal(allowed.status, 0, allowed.stdout + allowed.stderr);
  assert.match(allowed.stdout, /"type":"result"/);
});

test("after a SIGKILL: the sweep detaches the loop of a dead owner and removes its file, says so, and leaves a live owner's and any other loop alone", async (t) => {
  if (!isRoot) return t.skip('needs root for loop devices');
  const dir = mkdtempSync(join(tmpdir(), 'dd-sweep-'));
  const loops: string[] = [];
  t.after(() => {
    for (const l of loops) spawnSync('losetup', ['-d', l]);
    rmSync(dir, { recursive: true, force: true });
  });
  // A pid that is certainly dead: a child that has exited.
  const dead = spawnSync('true').pid!;
  const attach = (name: string) => {
    const file = join(dir, name);
    writeFileSync(file, Buffer.alloc(1 << 20));
    const r = spawnSync('losetup', ['-f', '--show', file], { encoding: 'utf8' });
    if (r.status === 0) loops.push(r.stdout.trim());
    return { file, loop: r.status === 0 ? r.stdout.trim() : null };
  };
  const stale = attach(`${FILE_PREFIX}${dead}-dead.img`);
  const live = attach(`${FILE_PREFIX}${process.pid}-live.img`);
  const other = attach('not-ours.img');
  if (!stale.loop || !live.loop || !other.loop) return t.skip('no free loop devices');
  const said = await sweepThrowaways();
  assert.ok(
    said.some((s) => s === `detached the loop device ${stale.loop} left by a killed run (pid ${dead})`),
    said.join('\n'),
  );
  assert.ok(
    said.some((s) => s === `removed its file ${stale.file}`),
    said.join('\n'),
  );
  assert.equal(existsSync(stale.file), false);
  const listed = spawnSync('losetup', ['-a'], { encoding: 'utf8' }).stdout;
  assert.doesNotMatch(listed, new RegExp(`${dead}-dead`));
  assert.match(listed, new RegExp(`${process.pid}-live`), "a live owner's loop stays");
  assert.match(listed, /not-ours\.img/, "a loop that is not DiskDelta's stays");
  assert.ok(existsSync(live.file) && existsSync(other.file));
});

test(
  "the folder sweep removes only a dead run's own throwaway file: look-alikes of other shapes and owners stay",
  { skip: !isRoot && 'needs root (a file of another owner)' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-throwaway-sweep-'));
    try {
      const gone = 4194305; // above the kernel's largest pid: never running
      const name = (tail: string) => join(dir, `${FILE_PREFIX}${gone}-${tail}.img`);
      writeFileSync(name('0badc0de'), 'a killed run of ours');
      mkdirSync(name('0000000a'));
      writeFileSync(join(name('0000000a'), 'chapter1.tex'), 'a folder under our name');
      writeFileSync(name('0000000b'), 'another user’s');
      chownSync(name('0000000b'), 65534, 65534);
      writeFileSync(join(dir, 'notes'), 'the user’s');
      symlinkSync(join(dir, 'notes'), name('0000000c'));
      linkSync(join(dir, 'notes'), name('0000000d'));
      writeFileSync(name('my-thesis'), 'a look-alike name');
      const said = await sweepThrowawayFiles(dir);
      assert.deepEqual(said, [`removed ${name('0badc0de')} left by a killed run (pid ${gone})`]);
      assert.deepEqual(
        readdirSync(dir).sort(),
        ['0000000a', '0000000b', '0000000c', '0000000d', 'my-thesis']
          .map((t) => `${FILE_PREFIX}${gone}-${t}.img`)
          .concat('notes')
          .sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
