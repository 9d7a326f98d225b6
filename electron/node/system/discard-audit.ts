// The TRIM audit that looks rather than guesses: the discard counters the kernel keeps for
// every block device (/sys/block/NAME/stat, fields 12–15: discards completed, merged, sectors
// discarded, ms spent), read on every layer of a target's stack before and after a delete +
// fstrim, show which layers a discard actually reached. Set beside what the tables say
// (dm-crypt's allow_discards, each queue's discard_max_bytes), a disagreement is called out.
import { readNumber, readText, type RootOptions, rootOf } from './sysfs.ts';
import type { StackLayer } from '../../shared/model/machine.ts';

// The audit's types are inferred from its schemas, written once (model/trim-audit-schema.ts).
import type {
  BlockLayer,
  CannotTell,
  DiscardAudit,
  DiscardCounters,
  LayerAudit,
  TrimAuditResult,
} from '../../shared/model/trim-audit-schema.ts';
import { formatBytes } from '../../shared/analysis/units.ts';
export type { BlockLayer, DiscardAudit, DiscardCounters, LayerAudit, TrimAuditResult };

/** One reading of a layer: its discard counters, its queue's limit, and zram's mm_stat fields where it is one. */
export interface LayerReading {
  counters: DiscardCounters | null;
  discardMaxBytes: number | null;
  /** /sys/block/zramN/mm_stat: orig_data_size, compr_data_size, mem_used_total, …; absent for other drivers. */
  mmStat?: number[] | null;
}

/**
 * Drivers that take discards but count none in /sys/block/X/stat (bio-based: they complete a
 * discard without the block layer's accounting), by kernel name; null for one that counts. On
 * these a counter of 0 says nothing (issue 40 item 3: zram1 counted 0 after fstrim trimmed 3 GB).
 */
export function uncountingDriver(device: string): string | null {
  if (/^zram\d+$/.test(device)) return 'zram counts no discards in its /sys/block stat';
  if (/^md\d+/.test(device)) return 'md counts no discards in its /sys/block stat on every kernel';
  if (/^(nbd|rbd|drbd)\d+/.test(device)) return 'a network disk counts no discards in its /sys/block stat';
  return null;
}

/** Fields 12–15 of a block stat line; null for a kernel before 4.18, which has only 11 fields. */
export function parseDiscardStat(line: string): DiscardCounters | null {
  const f = line.trim().split(/\s+/).map(Number);
  if (f.length < 15 || f.slice(11, 15).some((n) => !Number.isFinite(n))) return null;
  return { ios: f[11]!, merged: f[12]!, sectors: f[13]!, ms: f[14]! };
}

/** The stack's block layers, top (the filesystem's device) to bottom, with their kernel names. */
export function blockLayers(layers: StackLayer[]): BlockLayer[] {
  return layers.flatMap((l): BlockLayer[] => {
    const device = l.kind === 'dm-crypt' || l.kind === 'lvm' || l.kind === 'dm' ? l.details.device : l.name;
    if (!['dm-crypt', 'lvm', 'dm', 'partition', 'loop', 'disk', 'other'].includes(l.kind) || typeof device !== 'string') return [];
    const flags = typeof l.details.flags === 'string' ? l.details.flags : '';
    return [
      {
        kind: l.kind,
        name: l.name,
        device,
        tablesSayPasses: l.discardPasses ?? null,
        allowDiscards:
          l.kind === 'dm-crypt'
            ? typeof l.details.allow_discards === 'boolean'
              ? l.details.allow_discards
              : /allow_discards/.test(flags)
            : null,
        discardMaxBytes: typeof l.details.discardMaxBytes === 'number' ? l.details.discardMaxBytes : null,
      },
    ];
  });
}

/** Reads the counters and the queue's discard limit of each layer now. */
export async function readDiscardCounters(layers: BlockLayer[], opts?: RootOptions): Promise<LayerReading[]> {
  const root = rootOf(opts);
  return Promise.all(
    layers.map(async (l) => {
      const stat = await readText(root, `/sys/class/block/${l.device}/stat`);
      // A partition's limits are its disk's; /sys/class/block/PART/queue does not exist.
      const max = await readNumber(root, `/sys/class/block/${l.device}/queue/discard_max_bytes`);
      const reading: LayerReading = {
        counters: stat.value === null ? null : parseDiscardStat(stat.value),
        discardMaxBytes: max.value ?? l.discardMaxBytes,
      };
      // zram counts no discards, but what it holds shows what a discard freed.
      if (/^zram\d+$/.test(l.device)) {
        const mm = (await readText(root, `/sys/class/block/${l.device}/mm_stat`)).value;
        reading.mmStat = mm === null ? null : mm.trim().split(/\s+/).map(Number);
      }
      return reading;
    }),
  );
}

