// The seed's second TRIM case (shared/reference/seed-figures.md): one 3 GB file deleted with and
// without the discard option, about 0.43 s against 1.65 s on the 2013 Intel 525. discard-cost
// times it after the tree, under each mount option, with the worker's bigfile verb (the file
// written like `cp` does, synced; then deleted and synced). Its size is an option; where the
// space is short it is scaled down, and the run says so and why: a smaller file frees fewer
// extents, so its delete is never the seed's 3 GB delete, only beside it.
import { statfs } from 'node:fs/promises';
import { formatNumber } from '../../../shared/analysis/units.ts';
import type { Warning } from '../../../shared/model/results.ts';
import type { BlockLayer } from '../../system/discard-audit.ts';
import { BIGFILE_BYTES } from '../kinds/workload.ts';
import { bigfileArgv } from '../worker-argv.ts';
import { deleteCostHead, timeWorkerUnder, type DiscardSetting } from './discard-timing.ts';

/** The seed's 3 GB file delete (2013, "about"): seconds without and with discard. */
export const SEED_BIGFILE_DISCARD = { bytes: BIGFILE_BYTES, deleteOff: 0.43, deleteOn: 1.65 } as const;

/** The smallest big file worth timing: the worker's own floor for a big file (16 MiB). */
export const MIN_BIGFILE_BYTES = 16 * 2 ** 20;

export interface BigFileCase {
  /** The size asked for (--bigfile-size, default the seed's 3 GB). */
  askedBytes: number;
  /** The size written: the asked one, or what fitted. */
  bytes: number;
  /** Why the file is smaller than asked, one sentence; null when it is the asked size. */
  scaled: string | null;
  settings: DiscardSetting[];
  verdict: string;
}

/** "3,000 MB": decimal, as the seed says "3 GB" and the tree's "592 MB". */
export const bigFileSize = (bytes: number) => `${formatNumber(Math.round(bytes / 1e6))} MB`;

/**
 * Scratch-ext4 bytes a big file of `bytes` needs: the worker writes at most nine tenths of the
 * free space less 64 MiB (workload.c), and ext4's journal and inode tables take about 5 %.
 */
export function bigFileImageBytes(bytes: number): number {
  return Math.ceil((bytes / 0.9) * 1.05) + 256 * 2 ** 20;
}

/** What is left free for the user on the folder's filesystem: 5 % of its free space, at least 256 MiB. */
export function keptFree(freeBytes: number): number {
  return Math.max(256 * 2 ** 20, Math.ceil(freeBytes * 0.05));
}

/** The folder's free space (what an unprivileged user may still write, as the worker reads it). */
export async function freeBytes(folder: string): Promise<number> {
  const s = await statfs(folder);
  return s.bavail * s.bsize;
}

/** The sentence of a big file smaller than asked, or null. `why` names the space that was short. */
export function scaledSentence(asked: number, written: number, why: string): string | null {
  if (written >= asked) return null;
  return `the big file is ${bigFileSize(written)}, scaled down from the ${bigFileSize(asked)} asked: ${why}`;
}

/**
 * The big file's passes under one mount option: `runs` timed passes, no warm-up (each pass's
 * delete follows its own write and sync, so every pass starts alike; a warm-up would only write
 * the whole file once more). The worker shrinks a file that does not fit and warns.
 */
export async function timeBigFileUnder(
  option: DiscardSetting['option'],
  folder: string,
  layers: BlockLayer[],
  o: { sizeBytes: number; runs: number; workerPath?: string; signal?: AbortSignal; stopped: string },
): Promise<{ setting: DiscardSetting; bytes: number | null; warnings: Warning[] }> {
  const args = bigfileArgv({ target: folder, sizeBytes: o.sizeBytes, runs: o.runs, warmupPasses: 0 });
  return timeWorkerUnder(option, layers, args, 'the big file', o);
}

/** The big file's sentence: what discard costs per delete of it here, beside the seed's 3 GB. */
export function bigFileVerdict(settings: DiscardSetting[], bytes: number): string {
  const seed = SEED_BIGFILE_DISCARD;
  const scale =
    bytes === seed.bytes
      ? ''
      : `; that was ${bigFileSize(seed.bytes)}, this ${bigFileSize(bytes)}: a different delete, set beside it, not the same`;
  return (
    `${deleteCostHead(settings, `${bigFileSize(bytes)} file delete`)}. ` +
    `The seed's Intel 525 (2013): ${(seed.deleteOn - seed.deleteOff).toFixed(2)} s per 3 GB file delete ` +
    `(about ${seed.deleteOff} s without, ${seed.deleteOn} s with)${scale}.`
  );
}

/**
 * The big file measured under both settings (measure(option) mounts, times, unmounts as the
 * caller does it), with the size said: the asked one, or what fitted and why.
 */
export async function measureBigFile(
  askedBytes: number,
  runs: number,
  shortOfSpace: string | null,
  measure: (option: DiscardSetting['option']) => Promise<{ setting: DiscardSetting; bytes: number | null; warnings: Warning[] }>,
): Promise<BigFileCase> {
  const settings: DiscardSetting[] = [];
  const written: number[] = [];
  const said: string[] = [];
  for (const option of ['nodiscard', 'discard'] as const) {
    const t = await measure(option);
    settings.push(t.setting);
    if (t.bytes !== null) written.push(t.bytes);
    said.push(...t.warnings.filter((w) => w.code === 'bigfile-shrunk').map((w) => w.message));
  }
  // Both settings write into the same emptied filesystem; the smaller is what both could hold.
  const bytes = written.length ? Math.min(...written) : askedBytes;
  const why = shortOfSpace ?? said[0] ?? 'that is what fitted';
  return { askedBytes, bytes, scaled: scaledSentence(askedBytes, bytes, why), settings, verdict: bigFileVerdict(settings, bytes) };
}
