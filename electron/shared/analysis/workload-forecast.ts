// A workload's seconds per phase on a candidate drive, forecast from the same workload measured
// on the disk in use today and the two disks' rates (issue #42). Estimated, never measured.
//
// THE MODEL (docs/forecast.md says it for users)
//
//   A phase moves B bytes (the tree's or the big file's bytes written, the programs' bytes read):
//   that part streams at the disk's sequential rate. Whatever the phase took beyond it, measured
//   today, is the rest: small I/O (metadata, journal, small files, seeks) or CPU work. Today the
//   two are taken to add (an HDD's one head does one thing at a time; this also counts the most
//   small I/O the rest can hold):
//       today:      T = B / seq_today + rest,    small I/O = rest × small_today (bytes of 4K I/O)
//   A candidate works on several requests at once (the kernel's writeback and readahead, several
//   programs), so its streaming and small I/O overlap and the slower sets the pace:
//       forecast:   T' = max(stream', rest × small_today / small_candidate)
//   The range: the fastest and the slowest measured pass, each also with the two adding instead
//   of overlapping, and with the rest as CPU time no disk shortens (stream' + rest).
//   stream' writes the first cacheBytes at the sequential write and the rest at the speed past the
//   cache, when the candidate says so. small is the 4K random figure the phase's small I/O
//   resembles: writes and deletes are queued by the kernel's writeback and syncfs (4K write at
//   QD32), programs starting read in turn (4K read at QD1).
//
//   Assumes: the workload ran on today's disk (the same file system and mount options on the
//   candidate); today's rates are those of the same disk (the current-disk run); the phase's I/O
//   is either streaming or small (no third kind), and its small I/O scales with the 4K figure.
//   Checked in the lab (e2e/forecast-lab.test.ts, LAB_ACCURACY): programs starting on a throttled
//   loop device, and a big file and a tree written on throttled loops mounted -o sync (the only
//   way the blkio throttle governs writes); not the deletes, nor writes left to writeback.
//
// Pure: the renderer may bundle it.
import type { RunRecord } from '../model/results.ts';
import type { DriveFigures, FigureKey } from './candidate.ts';

/** How each phase of each workload test is modelled. */
interface PhaseModel {
  /** The figure the phase's bytes stream at; null: the phase moves no bulk data (a delete). */
  stream: 'seqWrite' | 'seqRead' | null;
  small: FigureKey;
  smallWords: string;
}

const WRITE: PhaseModel = { stream: 'seqWrite', small: 'rnd4kQ32Write', smallWords: '4K write at QD32 (writeback)' };
const DELETE: PhaseModel = { stream: null, small: 'rnd4kQ32Write', smallWords: '4K write at QD32 (journal, metadata)' };
const START: PhaseModel = { stream: 'seqRead', small: 'rnd4kQ1Read', smallWords: '4K read at QD1 (each program reads in turn)' };

const MODELS: Record<string, Record<string, PhaseModel>> = {
  tree: { write: WRITE, delete: DELETE },
  'tree-3.9.1': { write: WRITE, delete: DELETE },
  tarball: { write: WRITE, delete: DELETE },
  bigfile: { write: WRITE, delete: DELETE },
  'app-start': { start: START },
};

/** A write burst against a fast cache. */
export interface CacheOverrun {
  bytes: number;
  cacheBytes: number;
  /** Seconds the part past the cache takes at the speed past it. */
  pastSeconds: number;
}

/** Past this ratio of its range's ends a forecast is flagged rough (an HDD's tree write spanned ×14). */
export const ROUGH_RANGE = 3;

export interface PhaseForecast {
  test: string;
  phase: string;
  todaySeconds: number;
  /** Estimated; null with `why`. */
  seconds: number | null;
  low: number | null;
  high: number | null;
  /**
   * The range spans more than ROUGH_RANGE (high ÷ low): one disk's measurement cannot tell this
   * phase's disk time from its CPU time, so the forecast is a rough guide and is flagged so.
   */
  rough: boolean;
  /** today ÷ forecast: ×3.2 faster; under 1: slower. */
  gain: number | null;
  bytes: number | null;
  overrun: CacheOverrun | null;
  why: string | null;
  basis: string;
}

/** The bytes a phase moved, from its figure's basis ("… 45,168 files, 592 MB", "one file of 3000 MB"). */
export function phaseBytes(basis: string | undefined): number | null {
  if (!basis) return null;
  const m = /(?:files, |one file of )([\d,.]+) MB/.exec(basis);
  return m ? Number(m[1]!.replace(/,/g, '')) * 1e6 : null;
}

