// The series chart types: lines over a parameter (a block-size sweep) and over time. A sweep
// claims its tests, so 18 block sizes are one chart with a line per run, not 18 bar
// categories or, in the report, 36 bar charts.
import type { CompareRow } from '../analysis/compare.ts';
import { bytesPerSecTo, throughputLabel } from '../analysis/units.ts';
import { counted } from '../model/display.ts';
import type { Sample, TestParams, TestResult } from '../model/results.ts';
import { testTitle } from '../model/catalog.ts';
import type { ChartInput, SeriesChartModel } from './chart-model.ts';
import type { ChartType } from './chart-registry.ts';

/** Fewer block sizes than this are single tests that happen to share parameters (1M Q8 and 4K Q32 are not a sweep). */
export const SWEEP_MIN_SIZES = 3;

const PATTERN_WORDS: Record<TestParams['rw'], string> = {
  read: 'Sequential read',
  write: 'Sequential write',
  randread: 'Random read',
  randwrite: 'Random write',
  randrw: 'Random read/write mix',
  seeks: 'Seeks',
};

/** The tests of each family (everything but the block size alike) that spans enough block sizes. */
function sweepFamilies(rows: CompareRow[]): Array<{ params: TestParams; tests: Array<{ test: string; blockSize: number }> }> {
  const families = new Map<string, { params: TestParams; tests: Map<string, number> }>();
  for (const row of rows) {
    const p = row.params;
    if (!p || p.rw === 'seeks') continue;
    const key = `${p.rw}|${p.queueDepth}|${p.threads}|${p.rw === 'randrw' ? (p.readPercent ?? 50) : ''}|${p.spanMiB ?? ''}`;
    const family = families.get(key) ?? { params: p, tests: new Map<string, number>() };
    family.tests.set(row.test, p.blockSize);
    families.set(key, family);
  }
  return [...families.values()]
    .filter((f) => new Set(f.tests.values()).size >= SWEEP_MIN_SIZES)
    .map((f) => ({
      params: f.params,
      tests: [...f.tests].map(([test, blockSize]) => ({ test, blockSize })).sort((a, b) => a.blockSize - b.blockSize),
    }));
}

export const blockSizeSweep: ChartType = {
  id: 'block-size-sweep',
  draws:
    'a series over block size: tests alike but for their block size (three sizes or more) as one line per run of throughput against block size',
  inReport: true,
  claims: ({ comparison }) => sweepFamilies(comparison.rows).flatMap((f) => f.tests.map((t) => t.test)),
  build({ rows, records, unit }: ChartInput): SeriesChartModel[] {
    return sweepFamilies(rows).map(({ params, tests }) => {
      const mix = params.rw === 'randrw' ? ` ${params.readPercent ?? 50} % reads,` : '';
      const span = params.spanMiB === undefined ? '' : `, over the first ${params.spanMiB} MiB`;
      return {
        shape: 'series',
        id: `block-size-sweep:${params.rw}:q${params.queueDepth}t${params.threads}${params.rw === 'randrw' ? `:${params.readPercent ?? 50}` : ''}${params.spanMiB === undefined ? '' : `:span${params.spanMiB}`}`,
        type: 'block-size-sweep',
        title: `${PATTERN_WORDS[params.rw]} by block size,${mix} queue depth ${params.queueDepth}, ${counted(params.threads, 'thread')}${span}`,
        unitLabel: throughputLabel(unit),
        direction: 'higher',
        valueFormat: 'number',
        markers: true,
        wide: true,
        x: { label: 'block size', format: 'bytes', scale: 'log2', ticks: [...new Set(tests.map((t) => t.blockSize))] },
        // A run without the sweep has no line, and so no legend entry that points at nothing.
        lines: records
          .map((record, runIndex) => ({
            runIndex,
            points: tests.flatMap(({ test, blockSize }) => {
              const result = record.results.find((r) => r.test === test);
              const bytesPerSec = result?.bytesPerSec ?? (result?.iops != null ? result.iops * blockSize : null);
              return bytesPerSec == null ? [] : [{ x: blockSize, y: bytesPerSecTo(bytesPerSec, unit) }];
            }),
          }))
          .filter((line) => line.points.length > 0),
      };
    });
  },
};

