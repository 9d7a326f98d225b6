// The figures of kinds that are not rates (seconds per phase, cipher ceilings, forecasts), one
// line each with its unit, an estimate marked "(estimated)": for `show` and `run`.
import { displayFigure } from '../shared/analysis/compare.ts';
import { listingStep, sustainedPerSpan } from '../shared/analysis/sustained-write.ts';
import { formatBytes, formatThroughput, type ThroughputUnit } from '../shared/analysis/units.ts';
import { metricById, testTitle } from '../shared/model/catalog.ts';
import type { TestResult } from '../shared/model/results.ts';

export function figureLines(results: TestResult[], unit: ThroughputUnit = 'MB'): string[] {
  return results.flatMap((r) =>
    // A curve's points (a surface's offsets) are listed by their own lines (surface-text.ts), not one each here.
    (r.figures ?? [])
      .filter((f) => !metricById(f.metric)?.curvePoint)
      .map((f) => {
        const what = [metricById(f.metric)?.label ?? f.metric, f.subject].filter(Boolean).join(' · ');
        return `  ${testTitle(r.test, r.params)}: ${what}: ${displayFigure(f, unit)}${f.basis && f.value != null ? ` — ${f.basis}` : ''}`;
      }),
  );
}

/**
 * The sustained write's speed per GiB written, a line per step of each stream: per GiB up to 64
 * GiB, coarser beyond (listingStep says why), so a 1 TB span is 59 lines, not 931. Empty for a
 * run without one. "  fill, per 1 GiB written:" then "    2 GiB – 3 GiB   412 MB/s   in 2.61 s".
 */
export function perGiBLines(results: TestResult[], unit: ThroughputUnit = 'MB'): string[] {
  return results.flatMap((r) => {
    // The step from the streams' own byte counts: the speeds are worked out once, at that step.
    const step = listingStep(Math.max(0, ...r.runs.map((run) => run.bytes)));
    return (sustainedPerSpan(r, step) ?? []).flatMap(({ stream, spans }) => {
      if (spans.length === 0) return [];
      const rows = spans.map((x) => [
        `${formatBytes(x.fromBytes)} – ${formatBytes(x.toBytes)}`,
        formatThroughput(x.bytesPerSec, unit),
        `in ${x.seconds.toFixed(2)} s`,
      ]);
      const width = (i: number) => Math.max(...rows.map((row) => row[i]!.length));
      return [
        `  ${stream === 'fill' ? 'the stream' : 'the stream after the rest'}, per ${formatBytes(step)} written:`,
        ...rows.map(([span, speed, time]) => `    ${span!.padEnd(width(0))}  ${speed!.padStart(width(1))}  ${time}`),
      ];
    });
  });
}
