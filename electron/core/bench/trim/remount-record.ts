// The one change DiskDelta makes to something that is not its own — remounting a filesystem
// with the other discard setting (discard-remount.ts) — is recorded before it is made:
// /run/diskdelta/remount-PID.json names the mount and the setting to put back. The record is
// removed once the setting is back; a run killed outright (SIGKILL, out of memory) leaves it, and
// the next discard-cost run puts the setting back and says so. /run is emptied at boot, when the
// fstab setting comes back by itself.
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

export async function remount(mountPoint: string, option: DiscardOption): Promise<void> {
  await must('mount', ['-o', `remount,${option}`, mountPoint]);
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
      await remount(record.mountPoint, record.original);
      say(`put ${record.mountPoint} back to ${record.original}, as it was before a killed run (pid ${pid}) remounted it`);
    } else say(`dropped the remount record ${path} of a killed run (pid ${pid}): ${record.mountPoint} was ${record.original} already`);
    await rm(path, { force: true });
  }
  return said;
}
