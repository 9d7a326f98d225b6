// The candidates side by side (issue #42) as cells of text: what the app's Candidates page and
// the report's Candidates section both draw (candidates-view.ts), from the one forecast computed
// in core (node/api/forecast-service.ts) that `diskdelta forecast` prints too. Every figure is
// estimated: the table says so in its caption, each workload time carries its range, a range
// wider than ROUGH_RANGE is marked rough, a capped rate says what capped it and why.
import { FIGURE_KEYS, FIGURES } from '../analysis/candidate.ts';
import type { CandidateForecast, Forecast } from '../analysis/candidate-forecast.ts';
import { forecastSeconds } from '../analysis/candidate-forecast.ts';
import { ROUGH_RANGE } from '../analysis/workload-forecast.ts';
import type { ReplayForecast } from '../analysis/replay-forecast.ts';
import { formatCount, formatRatio, significantDigits } from '../analysis/units.ts';

/** Whole MB/s from 100 up (the bus's 279), three figures below (an HDD's 4K read of 0.400). */
export const forecastMb = (bps: number | null): string =>
  bps === null ? '–' : bps >= 100e6 ? formatCount(bps / 1e6) : significantDigits(bps / 1e6, 3);
/** Seconds with the precision a forecast's range deserves. */

export interface ForecastCell {
  /** The forecast ("279", "1.23 s"). */
  text: string;
  /** Its range or the drive's own figure ("1.23–4.36 s", "drive 560"); null: none. */
  detail: string | null;
  /** The gain over today ("×5.5"); null: none. */
  gain: string | null;
  /** What holds it: the bus or the cipher; null: the drive itself. */
  limit: 'bus' | 'cipher' | null;
  rough: boolean;
  overrun: boolean;
}

export interface CandidatesTable {
  /** "the disk in use today: sda (run 3 "…")". */
  today: string;
  machine: string;
  candidates: Array<{ name: string; origin: string }>;
  rates: Array<{ figure: string; today: string; cells: ForecastCell[] }>;
  workloads: Array<{ workload: string; today: string; cells: ForecastCell[] }>;
  /** Said instead of the workloads when none was measured on this disk; null: some were. */
  noWorkloads: string | null;
  /**
   * A recorded day replayed: today's disk and each candidate, seconds per recorded day (estimated,
   * today's too: a model over its measured rates); null: not judged, `replayLines` says why.
   */
  replay: { what: string; today: ForecastCell; cells: ForecastCell[] } | null;
  /** What was replayed (the run, its dates, the RAM), its assumptions, and that it is not measured in the lab. */
  replayLines: string[];
  /** Endurance, write bursts and fit, one sentence per candidate. */
  verdicts: Array<{ what: string; cells: string[] }>;
  /** Per candidate: each cap's reason, its notes, each cache overrun said whole. */
  reasons: string[][];
  /** Said once under the table when a cell is rough. */
  roughNote: string | null;
  accuracy: string;
}

/** Said once under a table with a rough forecast: here, the judged table (judged-model.ts), `forecast` and the report alike. */
export const ROUGH_NOTE = `rough: that forecast's range spans more than ×${ROUGH_RANGE}; one measurement of today's disk cannot tell its disk time from its CPU time, so read it as a rough guide`;

const emptyCell: Omit<ForecastCell, 'text'> = { detail: null, gain: null, limit: null, rough: false, overrun: false };

/**
 * What holds a candidate back here, one line per limit naming each figure it caps ("the bus (SATA
 * 3.0 Gb/s, 300 MB/s) is the limit: sequential read 560 → 279 MB/s, …"): the figure-by-figure
 * sentences of analysis/candidate.ts said once, so four capped figures are not four paragraphs.
 */
export function limitReasons(capped: CandidateForecast['capped'], link: string | null): string[] {
  const lines: string[] = [];
  for (const limit of ['bus', 'cipher'] as const) {
    const figs = FIGURE_KEYS.map((k) => capped.figures[k]).filter((x) => x.limit === limit);
    if (figs.length === 0) continue;
    const what = limit === 'bus' ? `the bus (${link ?? 'its link'}) is the limit` : "dm-crypt's cipher on this CPU is the limit";
    lines.push(`${what}: ${figs.map((x) => `${FIGURES[x.key].words} ${forecastMb(x.drive)} → ${forecastMb(x.here)} MB/s`).join(', ')}`);
  }
  return lines;
}

