// The shape of a TRIM audit as the library keeps it (trim_audits.result, JSON): checked when read
// back (stored-row.ts), so an audit row that no longer fits is passed over rather than laid over
// the Overview as if it were valid. Its own file: the audit's model (system/discard-audit.ts) has
// no zod, and the agreement below keeps the two from drifting.
import { z } from 'zod';
import { agree, stackLayerSchema, type Exact } from '../model/schemas.ts';
import type { TrimAuditResult } from '../system/discard-audit.ts';

const count = z.number().nonnegative();
const counters = z.strictObject({ ios: count, merged: count, sectors: count, ms: count });

const layerAuditSchema = z.strictObject({
  kind: stackLayerSchema.shape.kind,
  name: z.string(),
  device: z.string(),
  tablesSayPasses: z.boolean().nullable(),
  allowDiscards: z.boolean().nullable(),
  discardMaxBytes: count.nullable(),
  before: counters.nullable(),
  after: counters.nullable(),
  discards: count.nullable(),
  bytes: count.nullable(),
  reached: z.boolean().nullable(),
  mismatch: z.string().nullable(),
});

export const trimAuditSchema = z.strictObject({
  target: z.string(),
  at: z.string(),
  mountPoint: z.string().nullable(),
  onlineDiscard: z.string().nullable(),
  onlineDiscardNote: z.string().optional(),
  deletedBytes: count,
  fstrim: z.union([z.strictObject({ seconds: count, bytes: count.nullable() }), z.strictObject({ skipped: z.string() })]),
  audit: z.strictObject({
    layers: z.array(layerAuditSchema),
    deepestReached: z.string().nullable(),
    stoppedAt: z.string().nullable(),
    refusedBy: z.string().nullable().optional(),
    mismatches: z.array(z.string()),
  }),
});

agree<Exact<z.infer<typeof trimAuditSchema>, TrimAuditResult>>(true);
