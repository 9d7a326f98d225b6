// The assessment's candidates once the new disk is measured (#42), as one table: a row per figure,
// the measured gain of the new disk over the current one once (it is the same whichever candidate
// is read), then each candidate's forecast gain. Made of core's judged figures
// (analysis/candidate-judged.ts, what `assess show` prints as "forecast ×2.79, measured ×2.60");
// drawn by the app's assessment card and the report's Candidates section alike (candidates-view.ts).
import { FIGURE_KEYS, FIGURES, type FigureKey } from '../analysis/candidate.ts';
import type { JudgedCandidate } from '../analysis/candidate-judged.ts';
import { formatRatio } from '../analysis/units.ts';

export interface JudgedTable {
  /** Each candidate's column heading: "1. Example SATA SSD 1 TB". */
  candidates: string[];
  rows: Array<{ key: FigureKey; figure: string; measured: string; forecasts: Array<string | null> }>;
  /** Where each candidate comes from, and what the gains are over. */
  note: string;
}

export function judgedTable(judged: readonly JudgedCandidate[]): JudgedTable {
  const rows = FIGURE_KEYS.flatMap((key) => {
    const per = judged.map((c) => c.figures.find((f) => f.key === key) ?? null);
    const any = per.find((f) => f !== null);
    if (!any) return [];
    return [
      {
        key,
        figure: FIGURES[key].words,
        measured: formatRatio(any.measuredGain),
        forecasts: per.map((f) => (f ? formatRatio(f.forecastGain) : null)),
      },
    ];
  });
  return {
    candidates: judged.map((c, i) => `${i + 1}. ${c.name}`),
    rows,
    note:
      `${judged.map((c, i) => `${i + 1}. ${c.name}: ${c.origin}`).join(' · ')}. ` +
      "Forecasts are estimated from the current disk's run; the measured gain is the new disk's run over it.",
  };
}
