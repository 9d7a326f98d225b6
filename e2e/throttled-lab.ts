// A loop device capped by the cgroup v1 blkio throttle: ground truth for the device-lab tests,
// the polkit lab and the benchmark scripts (the cap, not the host's drifting disk, sets the
// speed, so a tool that counts bytes and time right measures the cap). Optionally with ext4
// on it, for the write tests. Only processes inside the group are throttled: `wrap` and
// `joinGroup` put a program there (children inherit the group). Needs root, losetup and
// cgroup v1 blkio; `labUnavailable()` says why not.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const BLKIO = '/sys/fs/cgroup/blkio';

/** The 2011 laptop hard disk of seed-figures.md: 40 MB/s and 150 IOPS, each way. */
export const HDD_CAPS = { bytesPerSec: 40_000_000, iops: 150 } as const;

export interface LabCaps {
  bytesPerSec: number;
  iops: number;
  /** Cap writes too (default); false leaves writes free (read-only labs). */
  writes?: boolean;
}

export interface ThrottledLab {
  device: string;
  /** The lab's temporary folder (the image, the mount point, the wrappers); removed by tearDown. */
  dir: string;
  /** ext4 on the device, when asked for; null otherwise. */
  mountPoint: string | null;
  caps: LabCaps;
  /** A wrapper script that joins the capped cgroup, then becomes `program` with its arguments. */
  wrap(program: string): string;
  /** `sh -c` text that joins the capped cgroup, then execs `command` (already quoted). */
  joinGroup(command: string): string;
  tearDown(): void;
}

/** Why the lab cannot run here, or null when it can. */
export function labUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (loop devices and the blkio cgroup)';
  if (!existsSync(join(BLKIO, 'blkio.throttle.read_bps_device'))) return `needs cgroup v1 blkio with throttling at ${BLKIO}`;
  if (spawnSync('losetup', ['--version']).status !== 0) return 'needs losetup (util-linux)';
  return null;
}

function sh(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${(r.stderr || r.error?.message || '').trim()}`);
  return r.stdout.trim();
}

/**
 * The figure a tool must measure for I/Os of `blockSize` bytes: whichever cap binds first,
 * in I/Os per second (a 1 MiB stream hits the byte cap, 4 KiB random I/O the IOPS cap).
 */
export function expectedIops(caps: LabCaps, blockSize: number): number {
  return Math.min(caps.bytesPerSec / blockSize, caps.iops);
}

/**
 * Sets the lab up: an image of `sizeBytes` in a fresh temporary folder (sparse, unless `fill`
 * writes it), a loop device (losetup -f: never one another user holds), a cgroup named after
 * `name` and this pid, ext4 mounted when `filesystem` is set. Every step is undone by
 * tearDown, each on its own.
 */
export function setUpThrottledLab(opts: {
  name: string;
  sizeBytes: number;
  caps: LabCaps;
  filesystem: boolean;
  /** Writes the image's bytes (for a lab that checksums its device to prove nothing wrote it). */
  fill?: (image: string) => void;
}): ThrottledLab {
  const dir = mkdtempSync(join(tmpdir(), `${opts.name}-`));
  const image = join(dir, 'disk.img');
  let device = '';
  let mountPoint: string | null = null;
  let group = '';
  const tearDown = () => {
    if (mountPoint) spawnSync('umount', [mountPoint]);
    if (device) spawnSync('losetup', ['-d', device]);
    // The workers have exited, so the group is empty; allow the kernel a moment to notice.
    // A straggler (a process still dying) is moved to the root group, so the group always goes.
    for (let i = 0; group && i < 50 && existsSync(group); i++) {
      try {
        rmdirSync(group);
      } catch {
        for (const pid of readFileSync(join(group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
          try {
            writeFileSync(join(BLKIO, 'cgroup.procs'), pid);
          } catch {
            // gone meanwhile
          }
        }
        spawnSync('sleep', ['0.1']);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Sparse unless the caller fills it: the throttle, not the backing file, sets the speed.
    if (opts.fill) {
      writeFileSync(image, '');
      opts.fill(image);
    } else sh('truncate', ['-s', String(opts.sizeBytes), image]);
    device = sh('losetup', ['-f', '--show', image]);
    if (opts.filesystem) {
      sh('mkfs.ext4', ['-q', device]);
      mountPoint = join(dir, 'mnt');
      mkdirSync(mountPoint);
      sh('mount', [device, mountPoint]);
    }
    const majMin = readFileSync(`/sys/block/${basename(device)}/dev`, 'utf8').trim();
    group = join(BLKIO, `${opts.name}-${process.pid}`);
    mkdirSync(group);
    const limits: Array<[string, number]> = [
      ['read_bps', opts.caps.bytesPerSec],
      ['read_iops', opts.caps.iops],
    ];
    if (opts.caps.writes !== false) limits.push(['write_bps', opts.caps.bytesPerSec], ['write_iops', opts.caps.iops]);
    for (const [file, cap] of limits) {
      const path = join(group, `blkio.throttle.${file}_device`);
      writeFileSync(path, `${majMin} ${cap}`);
      if (!readFileSync(path, 'utf8').includes(`${majMin} ${cap}`)) throw new Error(`the kernel did not keep ${path}`);
    }
  } catch (error) {
    tearDown();
    throw error;
  }
  const joinGroup = (command: string) => `echo $$ > ${join(group, 'cgroup.procs')} || exit 8\nexec ${command}`;
  return {
    device,
    dir,
    mountPoint,
    caps: opts.caps,
    tearDown,
    joinGroup,
    wrap(program: string) {
      const wrapper = join(dir, `in-cgroup-${basename(program)}.sh`);
      writeFileSync(wrapper, `#!/bin/sh\n${joinGroup(`'${program}' "$@"`)}\n`);
      chmodSync(wrapper, 0o755);
      return wrapper;
    },
  };
}
