// What online discard costs here, measured: the tree workload on a scratch ext4 in a loop file
// on the user's filesystem, mounted without and then with `discard`, the loop device's discard
// counters read around each delete; then fstrim's time on it. The scratch filesystem leaves the
// user's own mount alone; what it changes: the discards reach the loop device and become holes
// punched in its file, so the cost below that is the backing filesystem's (and its disk's).
// Root only (losetup, mount). Everything made is removed on every exit path, in `finally`; what a
// killed run (SIGKILL, power cut) left is found by the pid in its names and removed by the next.
import { lstat, mkdtemp, readdir, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Figure, Warning } from '../../../shared/model/results.ts';
import { blockLayers, type BlockLayer } from '../../system/discard-audit.ts';
import { isRunning, listLoopDevices, ownerPid } from '../../system/leftovers.ts';
import { readMountinfo } from '../../system/mountinfo.ts';
import { readText } from '../../system/sysfs.ts';
import { BenchError } from '../errors.ts';
import { BIGFILE_BYTES, SEED_TREE } from '../kinds/workload.ts';
import { must, runCommand as run } from './run-command.ts';
import { parseFstrimBytes } from './trim-audit.ts';
import { sweepRemounts } from './remount-record.ts';
import { treeArgv } from '../worker-argv.ts';
import { stderrTail } from '../../../shared/model/stderr-tail.ts';
import { deleteCostHead, secs, timeWorkerUnder } from './discard-timing.ts';
import {
  bigFileImageBytes,
  bigFileSize,
  freeBytes,
  keptFree,
  measureBigFile,
  timeBigFileUnder,
  type BigFileCase,
} from './discard-bigfile.ts';
import { checkTarget } from '../target-check.ts';
import { treeWords } from '../../../shared/analysis/discard-judgement.ts';

/** The seed's Intel 525 (ext4 on LVM on LUKS, 2013): tree delete + sync without and with discard, a weekly fstrim. */
export const SEED_DISCARD = { deleteOff: 0.71, deleteOn: 2.697, fstrimAbout: 60 } as const;

export interface DiscardSetting {
  option: 'nodiscard' | 'discard';
  figures: Figure[];
  /** Each timed pass's delete phase, seconds (warm-up left out): the spread the verdict judges by. */
  deleteRuns: number[];
  /** Discard requests the deepest block layer (`countedOn`) completed during this setting's passes. */
  discards: number | null;
  countedOn: string;
}

export interface DiscardCostResult {
  files: number;
  bytes: number;
  settings: DiscardSetting[];
  fstrim: { seconds: number; bytes: number | null };
  verdict: string;
  /** The seed's second case: one big file deleted under each setting, after the tree. */
  bigfile: BigFileCase;
  /** What killed runs had left and this run removed first, a sentence each. */
  cleaned: string[];
  /** Where the tree was written: a scratch ext4 in a loop file, or the user's filesystem remounted. */
  where: ScratchWhere | RemountWhere;
  /** What a reader must know to trust the figures (a buffered scratch loop, counters others share). */
  warnings: Warning[];
}

export interface ScratchWhere {
  mode: 'scratch';
  /** /dev/loopN */
  device: string;
  /** The loop's backing file in the user's folder. */
  image: string;
  /** The loop reads and writes its file with O_DIRECT (sysfs loop/dio = 1): no page cache between. */
  directIo: boolean | null;
}

export interface RemountWhere {
  mode: 'remount';
  mountPoint: string;
  source: string;
  /** The setting it was found in and put back to. */
  original: DiscardSetting['option'];
}

/**
 * The warning of a run whose discard requests were counted on a disk that other programs use
 * too: what they sent meanwhile is in the count, which then proves less than it seems.
 */
/**
 * What can be told before anything is set up: root, and a folder on a real disk. The CLI asks
 * this before it opens the library, so a wrong folder is said as such (and no library is made).
 */
export async function checkDiscardCostTarget(folder: string): Promise<void> {
  if (process.getuid?.() !== 0)
    throw new BenchError('permission', 'comparing discard on and off needs root (a loop device and mounts): run as root');
  await checkTarget(folder);
}

