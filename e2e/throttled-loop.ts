// The device lab's ground truth, shared by its tests: a loop device whose reads the cgroup v1
// blkio throttle caps at a known rate, so a measured figure is known in advance and stable.
// Only processes inside the group are throttled: `joinGroup` is a shell prefix that moves
// the shell into it before it execs the command (children inherit the group).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const BLKIO = '/sys/fs/cgroup/blkio';

/** Why the lab cannot run here, or null when it can. */
export function labUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (loop devices and the blkio cgroup)';
  if (!existsSync(join(BLKIO, 'blkio.throttle.read_bps_device'))) return `needs cgroup v1 blkio with throttling at ${BLKIO}`;
  if (spawnSync('losetup', ['--version']).status !== 0) return 'needs losetup (util-linux)';
  return null;
}

export interface ThrottledLoop {
  device: string;
  /** The cgroup folder; `echo $$ > cgroup.procs` joins it. */
  group: string;
  dir: string;
  /** `sh -c` text that joins the group, then runs `command` (already quoted). */
  joinGroup(command: string): string;
  destroy(): void;
}

export interface ThrottleOptions {
  name: string;
  sizeBytes: number;
  readBps: number;
  readIops: number;
  /** Fill the backing file with this (else sparse: the throttle, not the data, sets the speed). */
  fill?: (path: string) => void;
}

/** A loop device with its throttle, or a reason string when this machine cannot make one. */
export function createThrottledLoop(options: ThrottleOptions): ThrottledLoop | string {
  const dir = mkdtempSync(join(tmpdir(), `diskdelta-${options.name}-`));
  const image = join(dir, 'disk.img');
  writeFileSync(image, '');
  if (options.fill) options.fill(image);
  else spawnSync('truncate', ['-s', String(options.sizeBytes), image]);
  const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
  if (l.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    // A container without /dev/loop-control, or every loop device taken: not a lab machine.
    return `losetup -f --show failed: ${l.stderr.trim()}`;
  }
  const device = l.stdout.trim();
  const majMin = readFileSync(`/sys/block/${basename(device)}/dev`, 'utf8').trim();
  const group = join(BLKIO, `diskdelta-${options.name}-${process.pid}`);
  let made = false;
  const destroy = () => {
    // Every step on its own: a failure in one must not leave the others behind.
    spawnSync('losetup', ['-d', device]);
    // The processes have exited, so the group is empty; allow the kernel a moment to notice.
    // A straggler (a process still dying) is moved to the root group, so the group always goes.
    for (let i = 0; i < 50 && made && existsSync(group); i++) {
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
    mkdirSync(group);
    made = true;
  } catch (error) {
    destroy();
    return `cannot create a blkio cgroup: ${(error as Error).message}`;
  }
  writeFileSync(join(group, 'blkio.throttle.read_bps_device'), `${majMin} ${options.readBps}`);
  writeFileSync(join(group, 'blkio.throttle.read_iops_device'), `${majMin} ${options.readIops}`);
  if (!readFileSync(join(group, 'blkio.throttle.read_bps_device'), 'utf8').includes(`${majMin} ${options.readBps}`)) {
    destroy();
    return 'the blkio throttle did not take the cap';
  }
  return {
    device,
    group,
    dir,
    joinGroup: (command) => `echo $$ > ${join(group, 'cgroup.procs')} || exit 8\nexec ${command}`,
    destroy,
  };
}
