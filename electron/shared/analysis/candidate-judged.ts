// Once bought and measured (issue #42): each candidate's forecast set beside the measurement of
// the new disk, as gains over the disk it replaced ("sequential read: forecast ×2.79, measured
// ×2.60"). The forecast was made from the assessment's before run (its current disk), so both
// gains are over the same run; both are kept, neither replaces the other.
import type { RunRecord } from '../model/results.ts';
import type { Forecast } from './candidate-forecast.ts';
import { driveFiguresOfRun, FIGURE_KEYS, FIGURES, type FigureKey } from './candidate.ts';
import { formatRatio } from './units.ts';

export interface JudgedFigure {
  key: FigureKey;
  /** Forecast here ÷ the before run (estimated). */
  forecastGain: number;
  /** The after run ÷ the before run (measured). */
  measuredGain: number;
  line: string;
}

export interface JudgedCandidate {
  name: string;
  origin: string;
  figures: JudgedFigure[];
}

/**
 * Per candidate, each figure both the forecast and the two runs carry: its forecast gain beside
 * the measured one. The before run is the forecast's current disk (forecast.current.figures are
 * its figures), so both gains are over the same measurement.
 */
export function forecastBesideMeasured(forecast: Forecast, after: RunRecord): JudgedCandidate[] {
  const was = forecast.current.figures;
  const now = driveFiguresOfRun(after).figures;
  return forecast.candidates.map((c) => ({
    name: c.capped.candidate.name,
    origin: c.capped.candidate.originText,
    figures: FIGURE_KEYS.flatMap((key): JudgedFigure[] => {
      const here = c.capped.figures[key].here;
      const today = forecast.current.figures[key];
      const b = was[key];
      const a = now[key];
      if (here === null || today === null || !today || b === null || !b || a === null) return [];
      const forecastGain = here / today;
      const measuredGain = a / b;
      return [
        {
          key,
          forecastGain,
          measuredGain,
          line: `${FIGURES[key].words}: forecast ${formatRatio(forecastGain)}, measured ${formatRatio(measuredGain)}`,
        },
      ];
    }),
  }));
}