export function sharedCountersWarning(countedOn: string): Warning {
  return {
    code: 'shared-counters',
    message: `the discard requests were counted on ${countedOn}, which other programs use too: any discards they sent during the passes are counted with these`,
  };
}

/** /sys/block/loopN/loop/dio: whether the loop device does direct I/O on its backing file; null when sysfs does not say. */
export async function loopDirectIo(device: string): Promise<boolean | null> {
  const text = (await readText('/', `/sys/block/${basename(device)}/loop/dio`)).value;
  return text === null ? null : text === '1';
}

// Scratch image `.diskdelta-PID-discard-cost.tmp` in the user's folder, mounted on
// `diskdelta-discard-PID-XXXXXX` in the temp folder. (Not the worker's exact test-file name, so the
// worker's sweep leaves it alone; this module sweeps its own.)
const IMAGE_PREFIX = '.diskdelta-';
const IMAGE_SUFFIX = '-discard-cost.tmp';
const MOUNT_PREFIX = 'diskdelta-discard-';

/**
 * What killed discard-cost runs left, of either kind (a remounted filesystem, a scratch ext4), put
 * right; each sentence also to `onSaid` at once, so that it is said even when the run that swept
 * then fails or is stopped.
 */
export async function sweepDiscardLeftovers(recordDir?: string, onSaid?: (line: string) => void): Promise<string[]> {
  return [...(await sweepRemounts(recordDir, onSaid)), ...(await sweepDiscardScratch(onSaid))];
}

/**
 * Unmount, detach and remove the scratch filesystems of discard-cost runs whose process is gone.
 * Only loop devices over a file named as above with a dead owner are touched.
 */
export async function sweepDiscardScratch(onSaid: (line: string) => void = () => {}): Promise<string[]> {
  const said: string[] = [];
  const say = (line: string) => {
    said.push(line);
    onSaid(line);
  };
  const mounts = (await readMountinfo('/')).value ?? [];
  for (const loop of await listLoopDevices()) {
    const file = basename(loop.backFile);
    const pid = ownerPid(file, IMAGE_PREFIX);
    if (pid === null || !file.endsWith(IMAGE_SUFFIX) || isRunning(pid)) continue;
    const mountedOn = mounts.filter((m) => m.source === loop.name).map((m) => m.mountPoint);
    const stuck: string[] = [];
    for (const point of mountedOn.reverse()) {
      const r = await run('umount', [point]);
      if (r.code !== 0) stuck.push(`${point} (${stderrTail(r.stderr, 2).join('; ') || `umount exit ${r.code}`})`);
      else if (basename(point).startsWith(MOUNT_PREFIX)) await rmdir(point).catch(() => {});
    }
    if (stuck.length) {
      say(`left the scratch filesystem ${loop.name} of a killed run (pid ${pid}) in place: cannot unmount ${stuck.join(', ')}`);
      continue;
    }
    await run('losetup', ['-d', loop.name]);
    await rm(loop.backFile, { force: true });
    const where = mountedOn.length ? `, unmounted from ${mountedOn.join(', ')},` : '';
    say(`removed the scratch filesystem ${loop.name}${where} and its file ${loop.backFile}, left by a killed run (pid ${pid})`);
  }
  return said;
}

/**
 * Scratch images of killed runs in `folder` that no loop device holds (a run killed before
 * losetup): the exact name, a regular file of this user with one link, its pid gone.
 */
export async function sweepDiscardImages(folder: string, onSaid: (line: string) => void = () => {}): Promise<string[]> {
  const held = new Set((await listLoopDevices()).map((l) => l.backFile));
  const said: string[] = [];
  const say = (line: string) => {
    said.push(line);
    onSaid(line);
  };
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const m = /^\.diskdelta-(\d+)-discard-cost\.tmp$/.exec(name);
    const path = join(folder, name);
    if (!m || isRunning(Number(m[1])) || held.has(path)) continue;
    const st = await lstat(path).catch(() => null);
    if (!st?.isFile() || st.uid !== process.geteuid?.() || st.nlink !== 1) continue;
    await rm(path, { force: true });
    say(`removed ${path}, the scratch image of a killed run (pid ${m[1]}) that no loop device held`);
  }
  return said;
}

