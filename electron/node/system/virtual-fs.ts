// Filesystems the kernel makes up (/proc, /sys, cgroups …): no disk is under them, so nothing
// measured there means anything. The same list, by statfs f_type, as the worker's
// virtual_fs_name (native/src/fs-kinds.c), so that every kind of test refuses them alike.
import { readFile, statfs } from 'node:fs/promises';
import { resolve } from 'node:path';
import { findMount, parseMountinfo } from './mountinfo.ts';

export const VIRTUAL_FS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0x1cd1, 'devpts'],
  [0xde5e81e4, 'efivarfs'],
  [0x62656570, 'configfs'],
  [0x19800202, 'mqueue'],
  [0x6e736673, 'nsfs'],
  [0x42494e4d, 'binfmt_misc'],
  [0xf97cff8c, 'selinuxfs'],
  [0x65735543, 'fusectl'],
  [0x958458f6, 'hugetlbfs'],
  [0x0187, 'autofs'],
]);

const TMPFS_MAGIC = 0x01021994;

/**
 * The name of the virtual filesystem `path` is on, or null (a real one, or statfs failed).
 * devtmpfs (/dev: device nodes the kernel makes, no file data) has tmpfs's magic number, so only
 * the mount table tells it apart (`working-set /dev` once answered "0 files").
 */
export async function virtualFsOf(path: string, mountinfo?: string): Promise<string | null> {
  const info = await statfs(path).catch(() => null);
  if (!info) return null;
  const type = Number(info.type);
  if (type === TMPFS_MAGIC) {
    const table = mountinfo ?? (await readFile('/proc/self/mountinfo', 'utf8').catch(() => ''));
    return findMount(parseMountinfo(table), resolve(path))?.fsType === 'devtmpfs' ? 'devtmpfs' : null;
  }
  return VIRTUAL_FS.get(type) ?? null;
}
