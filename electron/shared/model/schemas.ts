// THE result and machine model, written once as zod schemas; the types are inferred from them
// (as the API contract's are). The bench orchestrator, the library, the importers, the
// comparison and the app all use these types; the contract validates its outputs with the
// schemas, and DiskDelta's JSON import validates hostile files with them. Two hand-kept
// mirrors (interfaces beside schemas) drifted once: the importer refused DiskDelta's own exports.
//
// Raw units only: bytes per second, I/Os per second, nanoseconds. Conversion to MB/s, MiB/s or
// KB/s happens at display time (analysis/units.ts). Unknown facts are null with a reason rather
// than guessed.
//
// Objects are strict (an unknown key is an error, never silently dropped), strings are
// bounded and counts non-negative, so a crafted file cannot smuggle in odd shapes.
//
// The renderer imports the types only (`import type`, through results.ts and machine.ts): zod
// stays out of its main bundle. No Node API here.
import { z } from 'zod';
import { PROVENANCES, RAW_UNITS, RUN_SOURCES, STATISTICS } from './figure-terms.ts';
import { storedSettingsShape } from './run-settings.ts';
import { SOURCE_FORMATS } from './source-formats.ts';
import { ACCESS_PATTERN_NAMES } from './access-patterns.ts';

const count = z.number().nonnegative();
const nullableCount = count.nullable();
const text = z.string().max(10_000);
const shortText = z.string().max(1000);
/** Why a field is null, keyed by field name (e.g. { serial: "no vpd_pg80 in sysfs" }). */
const reasons = z.record(shortText, text);

export const warningSchema = z.strictObject({
  /** Stable machine-readable code, e.g. "under-resolved", "noisy", "buffered-io". */
  code: z.string().max(200),
  /** One sentence a person can act on. */
  message: text,
});
export type Warning = z.infer<typeof warningSchema>;

// ---- The machine (owned by system/: issue "Know the machine"). ----

export const deviceClassSchema = z.enum(['HDD', 'SATA SSD', 'NVMe SSD', 'USB', 'virtual', 'RAM', 'loop', 'unknown']);
export type DeviceClass = z.infer<typeof deviceClassSchema>;

export const deviceFingerprintSchema = z.strictObject({
  /** Kernel name, e.g. "sda", "nvme0n1", "loop3". */
  name: shortText,
  model: shortText.nullable(),
  serial: shortText.nullable(),
  sizeBytes: nullableCount,
  rotational: z.boolean().nullable(),
  class: deviceClassSchema,
  /** sata, nvme, usb, virtio, loop, zram … */
  transport: shortText.nullable(),
  /** Negotiated link ceiling in bytes per second, e.g. 300e6 for SATA 2. */
  linkCeilingBytesPerSec: nullableCount,
  /** E.g. "SATA 3.0 Gb/s". */
  linkDescription: shortText.nullable(),
  /** Why a null field is unknown (added by system/, optional). */
  reasons: reasons.optional(),
});
export type DeviceFingerprint = z.infer<typeof deviceFingerprintSchema>;

export const stackLayerSchema = z.strictObject({
  kind: z.enum(['file', 'mount', 'dm-crypt', 'lvm', 'dm', 'partition', 'loop', 'disk', 'other']),
  name: text,
  details: z.record(shortText, z.union([text, z.number(), z.boolean(), z.null()])),
  encrypted: z.boolean().optional(),
  discardPasses: z.boolean().nullable().optional(),
  /** Link ceiling of a disk layer in bytes per second (disk layers only). */
  linkCeilingBytesPerSec: nullableCount.optional(),
  /** Why a null detail is unknown, keyed by detail name. */
  reasons: reasons.optional(),
});
export type StackLayer = z.infer<typeof stackLayerSchema>;

/** Whether periodic TRIM is scheduled, read from systemd unit symlinks (not systemctl). */
export const fstrimTimerSchema = z.strictObject({
  /** A timers.target.wants/fstrim.timer link exists in /etc, /usr/lib or /lib systemd dirs. */
  enabled: z.boolean().nullable(),
  /** /run/systemd/system exists: systemd is the running init, so an enabled timer fires. */
  systemdRunning: z.boolean().nullable(),
  reason: text.optional(),
});
export type FstrimTimerFacts = z.infer<typeof fstrimTimerSchema>;

