// The records of DiskDelta's one change to something not its own: discard-cost --remount
// writes /run/diskdelta/remount-PID.json (the mount, and the discard setting to put back) before
// remounting a filesystem with the other setting (bench/trim/remount-record.ts). Read here so that
// every view of a mount (inspect, a run's stack, the TRIM audit) says when the discard setting it
// shows is DiskDelta's and not the user's, while a run holds it or after a killed run left it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRunning } from './leftovers.ts';
import type { MountEntry } from './mountinfo.ts';
import { inRoot } from './sysfs.ts';

export type DiscardOption = 'discard' | 'nodiscard';

export const REMOUNT_RECORDS = '/run/diskdelta';

export interface RemountRecord {
  pid: number;
  mountPoint: string;
  source: string;
  /** The setting to put back. */
  original: DiscardOption;
}

export interface RemountRecordFile {
  path: string;
  pid: number;
  /** null: unreadable (cut short by a full disk?). */
  record: Partial<RemountRecord> | null;
}

export const recordPath = (dir: string, pid: number) => join(dir, `remount-${pid}.json`);

/** Every remount record in `dir`, read (none when the folder is missing). */
export async function readRemountRecords(dir = REMOUNT_RECORDS): Promise<RemountRecordFile[]> {
  const files: RemountRecordFile[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^remount-(\d+)\.json$/.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    let record: Partial<RemountRecord> | null = null;
    try {
      record = JSON.parse(await readFile(path, 'utf8')) as Partial<RemountRecord>;
    } catch {
      // unreadable: nothing in it can be put back
    }
    files.push({ path, pid: Number(m[1]), record });
  }
  return files;
}

export interface RemountedBy {
  pid: number;
  /** The run is still going (it puts the setting back itself), or it was killed. */
  running: boolean;
  original: DiscardOption;
}

/** The discard-cost run whose remount `mount` is in now, if any (same mount point and device). */
export async function remountedBy(root: string, mount: MountEntry): Promise<RemountedBy | null> {
  for (const { pid, record } of await readRemountRecords(inRoot(root, REMOUNT_RECORDS))) {
    if (!record || record.mountPoint !== mount.mountPoint || record.source !== mount.source) continue;
    if (record.original !== 'discard' && record.original !== 'nodiscard') continue;
    return { pid, running: isRunning(pid), original: record.original };
  }
  return null;
}

/** The sentence that says so, with what to do. */
export function remountSentence(mountPoint: string, now: string, by: RemountedBy): string {
  const yours = by.original === 'discard' ? 'on' : 'off';
  const head = `online discard ${now} on ${mountPoint} is not your setting: DiskDelta's discard-cost (pid ${by.pid}) remounted it; yours is ${yours} (${by.original})`;
  return by.running
    ? `${head}, and that run puts it back when it ends.`
    : `${head}, and that run was killed before it could put it back: the next \`diskdelta discard-cost\` puts it back, or run \`mount -o remount,${by.original} ${mountPoint}\`.`;
}
