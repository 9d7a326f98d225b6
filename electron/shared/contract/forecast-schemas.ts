// The candidates' forecast procedure (issue #42): what `forecast.candidates` answers is the
// forecast itself (analysis/candidate-forecast.ts), the one `diskdelta forecast --json` prints.
// Kept beside contract.ts, which lists the procedures.
import { z } from 'zod';
import { FIGURE_KEYS, type FigureKey } from '../analysis/candidate.ts';
import type { Forecast } from '../analysis/candidate-forecast.ts';
import type { JudgedCandidate } from '../analysis/candidate-judged.ts';
import { assessmentSchema } from '../model/assessment-schema.ts';
import { RUN_SOURCES } from '../model/figure-terms.ts';
import { CANDIDATE_INTERFACES, MAX_CANDIDATES } from '../model/candidate.ts';

const libraryId = z.number().int().positive();
const n = z.number().nullable();
const figures = z.object(Object.fromEntries(FIGURE_KEYS.map((k) => [k, n])) as Record<FigureKey, typeof n>);
const cappedFigure = z.object({
  key: z.enum(FIGURE_KEYS),
  drive: n,
  here: n,
  limit: z.enum(['drive', 'bus', 'cipher']),
});
const link = z.object({ ceilingBytesPerSec: z.number(), description: z.string(), transport: z.string().nullable() });

const ranged = z.object({ value: z.number(), low: z.number(), high: z.number() });
const diskReplay = ranged.extend({ streamSeconds: z.number(), accessSeconds: z.number() });
const why = z.object({ why: z.string() });
/** A recorded day replayed (analysis/replay-forecast.ts). */
const replaySchema = z.object({
  provenance: z.literal('estimated'),
  recorded: z.union([
    z.object({
      runId: n,
      label: z.string(),
      from: z.string(),
      to: z.string().nullable(),
      recordedSeconds: z.number(),
      days: z.number(),
      ramBytes: z.number(),
      ramFrom: z.string(),
      accessedBytesPerDay: z.number(),
      touchesPerDay: z.number(),
      diskBytesPerDay: ranged,
      diskTouchesPerDay: ranged,
      cacheHow: z.string(),
      touchesEstimated: z.boolean(),
      notes: z.array(z.string()),
      sentence: z.string(),
    }),
    z.object({ sentence: z.string() }),
  ]),
  today: z.union([diskReplay, why]).nullable(),
  candidates: z.array(z.union([diskReplay.extend({ gain: ranged.nullable() }), why])),
  accuracy: z.string(),
});

export const forecastSchema = z.object({
  provenance: z.literal('estimated'),
  current: z.object({ runId: n, label: z.string(), name: z.string(), figures, capacityBytes: n }),
  limits: z.object({ link: link.nullable(), encrypted: z.boolean(), cipher: z.string().nullable() }),
  candidates: z.array(
    z.object({
      capped: z.object({
        candidate: z.object({
          name: z.string(),
          origin: z.enum(['spec sheet', ...RUN_SOURCES]),
          originText: z.string(),
          interface: z.enum(CANDIDATE_INTERFACES).nullable(),
          capacityBytes: n,
          figures,
          cacheBytes: n,
          pastCacheBytesPerSec: n,
          enduranceTbw: n,
          encrypted: z.boolean(),
          notes: z.array(z.string()),
        }),
        figures: z.object(Object.fromEntries(FIGURE_KEYS.map((k) => [k, cappedFigure])) as Record<FigureKey, typeof cappedFigure>),
        usableLinkBytesPerSec: n,
        notes: z.array(z.string()),
      }),
      workloads: z.array(
        z.object({
          test: z.string(),
          phase: z.string(),
          todaySeconds: z.number(),
          seconds: n,
          low: n,
          high: n,
          rough: z.boolean(),
          gain: n,
          bytes: n,
          overrun: z.object({ bytes: z.number(), cacheBytes: z.number(), pastSeconds: z.number() }).nullable(),
          why: z.string().nullable(),
          basis: z.string(),
        }),
      ),
      endurance: z.union([
        z.object({ tbw: z.number(), bytesPerDay: z.number(), daysCounted: z.number(), years: z.number(), sentence: z.string() }),
        z.object({ sentence: z.string() }),
      ]),
      bursts: z.union([
        z.object({ intervals: z.number(), overrunning: z.number(), sentence: z.string() }),
        z.object({ sentence: z.string() }),
      ]),
      fits: z.object({ fits: z.boolean().nullable(), sentence: z.string() }),
    }),
  ),
  replay: replaySchema,
  accuracy: z.object({
    measuredAt: z.string(),
    checked: z.string(),
    forecastOverMeasured: z.array(z.number()),
    writes: z.object({ measuredAt: z.string(), checked: z.string(), forecastOverMeasured: z.array(z.number()) }),
    notChecked: z.string(),
  }),
  accuracyText: z.string(),
}) satisfies z.ZodType<Forecast>;