export const systemFactsSchema = z.strictObject({
  kernel: shortText.nullable(),
  cpuModel: shortText.nullable(),
  cores: nullableCount,
  /** E.g. ["aes", "vaes"]. */
  cryptoFlags: z.array(z.string().max(100)),
  memoryBytes: nullableCount,
  /** Logical CPUs (hardware threads); `cores` counts physical cores. */
  threads: nullableCount.optional(),
  arch: shortText.nullable().optional(),
  fstrimTimer: fstrimTimerSchema.optional(),
  reasons: reasons.optional(),
});
export type SystemFacts = z.infer<typeof systemFactsSchema>;

// ---- One test's figures. ----

/** Latency in nanoseconds. A field is null when the source did not report it (imports). */
export const latencySchema = z.strictObject({
  mean: nullableCount,
  p50: nullableCount,
  p90: nullableCount,
  p99: nullableCount,
  p999: nullableCount,
  max: nullableCount,
});
export type LatencyNs = z.infer<typeof latencySchema>;

export const sampleSchema = z.strictObject({
  /** Milliseconds since the start of the timed window. */
  tMs: count,
  bytesPerSec: count,
  iops: count,
});
export type Sample = z.infer<typeof sampleSchema>;

export const cpuSchema = z.strictObject({ userNs: count, systemNs: count });
export type CpuTime = z.infer<typeof cpuSchema>;

// From the key table (test-params.ts): a pattern or key added there is stored and imported.
export const testParamsSchema = z.strictObject({
  rw: z.enum(ACCESS_PATTERN_NAMES),
  /** Bytes. */
  blockSize: z.number().int().positive(),
  /** I/Os in flight per thread. */
  queueDepth: z.number().int().positive(),
  threads: z.number().int().positive(),
  /** Share of reads in percent, for randrw. */
  readPercent: z.number().min(0).max(100).optional(),
  /**
   * The test covers only the first spanMiB MiB of its target (fio's size=): random reads over the
   * hot part of a disk rather than all of it. Absent: the whole test file or device.
   */
  spanMiB: z.number().int().positive().optional(),
});
/** A rate test's parameters (their key table: test-params.ts). */
export type TestParams = z.infer<typeof testParamsSchema>;

