// The one change DiskDelta makes to something that is not its own — remounting a filesystem
// with the other discard setting (discard-remount.ts) — is recorded before it is made:
// /run/diskdelta/remount-PID.json names the mount and the setting to put back. The record is
// removed once the setting is back; a run killed outright (SIGKILL, out of memory) leaves it, and
// the next discard-cost run puts the setting back and says so. /run is emptied at boot, when the
// fstab setting comes back by itself.
//
// A mount point is a path, and root resolving it twice (looked up, then remounted) would follow
// whatever a user who may write to a folder above it swapped in meanwhile (issue #23). So it is
// opened once (openMount), checked to be the root of the mount that was looked up, and every
// remount goes to that open directory (/proc/self/fd/3), never to the path again.
import { closeSync, constants, fstatSync, openSync, readlinkSync } from 'node:fs';
import { readRegularFileSync } from '../../files/read-bounded.ts';
import { rm } from 'node:fs/promises';
import { isRunning } from '../../system/leftovers.ts';
import { readRemountRecords, REMOUNT_RECORDS, type DiscardOption } from '../../system/remount-records.ts';
import { allOptions, findMount, readMountinfo, type MountEntry } from '../../system/mountinfo.ts';
import { must } from './run-command.ts';

export { recordPath, REMOUNT_RECORDS, type DiscardOption, type RemountRecord } from '../../system/remount-records.ts';

export async function mountOf(path: string): Promise<MountEntry | null> {
  const entries = (await readMountinfo('/')).value ?? [];
  return findMount(entries, path);
}

export const settingOf = (m: MountEntry): DiscardOption => (allOptions(m).includes('discard') ? 'discard' : 'nodiscard');

/** A mount's root directory, opened once: remounts go to it, whatever its path leads to later. */
export interface MountHandle {
  fd: number;
  /** The mount as /proc/self/mountinfo listed it when opened. */
  entry: MountEntry;
  close(): void;
}

/** Linux's dev_t from major:minor (glibc's makedev), as fstat gives it. */
const makedev = (major: number, minor: number): bigint => {
  const [ma, mi] = [BigInt(major), BigInt(minor)];
  return (mi & 0xffn) | ((ma & 0xfffn) << 8n) | ((mi & ~0xffn) << 12n) | ((ma & ~0xfffn) << 32n);
};

/** The mount a descriptor is on (its mnt_id in /proc/self/fdinfo), now, from mountinfo. */
async function mountOfFd(fd: number): Promise<MountEntry | null> {
  const id = /^mnt_id:\s*(\d+)$/m.exec(readRegularFileSync(`/proc/self/fdinfo/${fd}`))?.[1];
  return ((await readMountinfo('/')).value ?? []).find((m) => String(m.id) === id) ?? null;
}

/**
 * Opens `mountPoint` (the last component no symlink) and checks that what was opened is the
 * root of the mount listed there, of `source`: the same mount id, the same device, and the
 * kernel's own path of the descriptor the mount point itself. Null when it is not (the path
 * leads elsewhere now, or nothing is there).
 */
export async function openMount(mountPoint: string, source?: string): Promise<MountHandle | null> {
  let fd: number;
  try {
    fd = openSync(mountPoint, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  const entry = await mountOfFd(fd).catch(() => null);
  const at =
    entry !== null &&
    entry.mountPoint === mountPoint &&
    (source === undefined || entry.source === source) &&
    fstatSync(fd, { bigint: true }).dev === makedev(entry.major, entry.minor) &&
    readlinkSync(`/proc/self/fd/${fd}`) === mountPoint;
  if (!at) {
    closeSync(fd);
    return null;
  }
  return { fd, entry, close: () => closeSync(fd) };
}

/**
 * Remounts the opened mount with `option`. mount(8) gets the directory as its fd 3 and is told
 * not to resolve the path; the mount's own flags (ro, nosuid, nodev, noexec, atime) are passed
 * again, as mount(8) cannot look them up for /proc/self/fd/3 and the kernel would drop them.
 */
export async function remount(mount: MountHandle, option: DiscardOption): Promise<void> {
  const now = await mountOfFd(mount.fd);
  const flags = (now ?? mount.entry).mountOptions.filter(Boolean);
  await must('mount', ['--no-canonicalize', '-o', ['remount', ...flags, option].join(','), '/proc/self/fd/3'], [mount.fd]);
}

/**
 * Puts back the discard setting of filesystems a killed run had remounted (its pid gone), and
 * removes their records. A record whose mount is gone or now holds another device is dropped.
 * Every record is said, a sentence each: put back, dropped, or held by a run still going.
 */
export async function sweepRemounts(dir = REMOUNT_RECORDS, onSaid: (line: string) => void = () => {}): Promise<string[]> {
  const said: string[] = [];
  const say = (line: string) => {
    said.push(line);
    onSaid(line);
  };
  for (const { path, pid, record } of await readRemountRecords(dir)) {
    if (isRunning(pid)) {
      if (pid !== process.pid && record?.mountPoint)
        say(
          `${record.mountPoint} is remounted by another discard-cost run (pid ${pid}), which puts it back to ${record.original ?? 'its setting'} when it ends`,
        );
      continue;
    }
    const now = record?.mountPoint ? await mountOf(record.mountPoint) : null;
    if (!record) say(`dropped the unreadable remount record ${path}`);
    else if (!record.mountPoint || !record.original || !now || now.mountPoint !== record.mountPoint || now.source !== record.source) {
      say(`dropped the remount record ${path}: its filesystem is no longer mounted there`);
    } else if (settingOf(now) !== record.original) {
      // The killed run's descriptor is gone: open the path again, and remount only the recorded mount.
      const mount = await openMount(record.mountPoint, record.source);
      if (!mount) {
        say(
          `refused to put ${record.mountPoint} back to ${record.original} for a killed run (pid ${pid}): that path no longer leads to the filesystem it remounted (${record.source}); the record ${path} stays`,
        );
        continue;
      }
      try {
        await remount(mount, record.original);
      } finally {
        mount.close();
      }
      say(`put ${record.mountPoint} back to ${record.original}, as it was before a killed run (pid ${pid}) remounted it`);
    } else say(`dropped the remount record ${path} of a killed run (pid ${pid}): ${record.mountPoint} was ${record.original} already`);
    await rm(path, { force: true });
  }
  return said;
}
