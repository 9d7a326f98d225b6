// THE API contract: every procedure the renderer may call and every event it may receive,
// with zod schemas. The Electron IPC bridge, the preload, the WebSocket server and the
// renderer's client are all driven by this table; no channel or procedure name is written
// anywhere else. This module must stay free of Node and Electron imports: the renderer
// bundles it.
import { z } from 'zod';
import { benchSpecSchema, plainLabel } from '../model/spec.ts';
import { FAILURE_CODES } from '../model/failures.ts';
import { MAX_IMPORT_BYTES } from '../model/import-limits.ts';
import { progressEventSchema, sampleEventSchema, warningEventSchema } from '../model/bench-events.ts';
import { MAX_LIST_PAGE } from '../model/list-page.ts';
import { runFilterSchema, runSummarySchema, unreadableRunSummarySchema, type RunSummary } from '../model/run-summary.ts';
import { THROUGHPUT_UNITS } from '../analysis/units.ts';
import { MAX_REPORT_RUNS, PAPERS } from '../report/paper.ts';
import {
  assessmentSchema,
  cipherCeilingsSchema,
  deviceFingerprintSchema,
  runRecordSchema,
  stackLayerSchema,
  systemFactsSchema,
  unreadableAssessmentSchema,
  warningSchema,
} from '../model/schemas.ts';
import { EVENT_NAMES, PROCEDURE_NAMES, type EventName, type ProcedureName } from './contract-names.ts';
import { fleetProcedures } from './fleet-schemas.ts';
import { forecastProcedures } from './forecast-schemas.ts';
import { ASSESSMENT_FIELDS } from '../model/assessment.ts';

export {
  EVENT_NAMES,
  PROCEDURE_NAMES,
  ipcChannel,
  isEventName,
  isProcedureName,
  type EventName,
  type ProcedureName,
} from './contract-names.ts';

/**
 * The base64 of a file at the importers' limit: 48 MiB here once refused, as BAD_INPUT, files
 * of 36 to 50 MiB that the CLI imports (a fio file of 200,000 jobs is 41 MB).
 */
const IMPORT_BASE64_CHARS = Math.ceil(MAX_IMPORT_BYTES / 3) * 4;

export const ERROR_CODES = [
  'BAD_MESSAGE', // the envelope itself is not a request
  'UNKNOWN_PROCEDURE',
  'BAD_INPUT', // the input failed the procedure's schema
  'BAD_OUTPUT', // a handler returned data its schema refuses (a bug on our side)
  'UNAVAILABLE', // the backend module this procedure needs is not there
  'NOT_FOUND',
  'BUSY', // e.g. a run is already going on that device
  'CANCELLED',
  'IMPORT_FAILED',
  'FAILED',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const apiErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** Why a run could not start or failed (model/failures.ts): the page offers that failure's action. */
  failure: z.enum(FAILURE_CODES).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

const empty = z.object({}).strict();
const runId = z.string().min(1).max(64);
const libraryId = z.number().int().positive();

/** A run in the library or a shipped reference run, as the Compare page picks them. */
export const runRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), id: libraryId }).strict(),
  z.object({ kind: z.literal('reference'), key: z.string().min(1).max(200) }).strict(),
]);
export type RunRef = z.infer<typeof runRefSchema>;

export { runSummarySchema, type RunSummary };

export const referenceSummarySchema = z.object({ key: z.string(), record: runRecordSchema });

export const mountSchema = z.object({
  path: z.string(),
  device: z.string().nullable(),
  fsType: z.string().nullable(),
  options: z.array(z.string()),
  /** Layers of dm-crypt between this file system and its disk; null when unknown. */
  encryptedLayers: z.array(z.string()).nullable(),
  /** The mount's online discard: "on", "async", "off", or null where the file system decides elsewhere. */
  onlineDiscard: z.string().nullable(),
  /** Whether a discard (online or fstrim) passes every layer down to the disk; null: unknown. */
  trimReachesDisk: z.boolean().nullable(),
  /** The newest TRIM audit kept for this mount (`diskdelta trim-audit`): what a discard was seen reaching; null: none ran. */
  trimSeen: z
    .object({
      at: z.string(),
      /** The deepest layer that counted discards ("disk vda"), or null when none did. */
      deepestReached: z.string().nullable(),
      /** The layer below which discards stopped, or null. */
      stoppedAt: z.string().nullable(),
      /** The layer whose settings refuse discards (dm-crypt without allow_discards, a limit of 0), or null. */
      refusedBy: z.string().nullable(),
      /** The bottom layer of the stack (the disk) counted discards. */
      reachedBottom: z.boolean(),
      /** A layer's driver counts no discards: the audit's "cannot tell on this driver …" sentence, with its evidence; null otherwise. */
      cannotTell: z.string().nullable().optional(),
    })
    .nullable(),
  diskClass: deviceFingerprintSchema.shape.class.nullable(),
});

