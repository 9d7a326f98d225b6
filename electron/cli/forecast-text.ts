// `diskdelta forecast` in words: the candidates side by side with the disk in use today, every
// figure marked estimated, each cap with its reason, each workload time with its range.
import { FIGURE_KEYS, FIGURES } from '../shared/analysis/candidate.ts';
import type { Forecast } from '../shared/analysis/candidate-forecast.ts';
import { ROUGH_RANGE } from '../shared/analysis/workload-forecast.ts';
import { table } from './system-format.ts';
import { formatRatio } from '../shared/analysis/units.ts';
import { forecastMb, forecastSeconds } from '../shared/report/candidates-model.ts';

// The same figures as the app's and the report's table (report/candidates-model.ts).
const mb = forecastMb;
const sec = forecastSeconds;

export function formatForecastText(f: Forecast): string {
  const out: string[] = [];
  const link = f.limits.link;
  out.push(
    `Forecast (estimated) for the disk in use today: ${f.current.name}, from run ${f.current.runId ?? '?'} "${f.current.label}".`,
    `This machine: ${link ? `the new disk would sit on ${link.description}` : 'the link is not known'}; ${
      f.limits.encrypted ? `encrypted with dm-crypt (${f.limits.cipher}, this CPU's measured ceiling)` : 'not encrypted'
    }.`,
    '',
  );
  const names = f.candidates.map((c, i) => `${i + 1}. ${c.capped.candidate.name}`);
  out.push("Rates here, MB/s (the drive's own figure in brackets where this machine limits it; 4K figures as MB/s):");
  out.push(
    table(
      ['figure', 'today', ...names],
      FIGURE_KEYS.map((k) => [
        FIGURES[k].words,
        mb(f.current.figures[k]),
        ...f.candidates.map((c) => {
          const x = c.capped.figures[k];
          return x.limit === 'drive' ? mb(x.here) : `${mb(x.here)} (${mb(x.drive)}, ${x.limit})`;
        }),
      ]),
    ),
  );
  const phases = f.candidates[0]?.workloads ?? [];
  if (phases.length) {
    out.push('Your workloads, seconds (forecast, its range, and the gain over today):');
    out.push(
      table(
        ['workload', 'today', ...names],
        phases.map((p, i) => [
          `${p.test} ${p.phase}`,
          sec(p.todaySeconds),
          ...f.candidates.map((c) => {
            const w = c.workloads[i]!;
            if (w.seconds === null) return `– (${w.why})`;
            const over = w.overrun ? ' cache overrun' : '';
            return `${sec(w.seconds)} (${sec(w.low!)}–${sec(w.high!)}) ${formatRatio(w.gain!)}${w.rough ? ' rough' : ''}${over}`;
          }),
        ]),
      ),
    );
  } else out.push('Your workloads: none measured on this disk in the library (diskdelta run --preset workloads).', '');
  f.candidates.forEach((c, i) => {
    out.push(`${names[i]}: ${c.capped.candidate.originText}.`);
    for (const k of FIGURE_KEYS) {
      const s = c.capped.figures[k].sentence;
      if (s) out.push(`  - ${s}.`);
    }
    for (const n of c.capped.notes) out.push(`  - ${n}.`);
    for (const w of c.workloads)
      if (w.overrun)
        out.push(
          `  - ${w.test} ${w.phase}: its ${Math.round(w.bytes! / 1e6)} MB overrun the ${Math.round(w.overrun.cacheBytes / 1e6)} MB fast cache; the part past it takes ${sec(w.overrun.pastSeconds)} s.`,
        );
    out.push(`  - endurance: ${c.endurance.sentence}.`, `  - write bursts: ${c.bursts.sentence}.`, `  - fits: ${c.fits.sentence}.`);
  });
  if (f.candidates.some((c) => c.workloads.some((w) => w.rough)))
    out.push(
      '',
      `"rough": that forecast's range spans more than ×${ROUGH_RANGE}: one measurement of today's disk cannot tell its disk time from its CPU time, so read it as a rough guide.`,
    );
  out.push('', `Every figure above is estimated, not measured; ${f.accuracyText}. The model: docs/forecast.md.`);
  return out.join('\n') + '\n';
}
