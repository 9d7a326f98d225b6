// The assessment's candidates once the new disk is measured (#42), as one table: a row per figure,
// the measured gain of the new disk over the current one once (it is the same whichever candidate
// is read), then each candidate's forecast gain; then a row per workload phase, its gain measured
// by the workload runs of the two disks (with its passes' spread, ⚑ where noisy) beside each
// forecast. Made of core's judged figures (analysis/candidate-judged.ts, what `assess show` prints
// as "forecast ×2.79, measured ×2.60"); drawn by the app's assessment card and the report's
// Candidates section alike (candidates-view.ts).
import { FIGURE_KEYS, FIGURES } from '../analysis/candidate.ts';
import { NOISY_GAIN_NOTE, roughGainText, type JudgedCandidate } from '../analysis/candidate-judged.ts';
import { ROUGH_NOTE } from './candidates-model.ts';
import { formatRatio } from '../analysis/units.ts';

export interface JudgedTable {
  /** Each candidate's column heading: "1. Example SATA SSD 1 TB". */
  candidates: string[];
  /** Each row: judgedLine(figure, forecasts[i], measured) is `assess show`'s line (analysis/candidate-judged.ts). */
  rows: Array<{ key: string; figure: string; measured: string; forecasts: Array<string | null>; noisy: boolean }>;
  /** Where each candidate comes from, and what the gains are over. */
  note: string;
  /** Each workload not timed on the new disk, with the command that would time it; said once. */
  unmeasured: string[];
  /** What ⚑ means, when a measured gain carries it; null: none does. */
  noisyNote: string | null;
  /** What "(rough)" means, when a forecast carries it; null: none does. */
  roughNote: string | null;
}

export function judgedTable(judged: readonly JudgedCandidate[]): JudgedTable {
  const rates = FIGURE_KEYS.flatMap((key) => {
    const per = judged.map((c) => c.figures.find((f) => f.key === key) ?? null);
    const any = per.find((f) => f !== null);
    if (!any) return [];
    return [
      {
        key,
        figure: FIGURES[key].words,
        measured: any.measuredText,
        forecasts: per.map((f) => (f ? formatRatio(f.forecastGain) : null)),
        noisy: any.noisy,
      },
    ];
  });
  // Every candidate is forecast over the same phases: the rows are the first's, each looked up by name in the others.
  const phases = judged[0]?.workloads ?? [];
  const workloads = phases.map((w) => {
    const key = `${w.test} ${w.phase}`;
    const per = judged.map((c) => c.workloads.find((x) => x.test === w.test && x.phase === w.phase) ?? null);
    return {
      key,
      figure: key,
      measured: w.measuredText,
      forecasts: per.map((x) => (x && x.forecastGain !== null ? roughGainText(x.forecastGain, x.forecastRough) : null)),
      noisy: w.measured?.noisy ?? false,
    };
  });
  return {
    candidates: judged.map((c, i) => `${i + 1}. ${c.name}`),
    rows: [...rates, ...workloads],
    note:
      `${judged.map((c, i) => `${i + 1}. ${c.name}: ${c.origin}`).join(' · ')}. ` +
      "Forecasts are estimated from the current disk's run; the measured gain is the new disk's run over it" +
      (phases.length
        ? ", and a workload's its time on the current disk over its time on the new one (the passes' range in brackets)."
        : '.'),
    unmeasured: [...new Set(phases.flatMap((w) => (w.why ? [w.why] : [])))],
    noisyNote: [...rates, ...workloads].some((r) => r.noisy) ? NOISY_GAIN_NOTE : null,
    roughNote: judged.some((c) => c.workloads.some((w) => w.forecastRough)) ? ROUGH_NOTE : null,
  };
}
