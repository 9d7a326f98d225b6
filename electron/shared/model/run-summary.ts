// One line of the library's list and the filter that selects the lines: the same schema (and
// its inferred type) for `diskdelta list`, the app's Library page and the API. The store
// answers every filter in SQL.
import { z } from 'zod';
import { RUN_SOURCES } from './figure-terms.ts';
import { deviceClassSchema } from './schemas.ts';
import { SOURCE_FORMATS } from './source-formats.ts';

/** What the runs table alone can tell: no JSON, no samples. */
export const runSummarySchema = z.strictObject({
  id: z.number().int().positive(),
  label: z.string(),
  createdAt: z.string(),
  source: z.enum(RUN_SOURCES),
  sourceFormat: z.enum(SOURCE_FORMATS),
  targetPath: z.string(),
  deviceModel: z.string().nullable(),
  deviceClass: deviceClassSchema.nullable(),
  preset: z.string().nullable(),
  engine: z.string(),
  resultCount: z.number().int(),
  warningCount: z.number().int(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

const isoDateOrTime = z.union([z.iso.date(), z.iso.datetime()]);

export const runFilterSchema = z.strictObject({
  source: z.enum(RUN_SOURCES).optional(),
  /** Case-insensitive substring of the label. */
  label: z.string().max(200).optional(),
  /** Case-insensitive substring of the device's model (or kernel name), its class or the target path. */
  device: z.string().max(200).optional(),
  /** Runs created on or after this ISO date or date-time (UTC, compared as text). */
  since: isoDateOrTime.optional(),
  /** Runs created on or before this ISO date-time (a bare date means that day's start). */
  until: isoDateOrTime.optional(),
  /** Runs holding a result of this test id (the working-set page lists its scans so). */
  test: z.string().min(1).max(200).optional(),
  /** At most this many runs: the newest (highest ids), still listed oldest first. */
  limit: z.number().int().min(1).max(1_000_000).optional(),
});
export type RunFilter = z.infer<typeof runFilterSchema>;
