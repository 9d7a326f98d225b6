// Filesystems the kernel makes up (/proc, /sys, cgroups …): no disk is under them, so nothing
// measured there means anything. The same list, by statfs f_type, as the worker's
// virtual_fs_name (native/src/fs-kinds.c), so that every kind of test refuses them alike.
import { statfs } from 'node:fs/promises';

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

/** The name of the virtual filesystem `path` is on, or null (a real one, or statfs failed). */
export async function virtualFsOf(path: string): Promise<string | null> {
  const info = await statfs(path).catch(() => null);
  return info ? (VIRTUAL_FS.get(Number(info.type)) ?? null) : null;
}
