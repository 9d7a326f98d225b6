// A disk's surface in the terminal (`diskdelta surface`, `diskdelta show`): its zones from the
// outer tracks (byte 0) inward, the slowest named with its range, the access time; the curve
// itself is the chart's (shared/charts), and every point is in --json.
import { surfaceOfResult, type SurfaceAnalysis } from '../shared/analysis/surface.ts';
import { formatBytes, formatLatency, formatThroughput, type ThroughputUnit } from '../shared/analysis/units.ts';
import type { TestResult } from '../shared/model/results.ts';

const share = (bytes: number, device: number) => `${((100 * bytes) / device).toFixed(1)} %`;

/** The slowest zone in one sentence: "bytes 0 B – 96.0 MiB (0.0 % – 37.5 % of the disk): 8.39 MB/s". */
function slowestZoneText(a: SurfaceAnalysis, unit: ThroughputUnit = 'MB'): string | null {
  if (a.slowest === null) return null;
  const z = a.zones[a.slowest]!;
  return `zone ${a.slowest + 1} of ${a.zones.length}, bytes ${formatBytes(z.start)} – ${formatBytes(z.end)} (${share(z.start, a.deviceBytes)} – ${share(z.end, a.deviceBytes)} of the disk): ${formatThroughput(z.bytesPerSec, unit)}`;
}

export function surfaceLines(a: SurfaceAnalysis, unit: ThroughputUnit = 'MB'): string[] {
  const rows = a.zones.map((z, i) => [
    String(i + 1),
    formatBytes(z.start),
    formatBytes(z.end),
    `${share(z.start, a.deviceBytes)} – ${share(z.end, a.deviceBytes)}`,
    formatThroughput(z.bytesPerSec, unit),
    `${formatThroughput(z.low, unit)} – ${formatThroughput(z.high, unit)}`,
    String(z.samples),
  ]);
  const head = ['ZONE', 'FROM', 'TO', 'OF THE DISK', 'SPEED', 'SAMPLES RANGE', 'SAMPLES'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `    ${cells.map((c, i) => c.padEnd(width[i]!)).join('  ')}`.trimEnd();
  const sample = a.points[0];
  const out = [
    `  Read speed across ${formatBytes(a.deviceBytes)}, outer tracks (byte 0) to inner: ${a.points.length} offsets` +
      (sample ? ` of ${formatBytes(sample.bytes)} each` : ''),
    line(head),
    ...rows.map(line),
  ];
  const slowest = slowestZoneText(a, unit);
  if (slowest) out.push(`  slowest: ${slowest}`);
  if (a.accessNs)
    out.push(
      `  access time: ${formatLatency(a.accessNs.median)} median, ${formatLatency(a.accessNs.p90)} at the 90th percentile (${a.accessNs.count} random 4 KiB reads)`,
    );
  return out;
}

/** The surface lines of a run's results; empty for a run without one. */
export function surfaceResultLines(results: readonly TestResult[], unit: ThroughputUnit = 'MB'): string[] {
  return results.flatMap((r) => {
    const a = surfaceOfResult(r);
    return a ? surfaceLines(a, unit) : [];
  });
}
