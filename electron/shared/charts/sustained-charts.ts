// The sustained write's chart: its write speed along the bytes written, one line per run, so the
// cliff where each drive's fast cache ran out is where its line falls. A second chart shows the
// stream after the rest (how much cache came back) when a run has one. Under each, the buyer's
// sentence per run (analysis/sustained-write.ts).
import { buyerSentence, SUSTAINED_NOT_JUDGED, sustainedSeries, SUSTAINED_TEST, type SustainedPoint } from '../analysis/sustained-write.ts';
import { bytesPerSecTo, throughputLabel } from '../analysis/units.ts';
import type { RunRecord, TestResult } from '../model/results.ts';
import type { ChartInput, SeriesChartModel } from './chart-model.ts';
import type { ChartType } from './chart-registry.ts';
import { SERIES_MAX_POINTS } from './series-charts.ts';

/** At most `max` points, every n-th kept (the last always): a few hundred pixels show no more. */
function thin(points: SustainedPoint[], max: number): SustainedPoint[] {
  if (points.length <= max) return points;
  const step = Math.ceil(points.length / max);
  return points.filter((_, i) => i % step === 0 || i === points.length - 1);
}

const resultOf = (record: RunRecord): TestResult | undefined => record.results.find((r) => r.test === SUSTAINED_TEST);

/** The run's buyer sentence, from its stored figures (the cache size and the two speeds). */
function sentenceOf(result: TestResult): string | null {
  const figure = (metric: string, subject = '') => result.figures?.find((f) => f.metric === metric && f.subject === subject)?.value ?? null;
  const before = figure('sustainedBytesPerSec', 'in the cache');
  if (before === null) return null;
  const after = figure('sustainedBytesPerSec', 'past the cache');
  const written = result.runs[0]?.bytes ?? 0;
  const speed = (bytesPerSec: number) => ({ bytesPerSec, spread: null, intervals: 0 });
  const cacheBasis = result.figures?.find((f) => f.metric === 'cacheBytes' && f.subject === '')?.basis ?? '';
  return buyerSentence(
    {
      cacheBytes: figure('cacheBytes'),
      before: speed(before),
      after: after === null ? null : speed(after),
      // Said by the warning the run carries (its basis' words may change), told in the basis' words.
      notJudged: result.warnings.some((w) => w.code === SUSTAINED_NOT_JUDGED) ? cacheBasis : null,
    },
    written,
  );
}

export const sustainedWriteChart: ChartType = {
  id: 'sustained-write',
  draws:
    'a series over bytes written: the write speed of a sustained write along its stream, one line per run (the fall is where the fast cache ran out); the stream after the rest as a second chart',
  inReport: true,
  claims: ({ comparison }) => (comparison.rows.some((r) => r.test === SUSTAINED_TEST) ? [SUSTAINED_TEST] : []),
  build({ records, unit }: ChartInput): SeriesChartModel[] {
    const series = records.map((r) => {
      const result = resultOf(r);
      return result ? (sustainedSeries(result) ?? []) : [];
    });
    const chart = (stream: SustainedPoint['stream'], title: string): SeriesChartModel | null => {
      const lines = series.flatMap((points, runIndex) => {
        const own = points.filter((p) => p.stream === stream);
        return own.length === 0
          ? []
          : [{ runIndex, points: thin(own, SERIES_MAX_POINTS).map((p) => ({ x: p.bytes, y: bytesPerSecTo(p.bytesPerSec, unit) })) }];
      });
      if (lines.length === 0) return null;
      const end = Math.max(...lines.map((l) => l.points.at(-1)?.x ?? 0));
      return {
        shape: 'series',
        id: `sustained-write:${stream}`,
        type: 'sustained-write',
        title,
        unitLabel: throughputLabel(unit),
        direction: 'higher',
        valueFormat: 'number',
        markers: false,
        wide: true,
        // Decimal, as the buyer's sentence and the MB/s axis say it; from nothing written to the stream's end.
        x: { label: 'bytes written', format: 'decimal-bytes', scale: 'linear', domain: [0, end] },
        lines,
      };
    };
    const fill = chart('fill', 'Sustained write: speed over bytes written');
    if (fill) {
      const notes = records.flatMap((r, i) => {
        const result = resultOf(r);
        const sentence = result ? sentenceOf(result) : null;
        return sentence ? [`#${i + 1}${r.label ? ` ${r.label}` : ''}: ${sentence}`] : [];
      });
      // The chart's one note line (series charts' `note`), the runs' sentences in run order.
      if (notes.length) fill.note = notes.join('; ');
    }
    const recovery = chart('recovery', 'Sustained write after the rest: speed over bytes written again');
    return [fill, recovery].filter((c): c is SeriesChartModel => c !== null);
  },
};
