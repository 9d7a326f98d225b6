// The one zod mirror of the result and system model (results.ts, system/types.ts). The API
// contract validates its outputs with it, and DiskDelta's JSON import validates hostile files
// with it; two hand-kept mirrors drifted once (the importer refused DiskDelta's own exports).
//
// Objects are strict (an unknown key is an error, never silently dropped), strings are
// bounded and counts non-negative, so a crafted file cannot smuggle in odd shapes. The checks
// at the bottom make tsc fail when the model gains, loses or retypes a field, optional ones
// included, and a schema here does not follow.
import { z } from 'zod';
import { PROVENANCES, RAW_UNITS } from './figure-terms.ts';
import { storedSettingsShape } from './run-settings.ts';
import { ACCESS_PATTERN_NAMES } from './test-params.ts';
import { STATISTICS } from './results.ts';
import type {
  CpuTime,
  ExtraMetric,
  Figure,
  LatencyNs,
  ResultPrecision,
  RunMeasurement,
  RunRecord,
  DriveTemperature,
  RunSettings,
  Sample,
  TargetInfo,
  TestParams,
  TestResult,
  Warning,
} from './results.ts';
import type { DeviceFingerprint, FstrimTimerFacts, StackLayer, SystemFacts } from './machine.ts';
import { ASSESSMENT_FIELDS, type Assessment, type UnreadableAssessment } from './assessment.ts';
import type { CipherCeilings } from './cipher-types.ts';

const count = z.number().nonnegative();
const nullableCount = count.nullable();
const text = z.string().max(10_000);
const shortText = z.string().max(1000);
const reasons = z.record(shortText, text);

export const warningSchema = z.strictObject({ code: z.string().max(200), message: text });

export const deviceFingerprintSchema = z.strictObject({
  name: shortText,
  model: shortText.nullable(),
  serial: shortText.nullable(),
  sizeBytes: nullableCount,
  rotational: z.boolean().nullable(),
  class: z.enum(['HDD', 'SATA SSD', 'NVMe SSD', 'USB', 'virtual', 'RAM', 'loop', 'unknown']),
  transport: shortText.nullable(),
  linkCeilingBytesPerSec: nullableCount,
  linkDescription: shortText.nullable(),
  reasons: reasons.optional(),
});

export const stackLayerSchema = z.strictObject({
  kind: z.enum(['file', 'mount', 'dm-crypt', 'lvm', 'dm', 'partition', 'loop', 'disk', 'other']),
  name: text,
  details: z.record(shortText, z.union([text, z.number(), z.boolean(), z.null()])),
  encrypted: z.boolean().optional(),
  discardPasses: z.boolean().nullable().optional(),
  linkCeilingBytesPerSec: nullableCount.optional(),
  reasons: reasons.optional(),
});

export const fstrimTimerSchema = z.strictObject({
  enabled: z.boolean().nullable(),
  systemdRunning: z.boolean().nullable(),
  reason: text.optional(),
});

export const systemFactsSchema = z.strictObject({
  kernel: shortText.nullable(),
  cpuModel: shortText.nullable(),
  cores: nullableCount,
  cryptoFlags: z.array(z.string().max(100)),
  memoryBytes: nullableCount,
  threads: nullableCount.optional(),
  arch: shortText.nullable().optional(),
  fstrimTimer: fstrimTimerSchema.optional(),
  reasons: reasons.optional(),
});

export const latencySchema = z.strictObject({
  mean: nullableCount,
  p50: nullableCount,
  p90: nullableCount,
  p99: nullableCount,
  p999: nullableCount,
  max: nullableCount,
});

export const sampleSchema = z.strictObject({ tMs: count, bytesPerSec: count, iops: count });
export const cpuSchema = z.strictObject({ userNs: count, systemNs: count });

// From the key table (test-params.ts): a pattern or key added there is stored and imported.
export const testParamsSchema = z.strictObject({
  rw: z.enum(ACCESS_PATTERN_NAMES),
  blockSize: z.number().int().positive(),
  queueDepth: z.number().int().positive(),
  threads: z.number().int().positive(),
  readPercent: z.number().min(0).max(100).optional(),
  spanMiB: z.number().int().positive().optional(),
});

