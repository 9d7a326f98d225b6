// The TRIM audit that looks rather than guesses: the discard counters the kernel keeps for
// every block device (/sys/block/NAME/stat, fields 12–15: discards completed, merged, sectors
// discarded, ms spent), read on every layer of a target's stack before and after a delete +
// fstrim, show which layers a discard actually reached. Set beside what the tables say
// (dm-crypt's allow_discards, each queue's discard_max_bytes), a disagreement is called out.
import { readNumber, readText, type RootOptions, rootOf } from './sysfs.ts';
import type { StackLayer } from '../../shared/model/machine.ts';

// The audit's types are inferred from its schemas, written once (model/trim-audit-schema.ts).
import type { BlockLayer, DiscardAudit, DiscardCounters, LayerAudit, TrimAuditResult } from '../../shared/model/trim-audit-schema.ts';
export type { BlockLayer, DiscardAudit, DiscardCounters, LayerAudit, TrimAuditResult };

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
export async function readDiscardCounters(
  layers: BlockLayer[],
  opts?: RootOptions,
): Promise<Array<{ counters: DiscardCounters | null; discardMaxBytes: number | null }>> {
  const root = rootOf(opts);
  return Promise.all(
    layers.map(async (l) => {
      const stat = await readText(root, `/sys/class/block/${l.device}/stat`);
      // A partition's limits are its disk's; /sys/class/block/PART/queue does not exist.
      const max = await readNumber(root, `/sys/class/block/${l.device}/queue/discard_max_bytes`);
      return { counters: stat.value === null ? null : parseDiscardStat(stat.value), discardMaxBytes: max.value ?? l.discardMaxBytes };
    }),
  );
}

const label = (l: BlockLayer) => `${l.kind} ${l.name}${l.device !== l.name ? ` (${l.device})` : ''}`;

/** Which layers a discard reached between two readings, and where tables and counters disagree. */
export function judgeAudit(
  layers: BlockLayer[],
  before: Array<{ counters: DiscardCounters | null; discardMaxBytes: number | null }>,
  after: Array<{ counters: DiscardCounters | null; discardMaxBytes: number | null }>,
): DiscardAudit {
  const audited: LayerAudit[] = layers.map((l, i) => {
    const b = before[i]?.counters ?? null;
    const a = after[i]?.counters ?? null;
    const discards = a && b ? a.ios - b.ios : null;
    const bytes = a && b ? (a.sectors - b.sectors) * 512 : null;
    const max = after[i]?.discardMaxBytes ?? l.discardMaxBytes;
    return {
      ...l,
      discardMaxBytes: max,
      before: b,
      after: a,
      discards,
      bytes,
      reached: discards === null ? null : discards > 0,
      mismatch: null,
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
  return { layers: audited, deepestReached: deepest ? label(deepest) : null, stoppedAt, refusedBy: refusingLayer(audited), mismatches };
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
