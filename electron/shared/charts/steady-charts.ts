// The steady preset's chart (#41 item 2): a steady-state run's rounds, the figure of each round
// over the round's number, one line per run, with the window SNIA's rule judged marked on each
// line: the 5 rounds, a band of 90–110 % of their mean (the lines SNIA PTS's own steady-state
// plots draw: a window within it spans at most 20 % of its mean) and their least-squares line.
// A run never steady has its last 5 rounds marked as judged and failed, and says so under the
// chart: not steady after 25 rounds is a result. The verdict is analysis/steady-state.ts's, on
// the stored rounds, the same call that made the run's figures (node/bench/kinds/rate.ts).
import { fittedLine, isSteadyResult, STEADY_WINDOW, steadyOf, steadyWindowOf, steadyWords } from '../analysis/steady-state.ts';
import { bytesPerSecTo, formatThroughput, throughputLabel, type ThroughputUnit } from '../analysis/units.ts';
import type { RunRecord, TestResult } from '../model/results.ts';
import type { ChartInput, SeriesChartModel, SeriesMark } from './chart-model.ts';
import type { ChartType } from './chart-registry.ts';
import { testTitle } from '../model/catalog.ts';

/** SNIA PTS's plot lines around the window's mean. */
const BAND = [0.9, 1.1] as const;

/** The window marked on one run's rounds: the steady one, or the last 5 judged and failed; none under 5 rounds. */
export function steadyWindow(rounds: readonly number[], runIndex: number, unit: ThroughputUnit): SeriesMark | null {
  const verdict = steadyOf(rounds);
  if (!verdict.steady && verdict.check === null) return null;
  const { start, end } = steadyWindowOf(verdict);
  const window = rounds.slice(start - 1, end);
  const mean = window.reduce((a, b) => a + b, 0) / window.length;
  const line = fittedLine(window);
  const to = (bytesPerSec: number) => bytesPerSecTo(bytesPerSec, unit);
  return {
    runIndex,
    x: [start, end],
    band: [to(mean * BAND[0]), to(mean * BAND[1])],
    fit: [to(line.at0), to(line.at0 + line.slope * (window.length - 1))],
    met: verdict.steady,
    tag: verdict.steady ? `steady: rounds ${start}–${end}` : `not steady: rounds ${start}–${end}`,
    label: `#${runIndex + 1}: ${steadyWords(verdict)}; mean of rounds ${start}–${end} ${formatThroughput(mean, unit)}`,
  };
}

/** "#1 ssd: steady after 7 rounds (…); steady 412.3 MB/s, fresh 980.1 MB/s". */
function runSentence(record: RunRecord, runIndex: number, result: TestResult, unit: ThroughputUnit): string {
  const verdict = steadyOf(result.runs.map((r) => r.bytesPerSec));
  const fresh = result.figures?.find((f) => f.metric === 'freshBytesPerSec')?.value ?? null;
  const figures = [
    verdict.steady ? `steady ${formatThroughput(verdict.steadyValue, unit)}` : null,
    fresh === null ? null : `fresh ${formatThroughput(fresh, unit)}`,
  ].filter(Boolean);
  return `#${runIndex + 1}${record.label ? ` ${record.label}` : ''}: ${steadyWords(verdict)}${figures.length ? `; ${figures.join(', ')}` : ''}`;
}

export const steadyRoundsChart: ChartType = {
  id: 'steady-rounds',
  draws:
    "a series over rounds: a steady-state run's figure per round, one line per run, the window SNIA's rule judged marked (its 5 rounds, 90–110 % of their mean, their fitted line); not steady after 25 rounds said under it",
  inReport: true,
  build({ records, unit }: ChartInput): SeriesChartModel[] {
    const tests = [...new Set(records.flatMap((r) => r.results.filter(isSteadyResult).map((t) => t.test)))];
    return tests.map((test) => {
      const ofRuns = records.map((record) => record.results.find((r) => r.test === test && isSteadyResult(r)));
      const lines = ofRuns.flatMap((result, runIndex) =>
        result ? [{ runIndex, points: result.runs.map((r, i) => ({ x: i + 1, y: bytesPerSecTo(r.bytesPerSec, unit) })) }] : [],
      );
      const marks = ofRuns.flatMap((result, runIndex) => {
        const w = result
          ? steadyWindow(
              result.runs.map((r) => r.bytesPerSec),
              runIndex,
              unit,
            )
          : null;
        return w ? [w] : [];
      });
      const last = Math.max(STEADY_WINDOW, ...lines.map((l) => l.points.length));
      const sentences = ofRuns.flatMap((result, i) => (result ? [runSentence(records[i]!, i, result, unit)] : []));
      return {
        shape: 'series',
        id: `steady-rounds:${test}`,
        type: 'steady-rounds',
        title: `Steady state: ${testTitle(test)} per round`,
        subject: testTitle(test),
        unitLabel: throughputLabel(unit),
        direction: 'higher',
        valueFormat: 'number',
        markers: true,
        wide: true,
        x: { label: 'round', format: 'number', scale: 'linear', domain: [1, last], ticks: Array.from({ length: last }, (_, i) => i + 1) },
        lines,
        marks,
        // A line per run (the note keeps its line breaks in the app and the report).
        note: `${sentences.join('\n')}\nMarked on each line: the 5 rounds judged, a band of 90–110 % of their mean (as SNIA PTS plots it), their fitted line.`,
      };
    });
  },
};
