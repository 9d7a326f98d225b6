// What each whole disk has written since boot, from /proc/diskstats (no root): field 10,
// sectors written, always in 512-byte units whatever the disk's sector size, and /proc/uptime
// for how long the counters have been counting. Partitions, loop, zram and device-mapper
// devices are left out: their writes land on a disk that is listed itself (or on memory).
import { listDir, readText, rootOf, type RootOptions } from './sysfs.ts';

export interface DiskWrites {
  name: string;
  bytesWritten: number;
}

export interface WriteCounters {
  /** Seconds the counters have counted (since boot). */
  seconds: number;
  /** The kernel's id of this boot (the counters restart with each); null where it cannot be read. */
  bootId: string | null;
  disks: DiskWrites[];
}

/** Not disks of their own: their writes are counted again on the disk beneath, or go to memory. */
const NOT_A_DISK = /^(loop|zram|ram|dm-|md|sr|fd|nbd)/;

export function parseDiskstats(text: string, wholeDisks: ReadonlySet<string>): DiskWrites[] {
  const disks: DiskWrites[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const name = f[2]!;
    const sectors = Number(f[9]);
    if (!wholeDisks.has(name) || NOT_A_DISK.test(name) || !Number.isFinite(sectors)) continue;
    disks.push({ name, bytesWritten: sectors * 512 });
  }
  return disks;
}

export async function readWriteCounters(opts?: RootOptions): Promise<WriteCounters | { reason: string }> {
  const root = rootOf(opts);
  const stats = await readText(root, '/proc/diskstats');
  const uptime = await readText(root, '/proc/uptime');
  if (stats.value === null) return { reason: stats.reason };
  if (uptime.value === null) return { reason: uptime.reason };
  const seconds = Number(uptime.value.split(/\s+/)[0]);
  if (!Number.isFinite(seconds) || seconds <= 0) return { reason: `/proc/uptime says '${uptime.value}', not a number of seconds` };
  // /sys/block lists whole disks only (partitions are under them).
  const whole = new Set(await listDir(root, '/sys/block'));
  const boot = await readText(root, '/proc/sys/kernel/random/boot_id');
  return { seconds, bootId: boot.value?.trim() || null, disks: parseDiskstats(stats.value, whole) };
}
