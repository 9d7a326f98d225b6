// What a run tells while it measures: progress, samples, warnings. One set of schemas: the
// API contract's run events are these plus the run's id (api/contract.ts), and BenchEvent,
// what the orchestrator and the kinds emit, is inferred from them, so the two cannot drift.
import { z } from 'zod';

/**
 * A test id in an event: any catalog id, and ids the catalog does not list yet (a new kind's
 * tests): the renderer titles them from the catalog or shows the id. An enum here once
 * dropped every event of a test it did not know.
 */
const eventTestId = z.string().min(1).max(200);

export const BENCH_PHASES = ['prepare', 'warmup', 'measure', 'cleanup'] as const;
export type BenchPhase = (typeof BENCH_PHASES)[number];

export const progressEventSchema = z.object({
  /** A catalog test id; null while preparing. */
  test: eventTestId.nullable(),
  /** 0-based, among the tests of this run. */
  testIndex: z.number().int(),
  testCount: z.number().int(),
  phase: z.enum(BENCH_PHASES),
  /** 1-based, 0 during prepare/warm-up. */
  run: z.number().int(),
  runs: z.number().int(),
  /** Whole benchmark, 0..1. */
  fraction: z.number(),
  etaSec: z.number().nullable(),
});

export const sampleEventSchema = z.object({
  test: eventTestId,
  run: z.number().int(),
  tMs: z.number(),
  bytesPerSec: z.number(),
  iops: z.number(),
});

export const warningEventSchema = z.object({ code: z.string(), message: z.string() });

export type BenchEvent =
  | ({ type: 'progress' } & z.infer<typeof progressEventSchema>)
  | ({ type: 'sample' } & z.infer<typeof sampleEventSchema>)
  | ({ type: 'warning' } & z.infer<typeof warningEventSchema>);
