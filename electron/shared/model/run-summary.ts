// One line of the library's list and the filter that selects the lines: the same schema (and
// its inferred type) for `diskdelta list`, the app's Library page and the API. The store
// answers every filter in SQL.
import { z } from 'zod';
import { RUN_SOURCES } from './figure-terms.ts';
import { deviceClassSchema } from './schemas.ts';
import { SOURCE_FORMATS } from './source-formats.ts';
import { RUN_KINDS } from './run-kind.ts';

/** What the runs table alone can tell: no JSON, no samples. */
export const runSummarySchema = z.strictObject({
  id: z.number().int().positive(),
  label: z.string(),
  /** When it was measured (or, for an import or a reference, when its source says it was). */
  createdAt: z.string(),
  /** When it entered this library (ISO): a 2013 reference imported today was saved today. */
  savedAt: z.string(),
  source: z.enum(RUN_SOURCES),
  sourceFormat: z.enum(SOURCE_FORMATS),
  targetPath: z.string(),
  deviceModel: z.string().nullable(),
  deviceClass: deviceClassSchema.nullable(),
  preset: z.string().nullable(),
  engine: z.string(),
  resultCount: z.number().int(),
  warningCount: z.number().int(),
  /** What the run is (model/run-kind.ts), decided when it was saved. */
  kind: z.enum(RUN_KINDS),
  /** Measured through dm-crypt; null: the run keeps no storage stack (most imports), so nobody can say. */
  encrypted: z.boolean().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/**
 * A row of the runs table that no longer fits (a column edited outside DiskDelta, a newer
 * version's value): listed with its id, its name and what is wrong, never breaking the list of
 * the others (store/stored-row.ts says the same of whole records).
 */
export const unreadableRunSummarySchema = z.strictObject({ id: z.number().int(), label: z.string(), unreadable: z.string() });
export type UnreadableRunSummary = z.infer<typeof unreadableRunSummarySchema>;

/** One line of the library's list: a run, or a row that can no longer be read. */
export type RunListItem = RunSummary | UnreadableRunSummary;

export function isUnreadableRun(item: RunListItem): item is UnreadableRunSummary {
  return 'unreadable' in item;
}

/** The runs of a list that can be read (the others are said elsewhere, never used). */
export function readableRuns(items: readonly RunListItem[]): RunSummary[] {
  return items.filter((item): item is RunSummary => !isUnreadableRun(item));
}

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
  /** Runs of this kind, or of any of these kinds (model/run-kind.ts). */
  kind: z.union([z.enum(RUN_KINDS), z.array(z.enum(RUN_KINDS)).min(1).max(RUN_KINDS.length)]).optional(),
  /**
   * At most this many runs: the most recently saved (highest ids: ids are given in the order
   * runs enter the library, whatever date their source carries), still listed oldest first.
   */
  limit: z.number().int().min(1).max(1_000_000).optional(),
});
export type RunFilter = z.infer<typeof runFilterSchema>;
