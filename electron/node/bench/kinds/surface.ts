// The surface kind (issue 41 item 3): an HDD's read speed from its outer to its inner tracks,
// as GNOME Disks draws it. The worker's `surface` verb reads a few MiB at offsets spread over the
// whole block device (read-only, O_DIRECT; through the helper's descriptor where the user cannot
// open the device: the orchestrator adds --helper or --fd-from to every worker step), then times
// random 4 KiB reads; analysis/surface.ts makes the curve, its zones and the slowest one.
import { z } from 'zod';
import { resultWithoutRuns } from '../../formats/common.ts';
import { surfaceFigures, SURFACE_TEST, type SurfaceRead } from '../../../shared/analysis/surface.ts';
import { planSettingsShape, resolveSettings, settingsOfKind } from '../../../shared/model/run-settings.ts';
import { BenchError } from '../errors.ts';
import { byteProgress } from '../progress.ts';
import { surfaceArgv, type SurfacePlan } from '../worker-argv.ts';
import type { MeasurementKind } from './kind.ts';
import type { WorkerMessage } from '../worker-protocol.ts';

const planSchema: z.ZodType<SurfacePlan> = z.strictObject({
  target: z.string().min(1),
  ...planSettingsShape('surface'),
  block: z.number().int().positive(),
});

/**
 * The read size: the largest multiple of 4 KiB that divides the sample, at most 1 MiB and at
 * most half the sample, so a sample is a whole number of reads and at least two of them, since
 * a sample's rate is its reads after the first (analysis/surface.ts: the first carries the
 * seek). Largest, so a sample of an odd size (4 MiB + 4 KiB) is a few long reads that time the
 * transfer, not a thousand 4 KiB ones that time the latency. A 4 KiB sample is one read and
 * says what it can.
 */
export function surfaceBlock(sampleBytes: number): number {
  const pages = sampleBytes / 4096;
  for (let d = Math.min(256, Math.floor(pages / 2)); d > 1; d--) if (pages % d === 0) return 4096 * d;
  return 4096;
}

/** A worker line's sample as the analysis takes it; null for any other line. */
export function surfaceReadOf(m: WorkerMessage): SurfaceRead | null {
  return m.type === 'surface-sample' ? { offset: m.offset, bytes: m.bytes, readNs: m.read_ns } : null;
}

export const surfaceKind: MeasurementKind<SurfacePlan> = {
  id: 'surface',
  title: 'Surface (read speed across the disk)',
  // It times the disk: two measurements at once would measure each other.
  measuresDisk: true,
  stepPerTest: true,
  readsOnly: true,
  planSchema,
  plan(spec, preset) {
    const values = resolveSettings('surface', spec, { ...preset });
    if (values.surfaceSampleBytes % 4096 !== 0)
      throw new BenchError('usage', `the bytes read at each offset (${values.surfaceSampleBytes}) must be a multiple of 4 KiB, e.g. 4MiB`);
    return { ...values, target: spec.target, block: surfaceBlock(values.surfaceSampleBytes) };
  },
  writes: () => false,
  start(plan, context) {
    const reads: SurfaceRead[] = [];
    const accessNs: number[] = [];
    let deviceBytes: number | null = null;
    const startedMs = Date.now();
    return {
      argv: surfaceArgv(plan),
      read(m) {
        const sample = surfaceReadOf(m);
        if (sample) reads.push(sample);
        else if (m.type === 'surface-access') accessNs.push(m.ns);
        else if (m.type === 'progress') {
          const { fraction, etaSec } = byteProgress(m.done_bytes ?? 0, m.total_bytes ?? 1, startedMs);
          context.emit({
            type: 'progress',
            test: SURFACE_TEST,
            testIndex: 0,
            testCount: 1,
            phase: 'measure',
            run: 1,
            runs: 1,
            fraction,
            etaSec,
          });
        }
      },
      results(hello) {
        deviceBytes = hello?.size ?? null;
        if (deviceBytes === null || reads.length === 0) return [];
        return [
          resultWithoutRuns({
            test: SURFACE_TEST,
            params: null,
            bytesPerSec: null,
            iops: null,
            warnings: [],
            figures: surfaceFigures(reads, accessNs, deviceBytes),
          }),
        ];
      },
      settings: () => Object.fromEntries(settingsOfKind('surface').map((d) => [d.key, plan[d.key]])),
    };
  },
};