/** The replay's row and its lines (analysis/replay-forecast.ts). */
function replayRows(r: ReplayForecast): Pick<CandidatesTable, 'replay' | 'replayLines'> {
  const method = `a day's time: what the page cache would not have served, streamed at the sequential read, and one 4K read at QD1 per access, the two adding on today's disk (one head) and overlapping on a candidate; range: each disk adding or overlapping, and the cache between the RAM and half of it; ${r.accuracy}`;
  if (!('runId' in r.recorded)) return { replay: null, replayLines: [`A recorded day replayed: ${r.recorded.sentence}.`] };
  const seconds = (x: { value: number; low: number; high: number }): Omit<ForecastCell, 'gain'> => ({
    ...emptyCell,
    text: `${forecastSeconds(x.value)} s`,
    detail: `${forecastSeconds(x.low)}–${forecastSeconds(x.high)} s`,
  });
  const none = (why: string): ForecastCell => ({ ...emptyCell, text: '–', detail: why });
  const today = r.today === null ? none('not judged') : 'why' in r.today ? none(r.today.why) : { ...seconds(r.today), gain: null };
  return {
    replay: {
      what: 'a recorded day, per day',
      today,
      cells: r.candidates.map((c): ForecastCell => {
        if ('why' in c) return none(c.why);
        const gain = c.gain === null ? null : `${formatRatio(c.gain.value)} (${formatRatio(c.gain.low)}–${formatRatio(c.gain.high)})`;
        return { ...seconds(c), gain };
      }),
    },
    replayLines: [`A recorded day replayed: ${r.recorded.sentence}.`, ...r.recorded.notes.map((n) => `${n}.`), `${method}.`],
  };
}

export function candidatesTable(f: Forecast): CandidatesTable {
  const link = f.limits.link;
  const phases = f.candidates[0]?.workloads ?? [];
  return {
    today: `the disk in use today: ${f.current.name}, ${f.current.runId === null ? '' : `run ${f.current.runId} `}"${f.current.label}"`,
    machine: `${link ? `the new disk would sit on ${link.description}` : 'the link is not known'}; ${
      f.limits.encrypted ? `encrypted with dm-crypt (${f.limits.cipher}, this CPU's measured ceiling)` : 'not encrypted'
    }`,
    candidates: f.candidates.map((c) => ({ name: c.capped.candidate.name, origin: c.capped.candidate.originText })),
    rates: FIGURE_KEYS.map((k) => ({
      figure: FIGURES[k].words,
      today: forecastMb(f.current.figures[k]),
      cells: f.candidates.map((c) => {
        const x = c.capped.figures[k];
        return x.limit === 'drive'
          ? { ...emptyCell, text: forecastMb(x.here) }
          : { ...emptyCell, text: forecastMb(x.here), detail: `drive ${forecastMb(x.drive)}`, limit: x.limit };
      }),
    })),
    workloads: phases.map((p, i) => ({
      workload: `${p.test} ${p.phase}`,
      today: `${forecastSeconds(p.todaySeconds)} s`,
      cells: f.candidates.map((c): ForecastCell => {
        const w = c.workloads[i]!;
        if (w.seconds === null) return { ...emptyCell, text: '–', detail: w.why };
        return {
          ...emptyCell,
          text: `${forecastSeconds(w.seconds)} s`,
          detail: `${forecastSeconds(w.low!)}–${forecastSeconds(w.high!)} s`,
          gain: formatRatio(w.gain!),
          rough: w.rough,
          overrun: w.overrun !== null,
        };
      }),
    })),
    noWorkloads: phases.length ? null : 'Your workloads: none measured on this disk in the library (diskdelta run --preset workloads).',
    ...replayRows(f.replay),
    verdicts: [
      { what: 'endurance', cells: f.candidates.map((c) => c.endurance.sentence) },
      { what: 'write bursts', cells: f.candidates.map((c) => c.bursts.sentence) },
      { what: 'fits', cells: f.candidates.map((c) => c.fits.sentence) },
    ],
    reasons: f.candidates.map((c) => [
      ...limitReasons(c.capped, link?.description ?? null),
      ...c.capped.notes,
      ...c.workloads.flatMap((w) =>
        w.overrun
          ? [
              `${w.test} ${w.phase}: its ${Math.round(w.bytes! / 1e6)} MB overrun the ${Math.round(w.overrun.cacheBytes / 1e6)} MB fast cache; the part past it takes ${forecastSeconds(w.overrun.pastSeconds)} s`,
            ]
          : [],
      ),
    ]),
    roughNote: f.candidates.some((c) => c.workloads.some((w) => w.rough)) ? ROUGH_NOTE : null,
    accuracy: `Every figure is estimated, not measured; ${f.accuracyText}.`,
  };
}