export interface CandidateRates {
  figures: DriveFigures;
  cacheBytes: number | null;
  pastCacheBytesPerSec: number | null;
}

/** Seconds to stream `bytes` on a candidate: through its fast cache first, past it at its slower speed. */
function streamSeconds(bytes: number, rate: number, c: CandidateRates, write: boolean): { seconds: number; overrun: CacheOverrun | null } {
  if (!write || c.cacheBytes === null || c.pastCacheBytesPerSec === null || bytes <= c.cacheBytes || c.cacheBytes === 0)
    return { seconds: bytes / rate, overrun: null };
  const pastSeconds = (bytes - c.cacheBytes) / Math.min(c.pastCacheBytesPerSec, rate);
  return { seconds: c.cacheBytes / rate + pastSeconds, overrun: { bytes, cacheBytes: c.cacheBytes, pastSeconds } };
}

/** Every phase of every workload run, forecast on one candidate from today's disk figures. */
export function forecastWorkloads(workloads: readonly RunRecord[], today: DriveFigures, candidate: CandidateRates): PhaseForecast[] {
  const out: PhaseForecast[] = [];
  for (const run of workloads)
    for (const result of run.results) {
      const models = MODELS[result.test];
      for (const f of result.figures ?? []) {
        if (f.metric !== 'phaseSeconds' || f.value === null) continue;
        out.push(
          forecastPhase(result.test, f.subject, f.value, f.passes ?? [f.value], phaseBytes(f.basis), models?.[f.subject], today, candidate),
        );
      }
    }
  return out;
}

function forecastPhase(
  test: string,
  phase: string,
  todaySeconds: number,
  passes: readonly number[],
  bytes: number | null,
  model: PhaseModel | undefined,
  today: DriveFigures,
  c: CandidateRates,
): PhaseForecast {
  const none = (why: string): PhaseForecast => ({
    test,
    phase,
    todaySeconds,
    seconds: null,
    low: null,
    high: null,
    rough: false,
    gain: null,
    bytes,
    overrun: null,
    why,
    basis: '',
  });
  if (!model) return none(`no model for the ${test} workload's ${phase} phase`);
  const smallToday = today[model.small];
  const smallThere = c.figures[model.small];
  if (smallToday === null) return none(`today's disk has no ${model.smallWords} figure (measure it: diskdelta run --tests ${model.small})`);
  if (smallThere === null) return none(`the candidate has no ${model.smallWords} figure`);
  let streamToday = 0;
  let stream = { seconds: 0, overrun: null as CacheOverrun | null };
  if (model.stream && bytes !== null && bytes > 0) {
    const seqToday = today[model.stream];
    const seqThere = c.figures[model.stream];
    if (seqToday === null || seqThere === null)
      return none(`${seqToday === null ? "today's disk" : 'the candidate'} has no ${model.stream} figure`);
    streamToday = bytes / seqToday;
    stream = streamSeconds(bytes, seqThere, c, model.stream === 'seqWrite');
  } else if (model.stream && bytes === null) return none(`the ${phase} phase does not say how many bytes it moved`);
  // Per pass: its streaming part (at most the whole pass: the page cache may have run ahead of the disk) and its rest.
  type Case = 'overlap' | 'add' | 'cpu';
  const forecastOf = (t: number, how: Case) => {
    const s = Math.min(streamToday, t);
    const rest = t - s;
    const streamed = stream.seconds * (streamToday > 0 ? s / streamToday : 1);
    const small = (rest * smallToday) / smallThere;
    return how === 'overlap' ? Math.max(streamed, small) : how === 'add' ? streamed + small : streamed + rest;
  };
  const seconds = forecastOf(todaySeconds, 'overlap');
  const ends = [Math.min(...passes), Math.max(...passes)].flatMap((t) =>
    (['overlap', 'add', 'cpu'] as const).map((how) => forecastOf(t, how)),
  );
  const low = Math.min(...ends, seconds);
  const high = Math.max(...ends, seconds);
  return {
    test,
    phase,
    todaySeconds,
    seconds,
    low,
    high,
    rough: low > 0 ? high / low > ROUGH_RANGE : true,
    gain: seconds > 0 ? todaySeconds / seconds : null,
    bytes,
    overrun: stream.overrun,
    why: null,
    basis: `${model.stream && bytes ? `${Math.round(bytes / 1e6)} MB at ${model.stream === 'seqWrite' ? 'sequential write' : 'sequential read'}, ` : ''}overlapping the rest of today's time scaled by ${model.smallWords}; range: the measured passes, the two adding, the rest as CPU time`,
  };
}