/** A candidate as the app sends it: a spec sheet's fields (checked by the one validator, model/candidate.ts, in the handler) or a library run. */
export const candidateInputSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('spec'),
      spec: z.unknown(),
      /** The file the app read it from, by name (kept as where it came from); no control characters: it is printed in terminals. */
      file: z
        .string()
        .min(1)
        .max(255)
        .regex(/^[^\p{Cc}]*$/u, 'a file name without control characters')
        .optional(),
    })
    .strict(),
  z.object({ kind: z.literal('run'), id: libraryId }).strict(),
]);

/** Each candidate's forecast beside the measurement of the new disk (analysis/candidate-judged.ts). */
const judgedSchema = z.array(
  z.object({
    name: z.string(),
    origin: z.string(),
    figures: z.array(
      z.object({
        key: z.enum(FIGURE_KEYS),
        forecastGain: z.number(),
        measuredGain: z.number(),
        low: n,
        high: n,
        runs: z.number(),
        noisy: z.boolean(),
        measuredText: z.string(),
        line: z.string(),
      }),
    ),
    workloads: z.array(
      z.object({
        test: z.string(),
        phase: z.string(),
        forecastGain: n,
        forecastRough: z.boolean(),
        measured: z
          .object({
            gain: z.number(),
            low: z.number(),
            high: z.number(),
            noisy: z.boolean(),
            passes: z.number(),
            beforeSeconds: z.number(),
            afterSeconds: z.number(),
            beforeRun: n,
            afterRun: n,
          })
          .nullable(),
        measuredText: z.string(),
        why: z.string().nullable(),
        line: z.string(),
      }),
    ),
  }),
) satisfies z.ZodType<JudgedCandidate[]>;

export const forecastProcedures = {
  /**
   * 1 to MAX_CANDIDATES candidates forecast on this machine for this person's work, beside the
   * disk in use today (`current`, default the newest measured disk run); `encrypt` as
   * `--encrypt`/`--plain` (default: as the current disk is). A refused spec sheet: BAD_INPUT,
   * each problem naming its field as the CLI says it.
   */
  'forecast.candidates': {
    input: z
      .object({
        candidates: z.array(candidateInputSchema).min(1).max(MAX_CANDIDATES),
        current: libraryId.optional(),
        encrypt: z.boolean().optional(),
      })
      .strict(),
    output: z.object({ forecast: forecastSchema, notes: z.array(z.string()) }),
  },
  /**
   * The candidates an assessment weighs (none: an empty list), kept as `assess set --candidate`
   * keeps them: every one checked first (a refused spec sheet is BAD_INPUT naming each field, and
   * changes nothing). A spec sheet is kept whole, as "file NAME chosen in the app" where the app
   * read it from a file, else "entered in the app".
   */
  'assessments.setCandidates': {
    input: z.object({ id: libraryId, candidates: z.array(candidateInputSchema).max(MAX_CANDIDATES) }).strict(),
    output: assessmentSchema,
  },
  /**
   * What `assess show --json` prints as candidatesForecast: the candidates forecast from the
   * assessment's before run and, once its after run is set, each beside the measurement; null
   * while it has no candidates or no before run.
   */
  'assessments.candidates': {
    input: z.object({ id: libraryId }).strict(),
    output: z.object({ forecast: forecastSchema, notes: z.array(z.string()), judged: judgedSchema.nullable() }).nullable(),
  },
} as const;