export interface TreeOptions {
  files: number;
  bytes: number;
  runs: number;
  workerPath?: string;
  signal?: AbortSignal;
  /** The interrupted error's message: what was put back. */
  stopped: string;
}

/**
 * The tree workload (a warm-up pass and `runs` timed ones) in `folder` as it is mounted now, and
 * the discard requests the deepest of `layers` completed meanwhile.
 */
export async function timeTreeUnder(
  option: DiscardSetting['option'],
  folder: string,
  layers: BlockLayer[],
  o: TreeOptions,
): Promise<DiscardSetting> {
  const args = treeArgv({ target: folder, runs: o.runs, warmupPasses: 1, files: o.files, bytes: o.bytes });
  return (await timeWorkerUnder(option, layers, args, 'the tree workload', o)).setting;
}

/** fstrim's wall time on a mounted filesystem and what it reported trimmed. */
export async function timeFstrim(mountpoint: string): Promise<DiscardCostResult['fstrim']> {
  const started = performance.now();
  const out = await must('fstrim', ['-v', mountpoint]);
  return { seconds: (performance.now() - started) / 1000, bytes: parseFstrimBytes(out) };
}

/**
 * The sentence: what online discard costs per tree delete here, beside the seed's figures. A
 * difference inside both settings' ranges of runs is noise and said so, not printed as a cost
 * (a negative "cost" was); with one run each there is no range, and the sentence says that.
 */
export function costVerdict(settings: DiscardSetting[], fstrim: DiscardCostResult['fstrim'], files: number, runs: number): string {
  // The one judgement (shared/analysis/discard-judgement.ts, through discard-timing.ts): the
  // assessment's verdict says it again from the stored runs, by the same rule.
  const head = deleteCostHead(settings, treeWords(files));
  return `${head}; a fstrim after ${runs + 1} such trees took ${secs(fstrim.seconds)}. ${SEED_DISCARD_SENTENCE}`;
}

/** The seed's figures, said beside every measured discard cost. */
export const SEED_DISCARD_SENTENCE =
  `The seed's Intel 525 (2013): ${(SEED_DISCARD.deleteOn - SEED_DISCARD.deleteOff).toFixed(2)} s per 45k-file delete ` +
  `(${SEED_DISCARD.deleteOff} s without, ${SEED_DISCARD.deleteOn} s with); a weekly fstrim about a minute.`;

/**
 * The scratch image: room for the tree (twice its size, 512 MiB at least, plus its inodes) and
 * for the big file, within what `folder` has free less what is kept for the user (keptFree). An
 * image no larger than that room can never fill the folder, however its blocks are reused. The
 * tree is never cut (it gets what it strictly needs); the big file is, and `shortOfSpace` says
 * why (the worker then writes what fits in the scratch filesystem, and warns).
 */
export async function scratchImageSize(
  folder: string,
  treeBytes: number,
  files: number,
  bigfileBytes: number,
): Promise<{ bytes: number; shortOfSpace: string | null }> {
  const tree = Math.max(2 * treeBytes, 512 * 2 ** 20) + files * 8192;
  const wanted = Math.max(tree, bigFileImageBytes(bigfileBytes));
  const free = await freeBytes(folder);
  const room = free - keptFree(free);
  if (wanted <= room) return { bytes: wanted, shortOfSpace: null };
  const bytes = Math.max(2 * treeBytes + files * 8192 + 64 * 2 ** 20, room);
  return {
    bytes,
    shortOfSpace: `${folder} had ${bigFileSize(free)} free, so the scratch filesystem was made ${bigFileSize(bytes)} (keeping ${bigFileSize(keptFree(free))} free for you)`,
  };
}

