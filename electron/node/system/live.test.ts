// Live checks on this machine, through the real `diskdelta` command: the device lab has
// vda (virtio disk), zram0 and loop devices. Loop tests need root and losetup/mkfs.ext4;
// they skip with the reason elsewhere. Every mount and loop made here is undone in `after`,
// also when a test fails.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { InspectReport } from './describe.ts';
import { systemOverview } from '../api/system-port.ts';
import type { BlockDeviceInfo } from '../../shared/model/machine.ts';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));

function diskdelta(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return diskdeltaIn(process.cwd(), ...args);
}

function diskdeltaIn(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  // A bound against a hung CLI, not a speed check: a run may first wait (minutes) for another
  // DiskDelta process measuring the same disk, such as a second test suite on this machine.
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 15 * 60_000, cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function hasTool(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

const isRoot = process.getuid?.() === 0;
const loopSkip = !isRoot
  ? 'needs root to attach a loop device and mount it'
  : !hasTool('losetup') || !hasTool('mkfs.ext4')
    ? 'needs losetup and mkfs.ext4 (util-linux, e2fsprogs)'
    : !existsSync('/sys/module/loop')
      ? 'the kernel has no loop driver'
      : null;

test('inspect /dev/shm: tmpfs, no disk, and the O_DIRECT warning', (t) => {
  if (!existsSync('/dev/shm')) return t.skip('no /dev/shm on this machine');
  const r = diskdelta('inspect', '/dev/shm', '--json');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as InspectReport;
  const mount = report.target.stack!.find((l) => l.kind === 'mount')!;
  assert.equal(mount.details.fsType, 'tmpfs');
  const warning = report.warnings.find((w) => w.code === 'fs-in-memory');
  assert.ok(warning, JSON.stringify(report.warnings));
  assert.match(warning.message, /O_DIRECT/);
  assert.equal(report.target.device, undefined);
  // Named as zram is on the Disks card: RAM, not "unknown".
  assert.equal(report.deviceClass, 'RAM');
  // The human form says the same.
  const text = diskdelta('inspect', '/dev/shm');
  assert.match(text.stdout, /tmpfs/);
  assert.match(text.stdout, /\[fs-in-memory\].*O_DIRECT/);
  // Why a fact is unknown, in words: "online discard", never the model's key "onlineDiscard".
  assert.match(text.stdout, /\/dev\/shm online discard: tmpfs has no discard option/);
  assert.doesNotMatch(text.stdout, /\b[a-z]+[A-Z]\w*\b/, 'no camelCase keys');
  // A relative PATH is taken from the working folder.
  const relative = JSON.parse(diskdeltaIn('/dev', 'inspect', 'shm', '--json').stdout) as InspectReport;
  assert.equal(relative.target.stack![0]!.name, '/dev/shm');
  assert.equal(relative.target.stack![1]!.details.fsType, 'tmpfs');
});

test('devices --json: vda is a virtual (virtio) disk, zram0 a RAM disk', (t) => {
  if (!existsSync('/sys/block/vda') || !existsSync('/sys/block/zram0'))
    return t.skip('vda and zram0 exist only on the device lab machines');
  const r = diskdelta('devices', '--json');
  assert.equal(r.status, 0, r.stderr);
  const byName = new Map((JSON.parse(r.stdout) as BlockDeviceInfo[]).map((d) => [d.name, d]));
  assert.equal(byName.get('vda')?.class, 'virtual');
  assert.equal(byName.get('vda')?.transport, 'virtio');
  assert.equal(byName.get('vda')?.linkCeilingBytesPerSec, null);
  assert.match(byName.get('vda')?.reasons?.link ?? '', /virtual machine/);
  assert.equal(byName.get('zram0')?.class, 'RAM');
  assert.equal(byName.get('zram0')?.transport, 'zram');
  assert.match(diskdelta('devices').stdout, /^vda\s+virtual\s+virtio/m);
});

test('inspect without a PATH is a usage error (exit 2)', () => {
  const r = diskdelta('inspect');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /PATH/);
});

describe('loop-mounted ext4', () => {
  let work = '';
  let image = '';
  let mountPoint = '';
  let loop: string | null = null;
  let mounted = false;

  before(() => {
    if (loopSkip) return;
    work = mkdtempSync(path.join(tmpdir(), 'diskdelta-live-'));
    image = path.join(work, 'disk.img');
    mountPoint = path.join(work, 'mnt');
    mkdirSync(mountPoint);
    execFileSync('truncate', ['-s', '64M', image]);
    execFileSync('mkfs.ext4', ['-q', '-F', image]);
    loop = execFileSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).trim();
  });

  after(() => {
    if (mounted) spawnSync('umount', [mountPoint]);
    if (loop) spawnSync('losetup', ['-d', loop]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const mountWith = (options: string[]) => {
    if (mounted) {
      execFileSync('umount', [mountPoint]);
      mounted = false;
    }
    execFileSync('mount', [...options, loop!, mountPoint]);
    mounted = true;
    mkdirSync(path.join(mountPoint, 'folder'), { recursive: true });
  };

  test('devices --json lists the attached loop with class loop and its backing file', (t) => {
    if (loopSkip) return t.skip(loopSkip);
    const r = diskdelta('devices', '--json');
    assert.equal(r.status, 0, r.stderr);
    const devices = JSON.parse(r.stdout) as BlockDeviceInfo[];
    const byName = new Map(devices.map((d) => [d.name, d]));
    const name = path.basename(loop!);
    assert.equal(byName.get(name)?.class, 'loop');
    assert.equal(byName.get(name)?.transport, 'loop');
    assert.equal(byName.get(name)?.loopBackingFile, image);
    assert.equal(byName.get(name)?.sizeBytes, 64 * 2 ** 20);
  });

  test('inspect on the loop device itself: a block-device target with no mount of its own', (t) => {
    if (loopSkip) return t.skip(loopSkip);
    const r = diskdelta('inspect', loop!, '--json');
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as InspectReport;
    assert.equal(report.target.kind, 'block-device');
    assert.deepEqual(
      report.target.stack!.slice(0, 3).map((l) => l.kind),
      ['file', 'loop', 'file'],
    );
    // The mount further down holds the backing file; it is not the target's filesystem.
    assert.equal(report.trim.onlineDiscard, null);
  });

  test('mounted with -o discard: loop + backing file, online discard on', (t) => {
    if (loopSkip) return t.skip(loopSkip);
    mountWith(['-o', 'discard']);
    const r = diskdelta('inspect', path.join(mountPoint, 'folder'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as InspectReport;
    const layers = report.target.stack!;
    assert.equal(report.target.kind, 'folder');
    const mount = layers.find((l) => l.kind === 'mount')!;
    assert.equal(mount.name, mountPoint);
    assert.equal(mount.details.fsType, 'ext4');
    assert.equal(mount.details.onlineDiscard, 'on');
    assert.equal(report.trim.onlineDiscard, 'on');
    const loopLayer = layers.find((l) => l.kind === 'loop')!;
    assert.equal(loopLayer.name, path.basename(loop!));
    assert.equal(loopLayer.details.backingFile, image);
    // Below the loop: the backing file, the filesystem holding it, and a disk.
    const afterLoop = layers.slice(layers.indexOf(loopLayer) + 1).map((l) => l.kind);
    assert.equal(afterLoop[0], 'file');
    assert.ok(afterLoop.includes('mount') && afterLoop.at(-1) === 'disk', afterLoop.join(' → '));
    const text = diskdelta('inspect', path.join(mountPoint, 'folder'));
    assert.match(text.stdout, new RegExp(`backing file ${image.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(text.stdout, /online discard: on/);
  });

  // Once both showed DEVICE "vda": a run through a loop device names the loop (and, in the run's
  // own header, its backing file) as well as the disk beneath.
  test('a run on the loop filesystem and one on the disk under it: list and the run header tell them apart', (t) => {
    if (loopSkip) return t.skip(loopSkip);
    mountWith([]);
    const db = path.join(work, 'library.sqlite');
    const small = ['--tests', 'seq1m-q1t1-read', '--size', '16MiB', '--duration', '0.2', '--warmup', '0', '--runs', '1', '--db', db];
    const onLoop = diskdelta('run', '--target', path.join(mountPoint, 'folder'), '--label', 'on loop', ...small);
    assert.equal(onLoop.status, 0, onLoop.stderr);
    const below = diskdelta('run', '--target', work, '--label', 'below', ...small);
    assert.equal(below.status, 0, below.stderr);
    const name = path.basename(loop!);
    const disk = JSON.parse(diskdelta('inspect', work, '--json').stdout) as InspectReport;
    const diskText = disk.target.device ? (disk.target.device.model ?? disk.target.device.name) : '—';
    const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(onLoop.stdout, new RegExp(`\\(${name} \\(file ${escape(image)}\\) on ${escape(diskText)}, `));
    const list = diskdelta('list', '--db', db).stdout.split('\n');
    assert.match(list.find((l) => l.includes('on loop')) ?? '', new RegExp(`\\s${name} on ${escape(diskText)}\\s`));
    assert.match(list.find((l) => l.includes('below')) ?? '', new RegExp(`\\s${escape(diskText)}\\s+\\d+\\s`));
  });

  test('mounted without discard: online discard off', (t) => {
    if (loopSkip) return t.skip(loopSkip);
    mountWith([]);
    const r = diskdelta('inspect', path.join(mountPoint, 'folder'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as InspectReport;
    assert.equal(report.trim.onlineDiscard, 'off');
    assert.equal(report.target.stack!.find((l) => l.kind === 'mount')!.details.onlineDiscard, 'off');
    // The class `devices` gives the loop device (and Overview's Disks card), not the disk under its file.
    assert.equal(report.deviceClass, 'loop');
    assert.match(diskdelta('inspect', path.join(mountPoint, 'folder')).stdout, /^Class +loop$/m);
    assert.ok(report.target.stack!.some((l) => l.kind === 'loop' && l.details.backingFile === image));
  });

  // Overview's mounts table said "unknown" for a filesystem on a loop device beside a Disks card
  // saying "loop": both come from the same naming now.
  test("Overview's mounts table names the loop mount's class as its Disks card names the loop device", async (t) => {
    if (loopSkip) return t.skip(loopSkip);
    mountWith([]);
    const overview = await systemOverview();
    const row = overview.mounts.find((m) => m.path === mountPoint);
    if (!row && overview.mounts.length >= 24) return t.skip('the table shows 24 mounts and this machine has more: ours is not among them');
    assert.ok(row, `${mountPoint} is not among the mounts the table shows`);
    assert.equal(row.diskClass, 'loop');
    const card = (JSON.parse(diskdelta('devices', '--json').stdout) as BlockDeviceInfo[]).find((d) => d.name === path.basename(loop!));
    assert.equal(card?.class, row.diskClass);
  });
});