export const systemOverviewSchema = z.object({
  facts: systemFactsSchema.nullable(),
  disks: z.array(deviceFingerprintSchema),
  mounts: z.array(mountSchema),
  /** Folders a run could target, for the path field's suggestions in browser mode. */
  suggestedTargets: z.array(z.string()),
  /**
   * Why no dm-crypt mapping can be made on this machine whoever asks (a kernel without
   * device-mapper), or null: New run disables "also measure what encryption costs" with it.
   */
  encryptionUnavailable: z.string().max(500).nullable(),
  notes: z.array(z.string()),
});
export type SystemOverview = z.infer<typeof systemOverviewSchema>;

export type AssessmentData = z.infer<typeof assessmentSchema>;
export type AssessmentListData = z.infer<typeof unreadableAssessmentSchema> | AssessmentData;

/**
 * The steps to set: a library run, a shipped reference run (kept in the library first, once, as
 * `diskdelta import --reference` does), or null to empty the step.
 */
const assessmentStepsInput = z
  .partialRecord(z.enum(ASSESSMENT_FIELDS), runRefSchema.nullable())
  .refine((steps) => Object.keys(steps).length > 0, 'name at least one step to set');

/** A run going on, with what it has told so far: a tab opened during it shows it whole. */
export const activeRunSchema = z.object({
  runId,
  spec: benchSpecSchema,
  device: z.string(),
  startedAt: z.string(),
  progress: progressEventSchema.nullable(),
  /** Tests in the order they started. */
  tests: z.array(z.string()),
  /** The latest samples (at most MAX_SNAPSHOT_SAMPLES, run-manager.ts). */
  samples: z.array(sampleEventSchema),
  warnings: z.array(warningEventSchema),
});