export const runMeasurementSchema = z.strictObject({
  run: z.number().int().positive(),
  bytesPerSec: count,
  iops: count,
  latencyNs: latencySchema,
  elapsedNs: count,
  ios: count,
  bytes: count,
  cpu: cpuSchema,
  samples: z.array(sampleSchema),
});

export const resultPrecisionSchema = z.strictObject({
  ciRelative: nullableCount,
  target: count,
  seconds: count,
  stoppedBy: z.enum(['precision', 'max-time', 'runs']),
});

export const figureSchema = z.strictObject({
  metric: z.string().min(1).max(200),
  subject: z.string().max(200),
  value: z.number().nullable(),
  unit: z.enum(RAW_UNITS),
  provenance: z.enum(PROVENANCES),
  basis: text.optional(),
  passes: z.array(z.number()).max(100_000).optional(),
});

export const testResultSchema = z.strictObject({
  test: z.string().min(1).max(200),
  params: testParamsSchema.nullable(),
  bytesPerSec: nullableCount,
  iops: nullableCount,
  latencyNs: latencySchema.nullable(),
  best: z.strictObject({ bytesPerSec: nullableCount, iops: nullableCount }).nullable(),
  cv: nullableCount,
  runs: z.array(runMeasurementSchema),
  histogram: z.array(z.tuple([count, count])),
  cpu: cpuSchema.nullable(),
  underResolved: z.boolean(),
  statistic: z.enum(STATISTICS).optional(),
  precision: resultPrecisionSchema.optional(),
  warnings: z.array(warningSchema),
  figures: z.array(figureSchema).optional(),
});

export const targetInfoSchema = z.strictObject({
  path: text,
  kind: z.enum(['folder', 'block-device', 'unknown']),
  device: deviceFingerprintSchema.optional(),
  stack: z.array(stackLayerSchema).optional(),
});

export const runSettingsSchema = z.strictObject({
  preset: z.string().max(100).optional(),
  ...storedSettingsShape(),
});

export const extraMetricSchema = z.strictObject({
  name: shortText,
  value: z.number().nullable(),
  unit: z.string().max(100),
  note: text.optional(),
});

const celsius = z.number().min(-300).max(1000);
export const driveTemperatureSchema = z.union([
  z.strictObject({
    disk: shortText,
    sensor: z.enum(['nvme', 'drivetemp']),
    label: shortText,
    beforeC: celsius.nullable(),
    afterC: celsius.nullable(),
    peakC: celsius.nullable(),
    maxC: celsius.nullable(),
    critC: celsius.nullable(),
    readings: z.array(z.strictObject({ tSec: z.number().min(0), celsius, test: z.string().max(200).optional() })).max(100_000),
  }),
  z.strictObject({ disk: shortText.nullable(), sensor: z.null(), reason: text }),
]);

export const runRecordSchema = z.strictObject({
  id: z.number().int().positive().optional(),
  label: shortText,
  notes: z.string().max(100_000),
  createdAt: z.string().max(100),
  source: z.enum(['measured', 'imported', 'reference']),
  sourceFormat: z.enum(['diskdelta', 'bonnie++', 'fio', 'kdiskmark', 'crystaldiskmark']),
  sourceMeta: z.record(shortText, text),
  target: targetInfoSchema,
  system: systemFactsSchema.optional(),
  settings: runSettingsSchema,
  engine: z.strictObject({ name: z.string().max(100), version: z.string().max(100), ioEngine: z.string().max(100).optional() }),
  results: z.array(testResultSchema),
  extras: z.array(extraMetricSchema),
  warnings: z.array(warningSchema),
  temperature: driveTemperatureSchema.optional(),
});

const libraryId = z.number().int().positive();

/** An upgrade assessment as the library keeps it (assessment.ts): run ids per step, and what deletions emptied. */
export const assessmentSchema = z.object({
  id: libraryId,
  label: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...(Object.fromEntries(ASSESSMENT_FIELDS.map((f) => [f, libraryId.nullable()])) as Record<
    (typeof ASSESSMENT_FIELDS)[number],
    z.ZodNullable<typeof libraryId>
  >),
  emptied: z.partialRecord(z.enum(ASSESSMENT_FIELDS), z.object({ run: libraryId, label: z.string(), at: z.string() })),
  notes: z.string(),
});

