// Whether a discard (online, or by fstrim) reaches the disk, from a target's stack. Pure (no
// Node), so the report view can state a run's TRIM state from the stack its record keeps.
import type { FstrimTimerFacts, StackLayer } from '../model/machine.ts';

export interface TrimVerdict {
  /** The mount's own discard option: "on", "async", "off", or null (decided elsewhere, e.g. ZFS). */
  onlineDiscard: string | null;
  /** Every layer between the filesystem and the disk passes discards (fstrim would reach the disk). */
  reachesDisk: boolean | null;
  /** The first layer that stops discards, or whose behaviour is unknown. */
  blockedAt: string | null;
  fstrimTimer: FstrimTimerFacts | null;
  /** When onlineDiscard is DiskDelta's (a discard-cost remount), not the user's: the sentence that says so. */
  onlineDiscardNote: string | null;
}

/**
 * Discards leave the filesystem (online, or by fstrim) and must pass every layer below it.
 * A later mount layer is a loop's backing filesystem: a discard becomes a punched hole there,
 * and reaches its disk only if that filesystem discards online in turn.
 */
export function trimVerdict(layers: StackLayer[], fstrimTimer: FstrimTimerFacts | null): TrimVerdict {
  // layers[0] is the target; a mount right under it is the target's own filesystem (a block
  // device target has none, and a later mount belongs to a loop's backing file).
  const mount = layers[1]?.kind === 'mount' ? layers[1] : null;
  // A partition shares its disk's queue, so the disk answers for it.
  const below = layers.slice(mount ? 2 : 1).filter((l) => l.kind !== 'file' && l.kind !== 'partition');
  let reachesDisk: boolean | null = below.some((l) => l.kind === 'disk') ? true : null;
  let blockedAt: string | null = null;
  // Layers inherit discard limits from below (LVM on a crypt without allow_discards shows 0
  // too), so the deepest layer that refuses is the cause.
  const refusing = below.filter((l) => l.discardPasses === false);
  const unknown = below.find((l) => l.discardPasses == null);
  if (refusing.length > 0) {
    reachesDisk = false;
    const cause = refusing[refusing.length - 1]!;
    blockedAt = `${cause.kind} ${cause.name}`;
  } else if (unknown && reachesDisk) {
    reachesDisk = null;
    blockedAt = `${unknown.kind} ${unknown.name} (unknown)`;
  }
  return {
    onlineDiscard: mount ? ((mount.details.onlineDiscard as string | null) ?? null) : null,
    reachesDisk,
    blockedAt,
    fstrimTimer,
    onlineDiscardNote: mount && mount.details.discardRemountedByPid != null ? (mount.reasons?.onlineDiscard ?? null) : null,
  };
}
