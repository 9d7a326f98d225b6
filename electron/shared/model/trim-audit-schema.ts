// The TRIM audit's model (system/discard-audit.ts runs it, the library's trim_audits keeps it),
// written once as zod schemas; the types are inferred from them. The library checks a stored
// audit against them when it reads one back (store/stored-row.ts): a row that no longer fits is
// passed over, never laid over the Overview as if it were valid.
import { z } from 'zod';
import { stackLayerSchema } from './schemas.ts';

const count = z.number().nonnegative();

/** Fields 12–15 of a block stat line: discards completed, merged, 512-byte sectors discarded, ms spent. */
export const discardCountersSchema = z.strictObject({ ios: count, merged: count, sectors: count, ms: count });

/** A block layer of the stack, with the kernel name its counters are under. */
export const blockLayerSchema = z.strictObject({
  kind: stackLayerSchema.shape.kind,
  /** As people know it: "luks-root", "vg-home", "sda2", "loop3", "vda". */
  name: z.string(),
  /** The kernel's name under /sys/class/block: "dm-1", "sda2", "loop3". */
  device: z.string(),
  /** What the tables say: the layer's queue takes discards (discard_max_bytes > 0). */
  tablesSayPasses: z.boolean().nullable(),
  /** dm-crypt only: allow_discards in `dmsetup table`. */
  allowDiscards: z.boolean().nullable(),
  discardMaxBytes: count.nullable(),
});

export const layerAuditSchema = blockLayerSchema.extend({
  before: discardCountersSchema.nullable(),
  after: discardCountersSchema.nullable(),
  /** Discard requests completed between the two readings; null when a reading is missing. */
  discards: count.nullable(),
  /** Bytes discarded between the two readings. */
  bytes: count.nullable(),
  reached: z.boolean().nullable(),
  /** Tables and counters disagree: the sentence that says how. */
  mismatch: z.string().nullable(),
  /**
   * Why this layer's counters cannot tell whether a discard reached it (a bio-based driver such
   * as zram counts none in its stat); then `reached` is null. Absent in audits kept before.
   */
  uncounted: z.string().nullable().optional(),
});

/** A layer whose driver counts no discards, and the evidence there is instead (fstrim's bytes, zram's mm_stat). */
export const cannotTellSchema = z.strictObject({
  /** "zram zram1". */
  layer: z.string(),
  why: z.string(),
  evidence: z.array(z.string()),
});

export const discardAuditSchema = z.strictObject({
  layers: z.array(layerAuditSchema),
  /** The deepest layer a discard was seen on ("disk vda"), or null when none was. */
  deepestReached: z.string().nullable(),
  /** Where discards stopped: the first layer below one that saw them that saw none. */
  stoppedAt: z.string().nullable(),
  /**
   * The layer whose own settings refuse discards (dm-crypt without allow_discards, or a queue
   * limit of 0, which the layers above it inherit): a TRIM from the filesystem stops there,
   * whatever the counters saw. Null when every layer takes them. Absent in audits kept before.
   */
  refusedBy: z.string().nullable().optional(),
  /** The first layer whose counters cannot tell (its driver counts no discards), or null. Absent in audits kept before. */
  cannotTell: cannotTellSchema.nullable().optional(),
  mismatches: z.array(z.string()),
});

/** A TRIM audit as run (bench/trim/trim-audit.ts) and kept (the library's trim_audits). */
export const trimAuditSchema = z.strictObject({
  target: z.string(),
  /** ISO 8601, when the second reading was taken. */
  at: z.string(),
  mountPoint: z.string().nullable(),
  /** The filesystem's online discard as mounted: "on", "async", "off", or null. */
  onlineDiscard: z.string().nullable(),
  /** When that setting is DiskDelta's (a discard-cost remount holds it, or a killed one left it): why, and what to do. */
  onlineDiscardNote: z.string().optional(),
  /** Bytes the audit's file held (written, then deleted). */
  deletedBytes: count,
  /** fstrim's wall time and what it reported trimmed; `skipped` when it did not run (and why). */
  fstrim: z.union([z.strictObject({ seconds: count, bytes: count.nullable() }), z.strictObject({ skipped: z.string() })]),
  audit: discardAuditSchema,
});

export type DiscardCounters = z.infer<typeof discardCountersSchema>;
export type BlockLayer = z.infer<typeof blockLayerSchema>;
export type LayerAudit = z.infer<typeof layerAuditSchema>;
export type DiscardAudit = z.infer<typeof discardAuditSchema>;
export type CannotTell = z.infer<typeof cannotTellSchema>;
export type TrimAuditResult = z.infer<typeof trimAuditSchema>;
