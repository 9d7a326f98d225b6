// The one change DiskDelta makes to something that is not its own — remounting a filesystem
// with the other discard setting (discard-remount.ts) — is recorded before it is made:
// /run/diskdelta/remount-PID.json names the mount and the setting to put back. The record is
// removed once the setting is back; a run killed outright (SIGKILL, out of memory) leaves it, and
// the next discard-cost run puts the setting back and says so. /run is emptied at boot, when the
// fstab setting comes back by itself.
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isRunning } from '../system/leftovers.ts';
import { allOptions, findMount, readMountinfo, type MountEntry } from '../system/mountinfo.ts';
import { must } from './run-command.ts';

export type DiscardOption = 'discard' | 'nodiscard';

export const REMOUNT_RECORDS = '/run/diskdelta';

export interface RemountRecord {
  pid: number;
  mountPoint: string;
  source: string;
  /** The setting to put back. */
  original: DiscardOption;
}

export const recordPath = (dir: string, pid: number) => join(dir, `remount-${pid}.json`);

export async function mountOf(path: string): Promise<MountEntry | null> {
  const entries = (await readMountinfo('/')).value ?? [];
  return findMount(entries, path);
}

export const settingOf = (m: MountEntry): DiscardOption => (allOptions(m).includes('discard') ? 'discard' : 'nodiscard');

export async function remount(mountPoint: string, option: DiscardOption): Promise<void> {
  await must('mount', ['-o', `remount,${option}`, mountPoint]);
}

/**
 * Puts back the discard setting of filesystems a killed run had remounted (its pid gone), and
 * removes their records. A record whose mount is gone or now holds another device is dropped.
 */
export async function sweepRemounts(dir = REMOUNT_RECORDS): Promise<string[]> {
  const said: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^remount-(\d+)\.json$/.exec(name);
    if (!m || isRunning(Number(m[1]))) continue;
    const path = join(dir, name);
    let record: Partial<RemountRecord> | null = null;
    try {
      record = JSON.parse(await readFile(path, 'utf8')) as Partial<RemountRecord>;
    } catch {
      // unreadable (cut short by a full disk?): nothing in it can be put back
    }
    const now = record?.mountPoint ? await mountOf(record.mountPoint) : null;
    if (!record) said.push(`dropped the unreadable remount record ${path}`);
    else if (!record.mountPoint || !record.original || !now || now.mountPoint !== record.mountPoint || now.source !== record.source) {
      said.push(`dropped the remount record ${path}: its filesystem is no longer mounted there`);
    } else if (settingOf(now) !== record.original) {
      await remount(record.mountPoint, record.original);
      said.push(`put ${record.mountPoint} back to ${record.original}, as it was before a killed run (pid ${m[1]}) remounted it`);
    }
    await rm(path, { force: true });
  }
  return said;
}