export async function runDiscardCost(
  folder: string,
  options: {
    files?: number;
    bytes?: number;
    /** The big file's size (default the seed's 3 GB); scaled down to what the folder has room for. */
    bigfileBytes?: number;
    runs?: number;
    workerPath?: string;
    signal?: AbortSignal;
    /** Each sentence of what killed runs had left and this one put right, said at once. */
    onCleaned?: (line: string) => void;
    /** Called once the scratch loop is attached, before anything is timed (tests look at it then). */
    onScratch?: (scratch: ScratchWhere) => Promise<void> | void;
  } = {},
): Promise<DiscardCostResult> {
  await checkDiscardCostTarget(folder);
  const files = options.files ?? SEED_TREE.files;
  const bytes = options.bytes ?? SEED_TREE.bytes;
  const runs = options.runs ?? 3;
  const bigfileBytes = options.bigfileBytes ?? BIGFILE_BYTES;
  const cleaned = [
    ...(await sweepDiscardLeftovers(undefined, options.onCleaned)),
    ...(await sweepDiscardImages(folder, options.onCleaned)),
  ];
  const image = join(folder, `${IMAGE_PREFIX}${process.pid}${IMAGE_SUFFIX}`);
  const stopped = 'stopped: the scratch filesystem is removed';
  const stopIfAsked = () => {
    if (options.signal?.aborted) throw new BenchError('interrupted', stopped);
  };
  let device: string | null = null;
  let mountpoint: string | null = null;
  try {
    const size = await scratchImageSize(folder, bytes, files, bigfileBytes);
    await must('truncate', ['-s', String(size.bytes), image]);
    // Direct I/O: without it the loop reads and writes its file through the page cache, so the
    // tree's syncs end in RAM and a delete's discards are timed against cached pages (the same
    // tree took 18.65 s / 3.64 s in the folder and 5.25 s / 1.36 s in a buffered loop).
    device = (await must('losetup', ['--direct-io=on', '-f', '--show', image])).trim();
    const where: ScratchWhere = { mode: 'scratch', device, image, directIo: await loopDirectIo(device) };
    // -m 0: no blocks kept for root; the worker sizes the big file by what is free (f_bavail).
    await must('mkfs.ext4', ['-q', '-m', '0', '-E', 'nodiscard', device]);
    await options.onScratch?.(where);
    mountpoint = await mkdtemp(join(tmpdir(), `${MOUNT_PREFIX}${process.pid}-`));
    const loop = blockLayers([{ kind: 'loop', name: basename(device), details: {} }]);
    const settings: DiscardSetting[] = [];
    let fstrim: DiscardCostResult['fstrim'] = { seconds: 0, bytes: null };
    for (const option of ['nodiscard', 'discard'] as const) {
      stopIfAsked();
      await must('mount', ['-o', option, device, mountpoint]);
      settings.push(await timeTreeUnder(option, mountpoint, loop, { files, bytes, runs, ...options, stopped }));
      stopIfAsked();
      if (option === 'nodiscard') fstrim = await timeFstrim(mountpoint);
      await must('umount', [mountpoint]);
    }
    const mnt = mountpoint;
    const bigfile = await measureBigFile(bigfileBytes, runs, size.shortOfSpace, async (option) => {
      stopIfAsked();
      await must('mount', ['-o', option, device!, mnt]);
      const timed = await timeBigFileUnder(option, mnt, loop, { sizeBytes: bigfileBytes, runs, ...options, stopped });
      await must('umount', [mnt]);
      return timed;
    });
    const verdict = costVerdict(settings, fstrim, files, runs);
    const warnings: Warning[] =
      where.directIo === true
        ? []
        : [
            {
              code: 'buffered-io',
              message: `the scratch loop device could not do direct I/O on the filesystem of ${folder} (sysfs loop/dio ${where.directIo === false ? 'is 0' : 'says nothing'}): its writes and syncs may end in RAM, so these seconds can be shorter than the disk's`,
            },
          ];
    return { files, bytes, settings, fstrim, verdict, bigfile, cleaned, where, warnings };
  } finally {
    // Each step on its own: one failing must not leave the others behind.
    if (mountpoint) {
      await run('umount', [mountpoint]);
      await rmdir(mountpoint).catch(() => {});
    }
    if (device) await run('losetup', ['-d', device]);
    await rm(image, { force: true });
  }
}
