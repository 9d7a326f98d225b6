// What online discard costs on the user's own filesystem, measured there: the tree workload in
// their folder with the filesystem mounted as it is, then remounted with the other discard
// setting, then put back. Root only, ext4 only (its discard option can change on a remount).
//
// The remount is recorded before it is made and undone by the next run after a SIGKILL
// (remount-record.ts). The mount point is opened once, here, and both remounts go to that
// descriptor, not to the path again (a folder above it may be someone else's).
import { realpath, rm, writeFile } from 'node:fs/promises';
import { makeFolder } from '../../files/make-folder.ts';
import { describeTarget } from '../../system/index.ts';
import { blockLayers } from '../../system/discard-audit.ts';
import {
  costVerdict,
  sweepDiscardLeftovers,
  timeFstrim,
  timeTreeUnder,
  sharedCountersWarning,
  type DiscardCostResult,
  type DiscardSetting,
} from './discard-cost.ts';
import { BenchError } from '../errors.ts';
import { BIGFILE_BYTES, SEED_TREE } from '../kinds/workload.ts';
import { bigFileSize, freeBytes, keptFree, measureBigFile, MIN_BIGFILE_BYTES, timeBigFileUnder } from './discard-bigfile.ts';
import { mountOf, openMount, recordPath, remount, REMOUNT_RECORDS, settingOf, type RemountRecord } from './remount-record.ts';
import { checkTarget } from '../target-check.ts';
import type { MountEntry } from '../../system/mountinfo.ts';
import type { MountHandle } from './remount-record.ts';

export interface RemountOptions {
  files?: number;
  bytes?: number;
  /** The big file's size (default the seed's 3 GB); scaled down to what the folder has room for. */
  bigfileBytes?: number;
  runs?: number;
  workerPath?: string;
  signal?: AbortSignal;
  /** Where remount records live (tests). */
  recordDir?: string;
  /** Each sentence of what killed runs had left and this one put right, said at once. */
  onCleaned?: (line: string) => void;
}

export async function runDiscardCostRemount(folder: string, options: RemountOptions = {}): Promise<DiscardCostResult> {
  if (process.getuid?.() !== 0) throw new BenchError('permission', 'remounting a filesystem needs root: run as root');
  await checkTarget(folder);
  const path = await realpath(folder);
  const dir = options.recordDir ?? REMOUNT_RECORDS;
  const cleaned = await sweepDiscardLeftovers(dir, options.onCleaned);
  const mount = await mountOf(path);
  if (!mount || mount.fsType !== 'ext4')
    throw new BenchError(
      'target-unusable',
      `${folder} is on ${mount ? mount.fsType : 'no filesystem DiskDelta can read'}: --remount changes the discard option of ext4 only; leave it out to measure on a scratch ext4 in a loop file there`,
    );
  const opened = await openMount(mount.mountPoint, mount.source);
  if (!opened || opened.entry.id !== mount.id)
    throw new BenchError(
      'target-unusable',
      `${mount.mountPoint} changed while DiskDelta looked at it (it is no longer the root of ${mount.source}): try again`,
    );
  try {
    return await measureRemounted(path, dir, mount, opened, cleaned, options);
  } finally {
    opened.close();
  }
}

async function measureRemounted(
  path: string,
  dir: string,
  mount: MountEntry,
  opened: MountHandle,
  cleaned: string[],
  options: RemountOptions,
): Promise<DiscardCostResult> {
  const layers = blockLayers((await describeTarget(path)).target.stack ?? []);
  const original = settingOf(mount);
  const other = original === 'discard' ? 'nodiscard' : 'discard';
  const tree = { files: options.files ?? SEED_TREE.files, bytes: options.bytes ?? SEED_TREE.bytes, runs: options.runs ?? 3 };
  const stopped = `stopped: ${mount.mountPoint} is mounted ${original} again, as it was`;
  const settings: DiscardSetting[] = [];
  let fstrim: DiscardCostResult['fstrim'] = { seconds: 0, bytes: null };
  // The big file in the user's own folder: never more than leaves them keptFree.
  const asked = options.bigfileBytes ?? BIGFILE_BYTES;
  const free = await freeBytes(path);
  const room = free - keptFree(free);
  const bigBytes = Math.max(Math.min(asked, room), MIN_BIGFILE_BYTES);
  const shortOfSpace =
    asked > room
      ? `${mount.mountPoint} had ${bigFileSize(free)} free, and ${bigFileSize(keptFree(free))} of it is kept free for you`
      : null;
  const bigTimed = new Map<DiscardSetting['option'], Awaited<ReturnType<typeof timeBigFileUnder>>>();
  const measure = async (option: DiscardSetting['option']) => {
    settings.push(await timeTreeUnder(option, path, layers, { ...tree, ...options, stopped }));
    // The passes without discard left their blocks for fstrim: time it then, before the big file.
    if (option === 'nodiscard') fstrim = await timeFstrim(mount.mountPoint);
    if (options.signal?.aborted) throw new BenchError('interrupted', stopped);
    bigTimed.set(option, await timeBigFileUnder(option, path, layers, { sizeBytes: bigBytes, runs: tree.runs, ...options, stopped }));
  };
  await measure(original);
  if (options.signal?.aborted) throw new BenchError('interrupted', stopped);
  // Recorded first: no remount happens that a later run could not undo.
  await makeFolder(dir, 0o700);
  const record: RemountRecord = { pid: process.pid, mountPoint: mount.mountPoint, source: mount.source, original };
  await writeFile(recordPath(dir, process.pid), JSON.stringify(record));
  // Put back whatever happened meanwhile (an error, Ctrl-C): the measurement's failure is
  // rethrown after, unless putting back failed, which the user must hear first.
  const measured = remount(opened, other)
    .then(() => measure(other))
    .then(
      () => null,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
  const failure = await measured;
  const back = await remount(opened, original).then(
    () => null,
    (error: Error) => error,
  );
  if (back)
    // The record stays, so the next run tries again.
    throw new BenchError(
      'internal',
      `could not put ${mount.mountPoint} back to ${original} (${back.message}): run \`mount -o remount,${original} ${mount.mountPoint}\``,
    );
  await rm(recordPath(dir, process.pid), { force: true });
  // Putting the setting back is said on every path: in the stopped message, else added here.
  if (failure instanceof BenchError && failure.code === 'interrupted') throw failure;
  if (failure)
    throw new BenchError(
      failure instanceof BenchError ? failure.code : 'internal',
      `${failure.message}\n${mount.mountPoint} is mounted ${original} again, as it was before this run remounted it ${other}`,
    );
  settings.sort((a, b) => (a.option === 'nodiscard' ? -1 : b.option === 'nodiscard' ? 1 : 0));
  const verdict = `${costVerdict(settings, fstrim, tree.files, tree.runs)} Measured on ${mount.mountPoint} itself (${mount.source}), remounted ${other} and put back to ${original}.`;
  // The counters are the user's own disk's: every other program's discards meanwhile count too.
  const countedOn = settings[0]?.countedOn ?? 'no block device';
  const warnings = countedOn === 'no block device' ? [] : [sharedCountersWarning(countedOn)];
  const where = { mode: 'remount' as const, mountPoint: mount.mountPoint, source: mount.source, original };
  // Measured in the order the mount allowed (its own setting first); told without, then with.
  const bigfile = await measureBigFile(asked, tree.runs, shortOfSpace, async (option) => bigTimed.get(option)!);
  return { files: tree.files, bytes: tree.bytes, settings, fstrim, verdict, bigfile, cleaned, where, warnings };
}
