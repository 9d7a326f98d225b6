// What a caller (CLI, app, tests) asks the orchestrator for. Validated with zod at every
// boundary; the orchestrator turns it into the worker's argv from enums and numbers only.
import { z } from 'zod';
import { isCatalogTest, TEST_IDS } from '../model/catalog.ts';
import { controlCharIn } from '../model/display.ts';

/** A label as people type it: no control characters, which a terminal showing it would obey. */
export const plainLabel = z
  .string()
  .max(200)
  .refine((s) => controlCharIn(s) === null, 'control characters are not allowed in a label');

/** The largest test file a spec may ask for, 1 PiB: more than any disk, less than 2^53. */
export const MAX_SIZE_BYTES = 2 ** 50;

export const PRESET_NAMES = ['standard', 'quick', 'seeks', 'full', 'workloads'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const benchSpecSchema = z
  .object({
    /** A folder (a test file is created in it) or a block device (read tests only). */
    target: z.string().min(1),
    preset: z.enum(PRESET_NAMES).optional(),
    tests: z
      .array(
        z
          .string()
          .max(200)
          .refine(isCatalogTest, { message: `unknown test: use one of ${TEST_IDS.join(', ')}` }),
      )
      .min(1)
      .refine((ids) => new Set(ids).size === ids.length, 'a test is named twice: each runs once')
      .optional(),
    sizeBytes: z
      .number()
      .int()
      .min(16 * 1024 * 1024)
      .max(MAX_SIZE_BYTES)
      .optional(),
    durationSec: z.number().min(0.2).max(3600).optional(),
    warmupSec: z.number().min(0).max(600).optional(),
    /** Without precision: exactly this many runs. With it: the fewest. */
    runs: z.number().int().min(1).max(100).optional(),
    /** Adaptive stopping: the median's 95 % interval to reach (0.02 = ±2 %); 0: a fixed count of runs. */
    precision: z.number().min(0).max(0.5).optional(),
    /** Adaptive stopping: the most timed seconds per test. */
    maxTimeSec: z.number().min(0.2).max(36000).optional(),
    label: plainLabel.optional(),
    /** Page-cache I/O where O_DIRECT is refused (tmpfs); every result is then flagged. */
    buffered: z.boolean().optional(),
    /**
     * A block device this user cannot read: have the privileged helper open it through
     * pkexec (one authentication; the measuring stays the user's). Ignored as root.
     */
    elevate: z.boolean().optional(),
    /** The `tarball` workload: the user's own tarball to extract (absolute path; tar reads it). */
    tarball: z.string().startsWith('/').optional(),
    /**
     * Also measure what dm-crypt costs (core/crypto/encryption-run.ts): the run's tests on a
     * throwaway mapping (or the existing one under the target) and on the device beneath.
     * Root only; the orchestrator itself ignores it.
     */
    encryption: z.enum(['auto', 'throwaway', 'existing']).optional(),
  })
  .strict();

export type BenchSpec = z.infer<typeof benchSpecSchema>;

// The events' types are inferred from their schemas (bench-events.ts), which the API contract uses too.
export type { BenchEvent, BenchPhase } from './bench-events.ts';