/** One timed window of one test. */
export const runMeasurementSchema = z.strictObject({
  /** 1-based. */
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
export type RunMeasurement = z.infer<typeof runMeasurementSchema>;

export const resultPrecisionSchema = z.strictObject({
  /** Half-width of the median's 95 % confidence interval, relative (0.02 = ±2 %); null below 2 runs. */
  ciRelative: nullableCount,
  /** The half-width asked for; 0 when the number of runs was fixed. */
  target: count,
  /** Seconds the test took, its warm-up included. */
  seconds: count,
  /** Why the runs stopped: the interval was reached, the test's time was up, the fixed count was done, or the rounds were steady (SNIA PTS). */
  stoppedBy: z.enum(['precision', 'max-time', 'runs', 'steady']),
});
export type ResultPrecision = z.infer<typeof resultPrecisionSchema>;

/**
 * A figure that is not an I/O rate: the seconds of one phase of a workload, a cipher's
 * ceiling in bytes/s, a forecast. Its metric (catalog.ts METRICS) says the unit and which way
 * is better; `estimated` figures come from a model, not a measurement, and are shown as such.
 */
export const figureSchema = z.strictObject({
  /** A catalog metric id, e.g. "phaseSeconds", "cipherBytesPerSec", "forecastBytesPerSec". */
  metric: z.string().min(1).max(200),
  /** What the figure is of within its test: a phase ("unpack"), a cipher ("aes-xts-plain64"); "" when single. */
  subject: z.string().max(200),
  /** Raw, in `unit`; null: not obtained (say why in `basis`). */
  value: z.number().nullable(),
  unit: z.enum(RAW_UNITS),
  provenance: z.enum(PROVENANCES),
  /** How it was obtained, for estimated figures above all ("cipher ceiling × measured write"). */
  basis: text.optional(),
  /**
   * The repeated values the figure combines (a workload phase's timed passes, raw unit): its
   * spread, judged by the rates' trust rules (noisy) and by compare's one significance rule.
   */
  passes: z.array(z.number()).max(100_000).optional(),
});
export type Figure = z.infer<typeof figureSchema>;

/** A histogram as sparse [lowerBoundNs, count] pairs, ascending. */
export const latencyHistogramSchema = z.array(z.tuple([count, count]));
export type LatencyHistogram = z.infer<typeof latencyHistogramSchema>;

export const testResultSchema = z.strictObject({
  /** A test id of the catalog (catalog.ts); imports use the nearest catalog test or their own name. */
  test: z.string().min(1).max(200),
  params: testParamsSchema.nullable(),
  /** The runs combined by `statistic` (measured) or the value in the file (imported). null: not reported. */
  bytesPerSec: nullableCount,
  iops: nullableCount,
  latencyNs: latencySchema.nullable(),
  best: z.strictObject({ bytesPerSec: nullableCount, iops: nullableCount }).nullable(),
  /** Coefficient of variation of bytesPerSec over runs (0.05 = 5 %); null with fewer than 2 runs. */
  cv: nullableCount,
  runs: z.array(runMeasurementSchema),
  histogram: latencyHistogramSchema,
  /** Worker CPU time over all runs, to recognise a CPU-bound result. */
  cpu: cpuSchema.nullable(),
  /** True when the result is too short or has too few I/Os to be trusted (bonnie++'s +++++). */
  underResolved: z.boolean(),
  /**
   * How bytesPerSec and iops combine the runs (figure-terms.ts STATISTICS). Absent: not recorded (a
   * result stored or exported before it was, or a reference figure whose source does not say).
   */
  statistic: z.enum(STATISTICS).optional(),
  /** How precise the median is and why the runs stopped (DiskDelta's measured runs only). */
  precision: resultPrecisionSchema.optional(),
  warnings: z.array(warningSchema),
  /**
   * The figures of kinds that are not rates (seconds per phase, cipher ceilings, forecasts).
   * Absent for rate tests; the library stores an empty list as absent.
   */
  figures: z.array(figureSchema).optional(),
});
export type TestResult = z.infer<typeof testResultSchema>;

// ---- A run. ----

export const targetInfoSchema = z.strictObject({
  path: text,
  kind: z.enum(['folder', 'block-device', 'unknown']),
  /** The disk under the target, from system/ (issue "Know the machine"). */
  device: deviceFingerprintSchema.optional(),
  /** From the file down to the disk. */
  stack: z.array(stackLayerSchema).optional(),
});
export type TargetInfo = z.infer<typeof targetInfoSchema>;

/**
 * What a run measured with: its preset and the run settings' values (model/run-settings.ts; a
 * setting added there is stored with no edit here). precision is absent or 0 when runs were fixed.
 */
export const runSettingsSchema = z.strictObject({
  preset: z.string().max(100).optional(),
  ...storedSettingsShape(),
});
export type RunSettings = z.infer<typeof runSettingsSchema>;

/** A figure kept from an import that maps to none of DiskDelta's tests. */
export const extraMetricSchema = z.strictObject({
  /** The original tool's name for it. */
  name: shortText,
  value: z.number().nullable(),
  /** The original unit, e.g. "K/sec", "/sec", "us", "% CPU". */
  unit: z.string().max(100),
  note: text.optional(),
});
export type ExtraMetric = z.infer<typeof extraMetricSchema>;

const celsius = z.number().min(-300).max(1000);

/** One reading of a drive's temperature during a run. */
export const temperatureReadingSchema = z.strictObject({
  /** Seconds since the run's first reading. */
  tSec: z.number().min(0),
  celsius,
  /** The test running when it was read; absent before the first and after the last. */
  test: z.string().max(200).optional(),
});
export type TemperatureReading = z.infer<typeof temperatureReadingSchema>;

/**
 * The drive's own temperature around a run (system/drive-temperature.ts): before the first
 * test, every few seconds while it measures, after the last. `sensor` null: the kernel exposes
 * none for this disk, and `reason` says why (a loop device, a SATA drive without drivetemp).
 */
export const driveTemperatureSchema = z.union([
  z.strictObject({
    disk: shortText,
    sensor: z.enum(['nvme', 'drivetemp']),
    /** The reading used: NVMe's "Composite", drivetemp's "temp1". */
    label: shortText,
    beforeC: celsius.nullable(),
    afterC: celsius.nullable(),
    peakC: celsius.nullable(),
    /** The drive's own warning and critical temperatures where it reports them. */
    maxC: celsius.nullable(),
    critC: celsius.nullable(),
    readings: z.array(temperatureReadingSchema).max(100_000),
  }),
  z.strictObject({ disk: shortText.nullable(), sensor: z.null(), reason: text }),
]);
export type DriveTemperature = z.infer<typeof driveTemperatureSchema>;

/**
 * How full the file system under the target was when the run began (statfs, system/fill-level.ts):
 * SSDs slow as they fill, so reviewers measure at 25/50/75 %; DiskDelta notes it and never fills a
 * disk. Used is what df calls Used (blocks − free), size df's Size; `availableBytes` is what an
 * unprivileged user may still write (free less the root reserve). Null-like: `reason` says why not.
 */
export const fillLevelSchema = z.union([
  z.strictObject({
    /** The folder statfs was asked about. */
    path: text,
    sizeBytes: count,
    usedBytes: count,
    availableBytes: count,
  }),
  z.strictObject({ path: text, reason: text }),
]);
export type FillLevel = z.infer<typeof fillLevelSchema>;

/**
 * What an NVMe drive counts as written to its flash (host and its own writes: garbage collection,
 * wear levelling), for write amplification: from its endurance-group log (09h, in units of
 * 1,000,000,000 B) or OCP's SMART / Health Information Extended page (C0h, in bytes), or why not.
 */
export const mediaWritesSchema = z.union([
  z.strictObject({
    source: z.enum(['endurance-group', 'ocp-c0']),
    /** The running total in bytes (units × unitBytes); a difference is good to one unit. */
    bytes: count,
    unitBytes: z.number().positive(),
  }),
  z.strictObject({ source: z.null(), reason: text }),
]);
export type MediaWrites = z.infer<typeof mediaWritesSchema>;

/**
 * A drive's own counters as it reports them (system/drive-health.ts): NVMe's SMART / health log
 * (Get Log Page 02h, through the helper's smart-log verb), or why they were not read. Data units
 * are the log's own: 1,000 × 512 bytes each, rounded up by the drive.
 */
export const driveHealthSchema = z.union([
  z.strictObject({
    disk: shortText,
    protocol: z.literal('nvme'),
    /** The Critical Warning bits: 0 when all is well (spare, temperature, reliability, read-only, backup). */
    criticalWarning: z.number().int().min(0).max(255),
    /** The Composite Temperature, °C (the log's kelvin − 273.15); null where the drive reports 0. */
    temperatureC: celsius.nullable(),
    availableSparePercent: count,
    availableSpareThresholdPercent: count,
    /** The drive's own estimate of its rated endurance used, % (may pass 100). */
    percentageUsed: count,
    dataUnitsRead: count,
    dataUnitsWritten: count,
    hostReadCommands: count,
    hostWriteCommands: count,
    powerOnHours: count,
    powerCycles: count,
    unsafeShutdowns: count,
    mediaErrors: count,
    errorLogEntries: count,
    /** Minutes at or above the drive's warning / critical composite temperature. */
    warningTemperatureMinutes: count,
    criticalTemperatureMinutes: count,
    /** Thermal management temperature 1 and 2: transitions and seconds spent (0 where the drive does not count them). */
    thermalTransitions: z.tuple([count, count]),
    thermalSeconds: z.tuple([count, count]),
    /** The flash's own writes; absent in runs kept before DiskDelta read them. */
    mediaWrites: mediaWritesSchema.optional(),
  }),
  /**
   * A SATA/ATA drive's SMART attributes as smartctl -j reports them (system/smartctl.ts). A field
   * is null where the drive has no attribute for it: nothing is inferred from another attribute.
   */
  z.strictObject({
    disk: shortText,
    protocol: z.literal('ata'),
    model: shortText.nullable(),
    /** The drive's overall-health self-assessment (SMART RETURN STATUS): null where not reported. */
    smartPassed: z.boolean().nullable(),
    temperatureC: celsius.nullable(),
    powerOnHours: nullableCount,
    powerCycles: nullableCount,
    /** Attribute 241 (242) times its unit: LBAs × the logical block size, or the 32 MiB / GiB units its name says. */
    bytesWritten: nullableCount,
    bytesRead: nullableCount,
    /** The unit 241 counts in, bytes: a difference of two readings is good to one unit. */
    writeUnitBytes: nullableCount,
    /** 100 − the normalized value of a wear attribute (177, 231, 233), and which one. */
    percentageUsed: nullableCount,
    wearAttribute: shortText.nullable(),
    /** 187 Reported_Uncorrect: errors the drive could not correct (NVMe's media errors). */
    mediaErrors: nullableCount,
    /** 5 Reallocated_Sector_Ct, 197 Current_Pending_Sector, 198 Offline_Uncorrectable. */
    reallocatedSectors: nullableCount,
    pendingSectors: nullableCount,
    offlineUncorrectable: nullableCount,
    /** Every attribute as the drive gives it: its normalized value, worst, threshold and smartctl's raw text. */
    attributes: z
      .array(
        z.strictObject({
          id: z.number().int().min(0).max(255),
          name: shortText,
          value: count,
          worst: count,
          thresh: count,
          raw: shortText,
        }),
      )
      .max(256),
  }),
  z.strictObject({ disk: shortText.nullable(), protocol: z.null(), reason: text }),
]);
export type DriveHealth = z.infer<typeof driveHealthSchema>;

/** A measured run's drive counters before and after it, beside what the host sent the disk. */
export const driveCountersSchema = z.strictObject({
  before: driveHealthSchema,
  after: driveHealthSchema.nullable(),
  /** Bytes the kernel wrote to the whole disk during the run (/proc/diskstats), or null. */
  hostBytesWritten: nullableCount,
});
export type DriveCounters = z.infer<typeof driveCountersSchema>;

/** A benchmark run as measured, imported or shipped as reference. */
export const runRecordSchema = z.strictObject({
  id: z.number().int().positive().optional(),
  label: shortText,
  notes: z.string().max(100_000),
  /** ISO 8601. */
  createdAt: z.string().max(100),
  source: z.enum(RUN_SOURCES),
  sourceFormat: z.enum(SOURCE_FORMATS),
  /** The source file's own metadata (machine name, date line, comment, profile …). */
  sourceMeta: z.record(shortText, text),
  target: targetInfoSchema,
  system: systemFactsSchema.optional(),
  settings: runSettingsSchema,
  engine: z.strictObject({ name: z.string().max(100), version: z.string().max(100), ioEngine: z.string().max(100).optional() }),
  results: z.array(testResultSchema),
  extras: z.array(extraMetricSchema),
  warnings: z.array(warningSchema),
  /** The drive's temperature before, during and after (measured runs; absent elsewhere). */
  temperature: driveTemperatureSchema.optional(),
  /** How full the target's file system was when the run began (measured runs; absent elsewhere). */
  fill: fillLevelSchema.optional(),
  /** The drive's own counters before and after (measured runs; absent elsewhere). */
  drive: driveCountersSchema.optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

// Stored beside the runs, written once in their own modules (zod-free type modules import them as types).
export { assessmentSchema, unreadableAssessmentSchema } from './assessment-schema.ts';
export { cipherCeilingsSchema } from './cipher-schema.ts';
