// zod mirrors of the shared result and system model (model/results.ts, system/types.ts), used
// for the output side of the API contract. The `satisfies`-style checks at the bottom make
// tsc fail when the model changes and these schemas do not follow.
import { z } from 'zod';
import type { LatencyNs, RunRecord, TestResult, Warning } from '../model/results.ts';
import type { DeviceFingerprint, StackLayer, SystemFacts } from '../system/types.ts';

const num = z.number();
const nullableNum = z.number().nullable();

export const warningSchema = z.object({ code: z.string(), message: z.string() });

export const deviceFingerprintSchema = z.object({
  name: z.string(),
  model: z.string().nullable(),
  serial: z.string().nullable(),
  sizeBytes: nullableNum,
  rotational: z.boolean().nullable(),
  class: z.enum(['HDD', 'SATA SSD', 'NVMe SSD', 'USB', 'virtual', 'RAM', 'loop', 'unknown']),
  transport: z.string().nullable(),
  linkCeilingBytesPerSec: nullableNum,
  linkDescription: z.string().nullable(),
});

export const stackLayerSchema = z.object({
  kind: z.enum(['file', 'mount', 'dm-crypt', 'lvm', 'dm', 'partition', 'loop', 'disk', 'other']),
  name: z.string(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  encrypted: z.boolean().optional(),
  discardPasses: z.boolean().nullable().optional(),
});

export const systemFactsSchema = z.object({
  kernel: z.string().nullable(),
  cpuModel: z.string().nullable(),
  cores: nullableNum,
  cryptoFlags: z.array(z.string()),
  memoryBytes: nullableNum,
  threads: nullableNum.optional(),
  arch: z.string().nullable().optional(),
  fstrimTimer: z.object({ enabled: z.boolean().nullable(), systemdRunning: z.boolean().nullable(), reason: z.string().optional() }).optional(),
  reasons: z.record(z.string(), z.string()).optional(),
});

export const latencySchema = z.object({
  mean: nullableNum,
  p50: nullableNum,
  p90: nullableNum,
  p99: nullableNum,
  p999: nullableNum,
  max: nullableNum,
});

const sampleSchema = z.object({ tMs: num, bytesPerSec: num, iops: num });
const cpuSchema = z.object({ userNs: num, systemNs: num });

export const testResultSchema = z.object({
  test: z.string(),
  params: z
    .object({
      rw: z.enum(['read', 'write', 'randread', 'randwrite', 'randrw', 'seeks']),
      blockSize: num,
      queueDepth: num,
      threads: num,
      readPercent: num.optional(),
    })
    .nullable(),
  bytesPerSec: nullableNum,
  iops: nullableNum,
  latencyNs: latencySchema.nullable(),
  best: z.object({ bytesPerSec: nullableNum, iops: nullableNum }).nullable(),
  cv: nullableNum,
  runs: z.array(
    z.object({
      run: num,
      bytesPerSec: num,
      iops: num,
      latencyNs: latencySchema,
      elapsedNs: num,
      ios: num,
      bytes: num,
      cpu: cpuSchema,
      samples: z.array(sampleSchema),
    }),
  ),
  histogram: z.array(z.tuple([num, num])),
  cpu: cpuSchema.nullable(),
  underResolved: z.boolean(),
  warnings: z.array(warningSchema),
});

export const runRecordSchema = z.object({
  id: z.number().int().optional(),
  label: z.string(),
  notes: z.string(),
  createdAt: z.string(),
  source: z.enum(['measured', 'imported', 'reference']),
  sourceFormat: z.enum(['diskdelta', 'bonnie++', 'fio', 'kdiskmark', 'crystaldiskmark']),
  sourceMeta: z.record(z.string(), z.string()),
  target: z.object({
    path: z.string(),
    kind: z.enum(['folder', 'block-device', 'unknown']),
    device: deviceFingerprintSchema.optional(),
    stack: z.array(stackLayerSchema).optional(),
  }),
  system: systemFactsSchema.optional(),
  settings: z.object({
    preset: z.string().optional(),
    sizeBytes: num.optional(),
    durationSec: num.optional(),
    warmupSec: num.optional(),
    runs: num.optional(),
    buffered: z.boolean().optional(),
  }),
  engine: z.object({ name: z.string(), version: z.string(), ioEngine: z.string().optional() }),
  results: z.array(testResultSchema),
  extras: z.array(
    z.object({ name: z.string(), value: nullableNum, unit: z.string(), note: z.string().optional() }),
  ),
  warnings: z.array(warningSchema),
});

// Compile-time agreement between the schemas and the model: an assignment in each direction
// fails to type-check as soon as a field is added, renamed or retyped on one side only.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(value: T): T => value;
agree<Same<z.infer<typeof warningSchema>, Warning>>(true);
agree<Same<z.infer<typeof latencySchema>, LatencyNs>>(true);
agree<Same<z.infer<typeof deviceFingerprintSchema>, DeviceFingerprint>>(true);
agree<Same<z.infer<typeof stackLayerSchema>, StackLayer>>(true);
agree<Same<z.infer<typeof systemFactsSchema>, SystemFacts>>(true);
agree<Same<z.infer<typeof testResultSchema>, TestResult>>(true);
agree<Same<z.infer<typeof runRecordSchema>, RunRecord>>(true);
