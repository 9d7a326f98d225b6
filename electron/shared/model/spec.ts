// What a caller (CLI, app, tests) asks the orchestrator for. Validated with zod at every
// boundary; the orchestrator turns it into the worker's argv from enums and numbers only.
import { z } from 'zod';
import { isRunnableTest, TEST_IDS } from './catalog.ts';
import { controlCharIn } from './display.ts';
import { specSettingsShape, type RunSettingDef } from './run-settings.ts';
import { WORKER_OPTIONS, type WorkerOption } from './worker-options.ts';

/** A label as people type it: no control characters, which a terminal showing it would obey. */
export const plainLabel = z
  .string()
  .max(200)
  .refine((s) => controlCharIn(s) === null, 'control characters are not allowed in a label');

export const PRESET_NAMES = [
  'standard',
  'quick',
  'seeks',
  'full',
  'workloads',
  'nvme',
  'peak',
  'real-world',
  'flash',
  'sweep',
  'sustained',
  'steady',
  'surface',
] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** What a spec holds beside the run settings. */
const SPEC_FIELDS = {
  /** A folder (a test file is created in it) or a block device (read tests only). */
  target: z.string().min(1),
  preset: z.enum(PRESET_NAMES).optional(),
  tests: z
    .array(
      z
        .string()
        .max(200)
        .refine(isRunnableTest, {
          message: `unknown test: use one of ${TEST_IDS.join(', ')}, or a rate test by its parameters (diskdelta run --job)`,
        }),
    )
    .min(1)
    .refine((ids) => new Set(ids).size === ids.length, 'a test is named twice: each runs once')
    .optional(),
  label: plainLabel.optional(),
  /**
   * A block device this user cannot read: have the privileged helper open it through
   * pkexec (one authentication; the measuring stays the user's). Ignored as root.
   */
  elevate: z.boolean().optional(),
  /** The `tarball` workload: the user's own tarball to extract (absolute path; tar reads it). */
  tarball: z.string().startsWith('/').optional(),
  /**
   * Also measure what dm-crypt costs (node/crypto/encryption-run.ts): the run's tests on a
   * throwaway mapping (or the existing one under the target) and on the device beneath.
   * Root only; the orchestrator itself ignores it.
   */
  encryption: z.enum(['auto', 'throwaway', 'existing']).optional(),
};

/** The spec's schema over a table of run settings: the real one below, a throwaway one in tests. */
export function benchSpecSchemaFor(settings: readonly RunSettingDef[], options: readonly WorkerOption[] = WORKER_OPTIONS) {
  return z.object({ ...SPEC_FIELDS, ...specSettingsShape(settings, options) }).strict();
}

/** sizeBytes, durationSec, warmupSec, runs, precision, maxTimeSec, buffered … come from model/run-settings.ts. */
export const benchSpecSchema = z.object({ ...SPEC_FIELDS, ...specSettingsShape() }).strict();

export type BenchSpec = z.infer<typeof benchSpecSchema>;

// The events' types are inferred from their schemas (bench-events.ts), which the API contract uses too.
export type { BenchEvent, BenchPhase } from './bench-events.ts';
