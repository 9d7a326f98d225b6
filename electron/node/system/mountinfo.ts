// /proc/self/mountinfo: which mount holds a path, with its filesystem, source and options.
// mountinfo (not /proc/mounts) because it carries the device number and separates per-mount
// options (noatime…) from the filesystem's own (discard, commit=, compress=).
import path from 'node:path';
import { readText, type Read } from './sysfs.ts';

export interface MountEntry {
  id: number;
  parentId: number;
  major: number;
  minor: number;
  /** The directory of the filesystem that is mounted (not "/" for bind mounts and btrfs subvolumes). */
  fsRoot: string;
  mountPoint: string;
  mountOptions: string[];
  fsType: string;
  source: string;
  superOptions: string[];
}

/** mountinfo escapes space, tab, newline and backslash as octal (\040 …). */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export function parseMountinfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    const dash = fields.indexOf('-');
    if (fields.length < 10 || dash < 6 || fields.length < dash + 3) continue;
    const dev = /^(\d+):(\d+)$/.exec(fields[2]!);
    if (!dev) continue;
    entries.push({
      id: Number(fields[0]),
      parentId: Number(fields[1]),
      major: Number(dev[1]),
      minor: Number(dev[2]),
      fsRoot: unescape(fields[3]!),
      mountPoint: unescape(fields[4]!),
      mountOptions: fields[5]!.split(','),
      fsType: fields[dash + 1]!,
      source: unescape(fields[dash + 2]!),
      superOptions: (fields[dash + 3] ?? '').split(',').filter(Boolean),
    });
  }
  return entries;
}

export async function readMountinfo(root: string): Promise<Read<MountEntry[]>> {
  const text = await readText(root, '/proc/self/mountinfo');
  if (text.value === null) return text;
  return { value: parseMountinfo(text.value) };
}

/**
 * The mount that holds an absolute, symlink-free path: the longest mount point that contains
 * it, and among equal ones the last listed (a later mount on the same point hides earlier ones).
 */
export function findMount(entries: MountEntry[], absPath: string): MountEntry | null {
  const target = path.posix.normalize(absPath);
  let best: MountEntry | null = null;
  for (const entry of entries) {
    const point = entry.mountPoint;
    const contains = point === '/' || target === point || target.startsWith(point.endsWith('/') ? point : point + '/');
    if (contains && (best === null || point.length >= best.mountPoint.length)) best = entry;
  }
  return best;
}

/** All options of a mount, per-mount first, without duplicates ("rw" appears in both lists). */
export function allOptions(entry: MountEntry): string[] {
  return [...new Set([...entry.mountOptions, ...entry.superOptions])];
}

export function optionValue(options: string[], key: string): string | null {
  const found = options.find((o) => o === key || o.startsWith(key + '='));
  if (found === undefined) return null;
  return found.includes('=') ? found.slice(found.indexOf('=') + 1) : '';
}