export const procedures = {
  'system.overview': { input: empty, output: systemOverviewSchema },
  'system.describeTarget': {
    input: z.object({ path: z.string().min(1).max(4096) }).strict(),
    output: z.object({
      path: z.string(),
      device: deviceFingerprintSchema.nullable(),
      stack: z.array(stackLayerSchema),
      warnings: z.array(warningSchema),
    }),
  },
  /** Electron only: the native folder dialog. Browser mode answers UNAVAILABLE (type a path). */
  'dialog.pickFolder': { input: empty, output: z.object({ path: z.string().nullable() }) },
  'runs.start': { input: benchSpecSchema, output: z.object({ runId }) },
  /** keepFinished: save the tests that had finished, the run marked as cut short (#40 item 6). */
  'runs.cancel': {
    input: z.object({ runId, keepFinished: z.boolean().optional() }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
  'runs.active': { input: empty, output: z.array(activeRunSchema) },
  // The same filter as `diskdelta list`, answered by the same SQL (store/library.ts); the app
  // gets at most a page of the newest runs (handlers.ts), so the reply stays small whatever
  // the library holds.
  'library.list': {
    input: runFilterSchema.extend({ limit: z.number().int().min(1).max(MAX_LIST_PAGE).optional() }),
    // A row whose columns no longer fit is listed as unreadable (id, label, what is wrong), never breaking the others.
    output: z.array(z.union([runSummarySchema, unreadableRunSummarySchema])).max(MAX_LIST_PAGE),
  },
  'library.get': { input: z.object({ id: libraryId }).strict(), output: runRecordSchema },
  'library.relabel': {
    input: z.object({ id: libraryId, label: plainLabel.pipe(z.string().trim().min(1)) }).strict(),
    output: z.object({ id: libraryId, label: z.string() }),
  },
  'library.delete': { input: z.object({ id: libraryId }).strict(), output: z.object({ deleted: z.boolean() }) },
  'library.import': {
    // The renderer reads the file (picker or drop) and sends its bytes, base64: it never sends
    // a path for the backend to open. Bytes, not text, because CrystalDiskMark writes UTF-16.
    input: z.object({ fileName: z.string().min(1).max(255), contentBase64: z.base64().max(IMPORT_BASE64_CHARS) }).strict(),
    // ids: runs saved now; alreadyPresent: runs the library already kept (not saved again) and why, in words.
    output: z.object({
      ids: z.array(libraryId),
      alreadyPresent: z.array(z.object({ id: libraryId, why: z.string() })),
      warnings: z.array(warningSchema),
    }),
  },
  'library.export': {
    input: z.object({ ids: z.array(libraryId).min(1).max(1000), format: z.enum(['json', 'csv']) }).strict(),
    output: z.object({ fileName: z.string(), mimeType: z.string(), content: z.string() }),
  },
  'references.list': { input: empty, output: z.array(referenceSummarySchema) },
  /**
   * The cipher ceilings of this CPU: the last measurement of this session unless `measure`
   * (a few seconds of the worker's `ciphers` verb); null when never measured.
   */
  'crypto.ciphers': {
    input: z.object({ measure: z.boolean().optional() }).strict(),
    output: z.object({ ceilings: cipherCeilingsSchema.nullable() }),
  },
  'compare.load': {
    // One run is enough: the Compare page fetches only the runs it does not already show.
    input: z.object({ runs: z.array(runRefSchema).min(1).max(6) }).strict(),
    output: z.object({ runs: z.array(z.object({ ref: runRefSchema, record: runRecordSchema })) }),
  },
  /** The assessment report of the runs, as a file to save: PDF (printed by this front end's Chromium) or self-contained HTML. */
  'report.render': {
    input: z
      .object({
        runs: z.array(runRefSchema).min(1).max(MAX_REPORT_RUNS),
        format: z.enum(['pdf', 'html']),
        paper: z.enum(PAPERS),
        unit: z.enum(THROUGHPUT_UNITS),
      })
      .strict(),
    output: z.object({ fileName: z.string(), mimeType: z.string(), contentBase64: z.string() }),
  },
  ...fleetProcedures,
  /** Every upgrade assessment of the library, the last changed first. */
  /** An assessment row that no longer fits is listed as such (id, label, what is wrong), never breaking the others. */
  'assessments.list': {
    input: empty,
    output: z.array(z.union([assessmentSchema, unreadableAssessmentSchema])).max(MAX_LIST_PAGE),
  },
  'assessments.get': { input: z.object({ id: libraryId }).strict(), output: assessmentSchema },
  'assessments.start': {
    input: z
      .object({
        label: plainLabel.pipe(z.string().trim().min(1, 'name the assessment: what is being upgraded, e.g. "laptop HDD → SSD"')),
        steps: z.partialRecord(z.enum(ASSESSMENT_FIELDS), runRefSchema.nullable()).optional(),
      })
      .strict(),
    output: assessmentSchema,
  },
  'assessments.set': { input: z.object({ id: libraryId, steps: assessmentStepsInput }).strict(), output: assessmentSchema },
  /** The assessment's report (its story first), of its runs in step order, as a file to save; like report.render. */
  'assessments.report': {
    input: z.object({ id: libraryId, format: z.enum(['pdf', 'html']), paper: z.enum(PAPERS), unit: z.enum(THROUGHPUT_UNITS) }).strict(),
    output: z.object({ fileName: z.string(), mimeType: z.string(), contentBase64: z.string() }),
  },
  ...forecastProcedures,
} as const satisfies Record<ProcedureName, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'run.progress': progressEventSchema.extend({ runId }),
  /** Samples are batched: one event carries every sample since the previous flush. */
  'run.samples': z.object({ runId, samples: z.array(sampleEventSchema) }),
  'run.warning': warningEventSchema.extend({ runId }),
  /** A file being imported (library.import): what it is doing now; runs is known once it is parsed. */
  'import.progress': z.object({
    fileName: z.string().max(255),
    phase: z.enum(['parsing', 'saving']),
    runs: z.number().int().nullable(),
  }),
  'run.finished': z.object({
    runId,
    status: z.enum(['done', 'cancelled', 'failed']),
    recordId: libraryId.nullable(),
    error: apiErrorSchema.nullable(),
  }),
} as const satisfies Record<EventName, z.ZodType>;

export type Procedures = typeof procedures;
export type ProcedureInput<P extends ProcedureName> = z.input<Procedures[P]['input']>;
export type ProcedureOutput<P extends ProcedureName> = z.output<Procedures[P]['output']>;
export type Events = typeof events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

/** The schemas' keys, in order, are the names' list (contract-names.ts): checked at load, as the type checker does. */
for (const [what, keys, names] of [
  ['procedures', Object.keys(procedures), PROCEDURE_NAMES],
  ['events', Object.keys(events), EVENT_NAMES],
] as const) {
  if (keys.join() !== names.join())
    throw new Error(`contract.ts: the ${what}' schemas (${keys.join(', ')}) are not contract-names.ts's list (${names.join(', ')})`);
}

/** The wire envelope of a request over the WebSocket transport. */
export const requestEnvelopeSchema = z
  .object({ type: z.literal('invoke'), id: z.number().int().nonnegative(), procedure: z.string().max(100), input: z.unknown() })
  .strict();

export type ServerMessage =
  | { type: 'result'; id: number; result: ApiResult<unknown> }
  | { type: 'error'; id: null; error: ApiError }
  | { type: 'event'; event: EventName; payload: unknown };
