// The cgroup v1 blkio throttles set on a block device (blkio.throttle.{read,write}_{bps,iops}_device
// of any group under /sys/fs/cgroup/blkio): a device capped at 40 MB/s and 150 IOPS measures as
// that cap, not as its disk, so a run on it must say so (the device lab's "HDD" is such a loop).
// Which group the measuring process was in is not known here: every cap set on the device is
// listed with its group, and a reader sees that one exists.
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

/** A layer's details for the caps on its device (the first group's; how many groups cap it), {} when none. */
export function throttleDetails(throttles: BlkioThrottle[]): Record<string, string | number | null> {
  const t = throttles[0];
  if (!t) return {};
  return {
    throttleGroup: t.group,
    throttleReadBps: t.readBps,
    throttleWriteBps: t.writeBps,
    throttleReadIops: t.readIops,
    throttleWriteIops: t.writeIops,
    throttleGroups: throttles.length,
  };
}
