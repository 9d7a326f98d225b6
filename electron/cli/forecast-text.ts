// `diskdelta forecast` in words: the candidates side by side with the disk in use today, every
// figure marked estimated, each cap with its reason, each workload time with its range. Rendered
// from the one table model (report/candidates-model.ts) the app, the report and `assess show`
// draw, so each sentence is worded once.
import type { Forecast } from '../shared/analysis/candidate-forecast.ts';
import { table } from './system-format.ts';
import { candidatesTable, type ForecastCell } from '../shared/report/candidates-model.ts';

/** A cell on one line: the forecast, its range or the drive's own figure, its gain and flags. */
function cellText(c: ForecastCell): string {
  const inBrackets = [c.detail, c.limit].filter((x): x is string => x !== null).join(', ');
  return [c.text, inBrackets ? `(${inBrackets})` : null, c.gain, c.rough ? 'rough' : null, c.overrun ? 'cache overrun' : null]
    .filter((x): x is string => x !== null)
    .join(' ');
}

export function formatForecastText(f: Forecast): string {
  const t = candidatesTable(f);
  const names = t.candidates.map((c, i) => `${i + 1}. ${c.name}`);
  const out: string[] = [`Forecast (estimated) for ${t.today}.`, `This machine: ${t.machine}.`, ''];
  out.push("Rates here, MB/s (the drive's own figure in brackets where this machine limits it; 4K figures as MB/s):");
  out.push(
    table(
      ['figure', 'today', ...names],
      t.rates.map((r) => [r.figure, r.today, ...r.cells.map(cellText)]),
    ),
  );
  if (t.noWorkloads === null) {
    out.push('Your workloads (forecast, its range, and the gain over today):');
    out.push(
      table(
        ['workload', 'today', ...names],
        t.workloads.map((w) => [w.workload, w.today, ...w.cells.map(cellText)]),
      ),
    );
  } else out.push(t.noWorkloads, '');
  if (t.replay) {
    out.push(
      "A recorded day replayed (seconds per recorded day on each disk, today's estimated from its measured rates; the range; the gain over today):",
    );
    out.push(table(['', 'today', ...names], [[t.replay.what, cellText(t.replay.today), ...t.replay.cells.map(cellText)]]));
  }
  // The first line says what was replayed (or why nothing was); the rest are its assumptions, as a list.
  t.replayLines.forEach((line, i) => out.push(i === 0 ? line : `  - ${line}`));
  out.push('');
  t.candidates.forEach((c, i) => {
    out.push(`${names[i]}: ${c.origin}.`);
    for (const r of t.reasons[i]!) out.push(`  - ${r}.`);
    for (const v of t.verdicts) out.push(`  - ${v.what}: ${v.cells[i]}.`);
  });
  if (t.roughNote) out.push('', `${t.roughNote}.`);
  out.push('', `${t.accuracy} The model: docs/forecast.md.`);
  return out.join('\n') + '\n';
}
