// One line of the library's list and the filter that selects the lines: the same type and
// schema for `diskdelta list`, the app's Library page and the API, checked against each other
// below the way schemas.ts checks the result model. The store answers every filter in SQL.
import { z } from 'zod';
import { agree, deviceFingerprintSchema, type Exact } from './schemas.ts';
import type { RunSource, SourceFormat } from './results.ts';
import type { DeviceClass } from './machine.ts';

/** What the runs table alone can tell: no JSON, no samples. */
export interface RunSummary {
  id: number;
  label: string;
  createdAt: string;
  source: RunSource;
  sourceFormat: SourceFormat;
  targetPath: string;
  deviceModel: string | null;
  deviceClass: DeviceClass | null;
  preset: string | null;
  engine: string;
  resultCount: number;
  warningCount: number;
}

export interface RunFilter {
  source?: RunSource;
  /** Case-insensitive substring of the label. */
  label?: string;
  /** Case-insensitive substring of the device's model (or kernel name), its class or the target path. */
  device?: string;
  /** Runs created on or after this ISO date or date-time (UTC, compared as text). */
  since?: string;
  /** Runs created on or before this ISO date-time (a bare date means that day's start). */
  until?: string;
  /** Runs holding a result of this test id (the working-set page lists its scans so). */
  test?: string;
  /** At most this many runs: the newest (highest ids), still listed oldest first. */
  limit?: number;
}

const SOURCES = ['measured', 'imported', 'reference'] as const;
const SOURCE_FORMATS = ['diskdelta', 'bonnie++', 'fio', 'kdiskmark', 'crystaldiskmark'] as const;

export const runSummarySchema = z.strictObject({
  id: z.number().int().positive(),
  label: z.string(),
  createdAt: z.string(),
  source: z.enum(SOURCES),
  sourceFormat: z.enum(SOURCE_FORMATS),
  targetPath: z.string(),
  deviceModel: z.string().nullable(),
  deviceClass: deviceFingerprintSchema.shape.class.nullable(),
  preset: z.string().nullable(),
  engine: z.string(),
  resultCount: z.number().int(),
  warningCount: z.number().int(),
});

const isoDateOrTime = z.union([z.iso.date(), z.iso.datetime()]);

export const runFilterSchema = z.strictObject({
  source: z.enum(SOURCES).optional(),
  label: z.string().max(200).optional(),
  device: z.string().max(200).optional(),
  since: isoDateOrTime.optional(),
  until: isoDateOrTime.optional(),
  test: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(1_000_000).optional(),
});

// The same exact-key agreement as the result model's (schemas.ts).
agree<Exact<z.infer<typeof runSummarySchema>, RunSummary>>(true);
agree<Exact<z.infer<typeof runFilterSchema>, RunFilter>>(true);