/** A stored assessment that no longer fits: listed with what is wrong (any integer id: the row's own, whatever it is). */
export const unreadableAssessmentSchema = z.strictObject({ id: z.number().int(), label: z.string(), unreadable: z.string() });

/** The CPU's dm-crypt cipher ceilings (core/crypto/cipher-ceilings.ts), bytes/s. */
export const cipherCeilingsSchema = z.object({
  source: z.enum(['kernel', 'user-space-estimate']),
  sourceLabel: z.string(),
  backend: z.enum(['af_alg', 'openssl']),
  cpus: z.number().int(),
  cpu: z.object({ model: z.string().nullable(), aesNi: z.boolean(), vaes: z.boolean(), flags: z.array(z.string()) }),
  figures: z.array(
    z.object({
      cipher: z.string(),
      keyBits: z.number().int(),
      kernelName: z.string(),
      sectorBytes: z.number().int(),
      threads: z.number().int(),
      encryptBps: z.number(),
      decryptBps: z.number(),
      encryptWindows: z.array(z.number()).optional(),
      decryptWindows: z.array(z.number()).optional(),
      encryptCi: z.number().nullable().optional(),
      decryptCi: z.number().nullable().optional(),
      noisy: z.boolean().optional(),
      slowerThanOneThread: z.boolean().optional(),
    }),
  ),
  unavailable: z.array(z.object({ cipher: z.string(), keyBits: z.number().int(), kernelName: z.string(), reason: z.string() })),
  warnings: z.array(z.string()),
  measuredAt: z.string(),
  windowSeconds: z.number(),
  rounds: z.number().int().optional(),
  kernel: z.string().optional(),
});

// Compile-time agreement with the model, in both directions and on the exact key sets: a plain
// mutual-assignability check passes when one side lacks an optional field, which is how the
// two earlier mirrors drifted unnoticed.
export type Exact<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
export const agree = <T extends true>(value: T): T => value;
agree<Exact<z.infer<typeof warningSchema>, Warning>>(true);
agree<Exact<z.infer<typeof deviceFingerprintSchema>, DeviceFingerprint>>(true);
agree<Exact<z.infer<typeof stackLayerSchema>, StackLayer>>(true);
agree<Exact<z.infer<typeof fstrimTimerSchema>, FstrimTimerFacts>>(true);
agree<Exact<z.infer<typeof systemFactsSchema>, SystemFacts>>(true);
agree<Exact<z.infer<typeof latencySchema>, LatencyNs>>(true);
agree<Exact<z.infer<typeof sampleSchema>, Sample>>(true);
agree<Exact<z.infer<typeof cpuSchema>, CpuTime>>(true);
agree<Exact<z.infer<typeof testParamsSchema>, TestParams>>(true);
agree<Exact<z.infer<typeof runMeasurementSchema>, RunMeasurement>>(true);
agree<Exact<z.infer<typeof resultPrecisionSchema>, ResultPrecision>>(true);
agree<Exact<z.infer<typeof figureSchema>, Figure>>(true);
agree<Exact<z.infer<typeof testResultSchema>, TestResult>>(true);
agree<Exact<z.infer<typeof targetInfoSchema>, TargetInfo>>(true);
agree<Exact<z.infer<typeof runSettingsSchema>, RunSettings>>(true);
agree<Exact<z.infer<typeof extraMetricSchema>, ExtraMetric>>(true);
agree<Exact<z.infer<typeof driveTemperatureSchema>, DriveTemperature>>(true);
agree<Exact<z.infer<typeof runRecordSchema>, RunRecord>>(true);
agree<Exact<z.infer<typeof assessmentSchema>, Assessment>>(true);
agree<Exact<z.infer<typeof cipherCeilingsSchema>, CipherCeilings>>(true);
agree<Exact<z.infer<typeof unreadableAssessmentSchema>, UnreadableAssessment>>(true);
