// The cgroup v1 blkio throttles set on a block device (blkio.throttle.{read,write}_{bps,iops}_device
// of any group under /sys/fs/cgroup/blkio): a device capped at 40 MB/s and 150 IOPS measures as
// that cap, not as its disk, so a run on it must say so (the device lab's "HDD" is such a loop).
// A throttle caps only the processes in its group (and the groups below it): the caps named as
// the run's are those of the measuring process's group (this process's; its worker inherits it)
// or a group above it; another group's caps are named as another group's, never as the run's
// (issue 40 item 4: "throttled: read 100 MB/s (blkio group /B)" on a run in /A that measured
// 5,425 MB/s).
import { readdir } from 'node:fs/promises';
import { inRoot, readText } from './sysfs.ts';

const BLKIO = '/sys/fs/cgroup/blkio';
const FILES = ['read_bps', 'write_bps', 'read_iops', 'write_iops'] as const;
/** One of a group's throttle files, as the kernel names them. */
export const throttleFile = (cap: (typeof FILES)[number]): string => `blkio.throttle.${cap}_device`;
/** Groups nested deeper than this are not looked in (systemd's slices are 2–3 deep). */
const MAX_DEPTH = 4;

export interface BlkioThrottle {
  /** The group's path under the blkio hierarchy, "/" for its root. */
  group: string;
  readBps: number | null;
  writeBps: number | null;
  readIops: number | null;
  writeIops: number | null;
}

/** Every blkio group that throttles device MAJ:MIN; [] without cgroup v1 blkio or any cap. */
export async function blkioThrottles(root: string, majMin: string): Promise<BlkioThrottle[]> {
  const found: BlkioThrottle[] = [];
  const visit = async (group: string, depth: number): Promise<void> => {
    const dir = group === '/' ? BLKIO : `${BLKIO}${group}`;
    const caps: Partial<Record<(typeof FILES)[number], number>> = {};
    for (const file of FILES) {
      const text = (await readText(root, `${dir}/${throttleFile(file)}`)).value ?? '';
      for (const line of text.split('\n')) {
        const [dev, value] = line.trim().split(/\s+/);
        if (dev === majMin && value !== undefined && Number(value) > 0) caps[file] = Number(value);
      }
    }
    if (Object.keys(caps).length > 0)
      found.push({
        group,
        readBps: caps.read_bps ?? null,
        writeBps: caps.write_bps ?? null,
        readIops: caps.read_iops ?? null,
        writeIops: caps.write_iops ?? null,
      });
    if (depth >= MAX_DEPTH) return;
    const entries = await readdir(inRoot(root, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isDirectory()) await visit(`${group === '/' ? '' : group}/${e.name}`, depth + 1);
  };
  await visit('/', 0);
  return found;
}

/**
 * The blkio group of a process, from /proc/PID/cgroup's v1 line whose controllers include blkio
 * ("4:blkio:/A", "7:blkio,io:/A"); null where there is none (cgroup v2 only, no /proc).
 */
export async function blkioGroupOf(root: string, pid: number | 'self' = 'self'): Promise<string | null> {
  const text = (await readText(root, `/proc/${pid}/cgroup`)).value ?? '';
  for (const line of text.split('\n')) {
    const [, controllers, path] = line.split(/:(.*?):/);
    if (controllers !== undefined && path !== undefined && controllers.split(',').includes('blkio')) return path || '/';
  }
  return null;
}

/** Whether a group's throttle caps a process in `measuredIn`: its own group or one above it (v1 throttles are hierarchical). */
export function throttleApplies(group: string, measuredIn: string): boolean {
  return group === measuredIn || group === '/' || measuredIn.startsWith(`${group}/`);
}

const capsOf = (prefix: string, t: BlkioThrottle) => ({
  [`${prefix}Group`]: t.group,
  [`${prefix}ReadBps`]: t.readBps,
  [`${prefix}WriteBps`]: t.writeBps,
  [`${prefix}ReadIops`]: t.readIops,
  [`${prefix}WriteIops`]: t.writeIops,
});

/**
 * A layer's details for the caps on its device, {} when none: the caps that apply to a process in
 * `measuredIn` (its group's, else the nearest group above it) as `throttle*`, how many groups
 * cap it as `throttleGroups`; the first other group's as `otherThrottle*`, and how many others.
 * `throttleMeasuredIn` says where the run measured (null: not known, then every group is "other"
 * and the text says it cannot tell whose caps apply).
 */
export function throttleDetails(throttles: BlkioThrottle[], measuredIn: string | null): Record<string, string | number | null> {
  if (throttles.length === 0) return {};
  const applying = measuredIn === null ? [] : throttles.filter((t) => throttleApplies(t.group, measuredIn));
  // The nearest group first: the measuring group's own caps, then its parent's.
  applying.sort((a, b) => b.group.length - a.group.length);
  const others = throttles.filter((t) => !applying.includes(t));
  return {
    throttleMeasuredIn: measuredIn,
    ...(applying[0] ? { ...capsOf('throttle', applying[0]), throttleGroups: applying.length } : {}),
    ...(others[0] ? { ...capsOf('otherThrottle', others[0]), otherThrottleGroups: others.length } : {}),
  };
}
