// The figures of kinds that are not rates (seconds per phase, cipher ceilings, forecasts), one
// line each with its unit, an estimate marked "(estimated)": for `show` and `run`.
import { displayFigure } from '../core/analysis/compare.ts';
import type { ThroughputUnit } from '../core/analysis/units.ts';
import { metricById, testTitle } from '../core/model/catalog.ts';
import type { TestResult } from '../core/model/results.ts';

export function figureLines(results: TestResult[], unit: ThroughputUnit = 'MB'): string[] {
  return results.flatMap((r) =>
    (r.figures ?? []).map((f) => {
      const what = [metricById(f.metric)?.label ?? f.metric, f.subject].filter(Boolean).join(' · ');
      return `  ${testTitle(r.test, r.params)}: ${what}: ${displayFigure(f, unit)}${f.basis && f.value != null ? ` — ${f.basis}` : ''}`;
    }),
  );
}