/** The evidence there is where the counters cannot tell: fstrim's bytes, zram's data held before and after. */
function evidenceFor(before: LayerReading | undefined, after: LayerReading | undefined, fstrimBytes: number | null | undefined): string[] {
  const evidence: string[] = [];
  if (typeof fstrimBytes === 'number') evidence.push(`fstrim reported ${fstrimBytes.toLocaleString('en')} bytes trimmed`);
  const [heldBefore, , usedBefore] = before?.mmStat ?? [];
  const [heldAfter, , usedAfter] = after?.mmStat ?? [];
  if (heldBefore !== undefined && heldAfter !== undefined && usedBefore !== undefined && usedAfter !== undefined)
    evidence.push(
      `zram's mm_stat: data held ${formatBytes(heldBefore)} → ${formatBytes(heldAfter)}, memory used ${formatBytes(usedBefore)} → ${formatBytes(usedAfter)}` +
        (heldAfter < heldBefore ? ' (pages were freed: a discard or an overwrite reached zram)' : ''),
    );
  return evidence;
}

const label = (l: BlockLayer) => `${l.kind} ${l.name}${l.device !== l.name ? ` (${l.device})` : ''}`;

/** Which layers a discard reached between two readings, and where tables and counters disagree. */
export function judgeAudit(
  layers: BlockLayer[],
  before: LayerReading[],
  after: LayerReading[],
  /** What fstrim reported trimmed (null: it did not say, or did not run). */
  fstrimBytes: number | null = null,
  /** A reading between the delete and fstrim, for zram's mm_stat (what fstrim freed); else `before`'s is used. */
  beforeTrim: LayerReading[] = before,
): DiscardAudit {
  const audited: LayerAudit[] = layers.map((l, i) => {
    const b = before[i]?.counters ?? null;
    const a = after[i]?.counters ?? null;
    const discards = a && b ? a.ios - b.ios : null;
    const bytes = a && b ? (a.sectors - b.sectors) * 512 : null;
    const max = after[i]?.discardMaxBytes ?? l.discardMaxBytes;
    // A count of 0 says nothing on a driver that counts none: a known one, or the filesystem's
    // own device when fstrim trimmed bytes (it sent discards there) and its queue takes them.
    const uncounted =
      discards === 0 && max !== 0
        ? (uncountingDriver(l.device) ??
          (i === 0 && fstrimBytes !== null && fstrimBytes > 0
            ? `fstrim trimmed ${fstrimBytes.toLocaleString('en')} bytes through it, yet its /sys/block stat counted no discard: its driver counts none`
            : null))
        : null;
    return {
      ...l,
      discardMaxBytes: max,
      before: b,
      after: a,
      discards,
      bytes,
      reached: discards === null || uncounted ? null : discards > 0,
      mismatch: null,
      uncounted,
    };
  });
  // A layer whose queue refuses discards (limit 0) passes none down, so nothing below it can
  // see the audit's: a discard seen there says the tables are wrong; one missing below a
  // layer that saw them while every table says "passes" says a layer swallowed them.
  const mismatches: string[] = [];
  let stoppedAt: string | null = null;
  for (let i = 0; i < audited.length; i++) {
    const l = audited[i]!;
    const above = audited.slice(0, i).at(-1);
    if (l.kind === 'dm-crypt' && l.allowDiscards === false && l.reached === true)
      l.mismatch = `dmsetup table has no allow_discards for ${l.name}, yet it received ${l.discards} discards`;
    if (l.reached === true && l.discardMaxBytes === 0)
      l.mismatch = `${label(l)} says discard_max_bytes 0, yet it received ${l.discards} discards`;
    if (above?.reached === true && l.reached === false) {
      stoppedAt ??= label(above);
      // Below a loop device lies its backing file's filesystem: a discard there becomes a
      // punched hole, and reaches that disk only if that filesystem discards in turn.
      if (
        above.kind !== 'loop' &&
        above.discardMaxBytes !== 0 &&
        above.tablesSayPasses !== false &&
        (above.kind !== 'dm-crypt' || above.allowDiscards !== false)
      )
        l.mismatch ??= `${label(above)} received discards and its tables say they pass, but ${label(l)} received none`;
    }
    if (l.mismatch) mismatches.push(l.mismatch);
  }
  const reached = audited.filter((l) => l.reached === true);
  const deepest = reached.at(-1);
  const blind = audited.findIndex((l) => l.uncounted);
  const cannotTell: CannotTell | null =
    blind < 0
      ? null
      : {
          layer: label(audited[blind]!),
          why: audited[blind]!.uncounted!,
          evidence: evidenceFor(beforeTrim[blind], after[blind], fstrimBytes),
        };
  return {
    layers: audited,
    deepestReached: deepest ? label(deepest) : null,
    stoppedAt,
    refusedBy: refusingLayer(audited),
    cannotTell,
    mismatches,
  };
}

const refuses = (l: LayerAudit) => l.discardMaxBytes === 0 || (l.kind === 'dm-crypt' && l.allowDiscards === false);

/**
 * A dm-crypt table without allow_discards, the usual cause; else the first layer that refuses
 * and, where the layers under it refuse too, the lowest of that run (those above inherit its 0).
 */
function refusingLayer(layers: LayerAudit[]): string | null {
  const crypt = layers.find((l) => l.kind === 'dm-crypt' && l.allowDiscards === false);
  if (crypt) return label(crypt);
  let i = layers.findIndex(refuses);
  if (i < 0) return null;
  while (i + 1 < layers.length && refuses(layers[i + 1]!)) i++;
  return label(layers[i]!);
}