/**
 * At most maxPoints samples, keeping each bucket's lowest and highest in time order: a chart
 * a few hundred pixels wide shows no more, and the dips and spikes a person looks for stay.
 */
export function downsample<T extends { tMs: number; bytesPerSec: number }>(samples: T[], maxPoints: number): T[] {
  if (samples.length <= maxPoints) return samples;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = samples.length / buckets;
  const out: T[] = [];
  for (let b = 0; b < buckets; b++) {
    const bucket = samples.slice(Math.floor(b * size), Math.floor((b + 1) * size));
    if (bucket.length === 0) continue;
    let lo = bucket[0]!;
    let hi = bucket[0]!;
    for (const s of bucket) {
      if (s.bytesPerSec < lo.bytesPerSec) lo = s;
      if (s.bytesPerSec > hi.bytesPerSec) hi = s;
    }
    if (lo === hi) out.push(lo);
    else out.push(...(lo.tMs < hi.tMs ? [lo, hi] : [hi, lo]));
  }
  return out;
}

/** How many points a time series keeps (see downsample). */
export const SERIES_MAX_POINTS = 300;

/**
 * One test of one record as a single stream: its timed runs back to back, each run's samples
 * (timed from its own window's start) moved by the runs before it, so the line covers the whole
 * measurement. Run 1 alone made an SSD's 0.2 s window a 150 ms line beside an HDD's 1,050 ms one
 * (a slow disk's windows grow to hold enough I/Os): the same test, a seventh of the time shown.
 */
function testStream(result: TestResult | undefined): { samples: Sample[]; endMs: number; runs: number } {
  const runs = [...(result?.runs ?? [])].sort((a, b) => a.run - b.run);
  const samples: Sample[] = [];
  let startMs = 0;
  for (const run of runs) {
    for (const s of run.samples) samples.push({ ...s, tMs: startMs + s.tMs });
    startMs += run.elapsedNs / 1e6;
  }
  return { samples, endMs: startMs, runs: runs.length };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`;

export const timeSeries: ChartType = {
  id: 'time-series',
  draws:
    'a series over time: the throughput samples of one test, its timed runs back to back from the first one’s start, on one time axis from 0; one chart per test with samples',
  inReport: false,
  picker: { heading: 'Throughput over time', empty: 'No time series in these runs (imports carry none; DiskDelta’s own runs do).' },
  build({ records, unit }: ChartInput): SeriesChartModel[] {
    const tests = [
      ...new Set(records.flatMap((r) => r.results.filter((t) => t.runs.some((m) => m.samples.length > 0)).map((t) => t.test))),
    ];
    return tests.map((test) => {
      const streams = records.map((record, runIndex) => ({ runIndex, ...testStream(record.results.find((r) => r.test === test)) }));
      const drawn = streams.filter((s) => s.samples.length > 0);
      // The axis is the model's, not each renderer's choice: the app and the report draw one span.
      const endMs = Math.max(...drawn.map((s) => s.endMs), ...drawn.map((s) => s.samples.at(-1)!.tMs));
      return {
        shape: 'series',
        id: `time-series:${test}`,
        type: 'time-series',
        subject: testTitle(test, records.flatMap((r) => r.results).find((t) => t.test === test)?.params),
        title: 'Throughput',
        unitLabel: throughputLabel(unit),
        direction: 'higher',
        valueFormat: 'number',
        markers: false,
        x: { label: 'time', format: 'ms', scale: 'linear', domain: [0, endMs] },
        note: `Each line is the test’s timed runs back to back: ${drawn
          .map((s) => `#${s.runIndex + 1} ${records[s.runIndex]!.label}: ${seconds(s.endMs)} in ${counted(s.runs, 'run')}`)
          .join('; ')}.`,
        lines: drawn.map((s) => ({
          runIndex: s.runIndex,
          points: downsample(s.samples, SERIES_MAX_POINTS).map((p) => ({ x: p.tMs, y: bytesPerSecTo(p.bytesPerSec, unit) })),
        })),
      };
    });
  },
};
