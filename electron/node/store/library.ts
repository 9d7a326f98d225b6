// The results library: one SQLite file (node:sqlite, so nothing native to rebuild for
// Electron) holding every run kept by DiskDelta — measured, imported or reference.
//
// Concurrency: WAL lets readers run beside a writer; every write takes the lock up front
// (BEGIN IMMEDIATE) so that a second process waits on the busy timeout instead of failing
// half-way with SQLITE_BUSY when it upgrades a read lock.
import { createHash } from 'node:crypto';
import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { ExtraMetric, Figure, LatencyNs, RunMeasurement, RunRecord, TestResult, Warning } from '../../shared/model/results.ts';
import type { TrimAuditResult } from '../system/discard-audit.ts';
import type { CipherCeilings } from '../../shared/model/cipher-types.ts';
import type { WriteSample } from '../../shared/analysis/write-volume.ts';
import { readableRuns, type RunFilter, type RunListItem, type RunSummary } from '../../shared/model/run-summary.ts';
import { runEncrypted, runKind } from '../../shared/model/run-kind.ts';
import { LIST_COLUMNS, runListItem } from './run-list-row.ts';
import { stepsRefusal } from '../../shared/model/assessment-check.ts';
import { makeFolderSync } from '../files/make-folder.ts';
import { runFingerprint } from './run-fingerprint.ts';
import { trimAuditSchema } from '../../shared/model/trim-audit-schema.ts';
import { migrate, NewerSchemaError, SCHEMA_VERSION, userVersion } from './migrations.ts';
import { shortPath } from '../../shared/model/display.ts';
import { measuredDeviceText } from '../../shared/model/run-text.ts';
import {
  isUnreadableAssessment,
  unreadableAssessmentText,
  type Assessment,
  type AssessmentField,
  type AssessmentListItem,
} from '../../shared/model/assessment.ts';
import type { StoredCandidate } from '../../shared/model/assessment.ts';
import { storedCandidateSchema } from '../../shared/model/assessment-schema.ts';
import { MAX_CANDIDATES } from '../../shared/model/candidate.ts';
import { checkSchema, issuesText } from '../../shared/model/schema-check.ts';
import { z } from 'zod';
import {
  assessmentSchema,
  cipherCeilingsSchema,
  deviceFingerprintSchema,
  driveCountersSchema,
  driveTemperatureSchema,
  fillLevelSchema,
  figureSchema,
  resultPrecisionSchema,
  runRecordSchema,
  runSettingsSchema,
  systemFactsSchema,
  targetInfoSchema,
  testParamsSchema,
  testResultSchema,
} from '../../shared/model/schemas.ts';
import {
  checked,
  readRow,
  rowLabel,
  storedJson,
  storedNumber,
  storedNumberOrNull,
  storedText,
  unreadableRunsText,
  type UnreadableRow,
} from './stored-row.ts';

/** Each step of an assessment and its column. */
const ASSESSMENT_COLUMNS: Record<AssessmentField, string> = {
  before: 'before_run',
  after: 'after_run',
  encrypted: 'encrypted_run',
  discardOff: 'discard_off_run',
  discardOn: 'discard_on_run',
  workingSet: 'working_set_run',
};

/** How long a writer waits for another process's transaction before giving up. */
const BUSY_TIMEOUT_MS = 10_000;

export class LibraryError extends Error {
  override name = 'LibraryError';
  /** read-only: this user may not write the file or its folder, or the filesystem is read-only; disk-full: no space for the WAL index or a page. */
  /** unreadable: a row of the file no longer fits the model (stored-row.ts); the message names it and says what to do. */
  /** wrong-role: a run whose kind does not fit the assessment step it was given for (model/assessment-roles.ts); the message says what fits. */
  readonly code:
    'open-failed' | 'newer-schema' | 'busy' | 'write-failed' | 'read-only' | 'disk-full' | 'invalid' | 'unreadable' | 'wrong-role';
  constructor(code: LibraryError['code'], message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

export type { RunFilter, RunListItem, RunSummary };

/** An imported run and what identifies it: see importFingerprints(). */
export interface ImportItem {
  run: RunRecord;
  fingerprint: string;
}

/**
 * Why an import item was not saved again: this very file was imported before, the same
 * measurement is already kept (its export, the same rows in another file), or the published
 * reference run of that name is.
 */
export type AlreadyPresentWhy = 'same-file' | 'same-run' | 'same-reference';

/** Where an import item ended up: saved now, or already in the library under that id, and why. */
export type ImportOutcome = { id: number; alreadyPresent: false } | { id: number; alreadyPresent: true; why: AlreadyPresentWhy };

/** What an import tells its caller: the runs saved, and those already kept with why (the contract's library.import). */
export function importSummary(outcomes: ImportOutcome[]): { ids: number[]; alreadyPresent: Array<{ id: number; why: string }> } {
  return {
    ids: outcomes.filter((o) => !o.alreadyPresent).map((o) => o.id),
    alreadyPresent: outcomes.flatMap((o) => (o.alreadyPresent ? [{ id: o.id, why: ALREADY_PRESENT_WHY[o.why] }] : [])),
  };
}

/** Stored for a run without a figure to fingerprint: NULL would mean "saved before schema 13, not looked at yet". */
const NO_RUN_FINGERPRINT = '';

/** An outcome's reason in words, the same in the CLI and the app. */
export const ALREADY_PRESENT_WHY: Record<AlreadyPresentWhy, string> = {
  'same-file': 'this file was imported before',
  'same-run': 'the same measurement (figures, target and machine), from another file or an export',
  'same-reference': 'the published reference run of that name',
};

/**
 * The fingerprints of the runs parsed from one file: the sha256 of its bytes plus the run's
 * index in the file. Bytes, not the parsed runs, because parsers stamp "now" into files that
 * carry no date (bonnie++ CSV), so the same file never parses to the same record twice.
 */
export function importFingerprints(fileBytes: Uint8Array, runCount: number): string[] {
  const digest = createHash('sha256').update(fileBytes).digest('hex');
  return Array.from({ length: runCount }, (_, index) => `sha256:${digest}#${index}`);
}

/** The import items of one file's runs: each run with its fingerprint. */
export function importItems(runs: RunRecord[], fileBytes: Uint8Array): ImportItem[] {
  const fingerprints = importFingerprints(fileBytes, runs.length);
  return runs.map((run, i) => ({ run, fingerprint: fingerprints[i]! }));
}

/** The one library service: the CLI's commands and the app's procedures both call it. */
export interface Library {
  readonly path: string;
  saveRun(run: RunRecord): number;
  /** All or nothing: either every run is saved or none is. */
  saveRuns(runs: RunRecord[]): number[];
  /**
   * Saves imported runs, all or nothing, skipping each that the library already holds: the same
   * file (its fingerprint), the same measurement from any file (runFingerprint), the same
   * reference run. A measured run is matched by what it measured only.
   */
  importRuns(items: ImportItem[]): ImportOutcome[];
  getRun(id: number): RunRecord | null;
  /**
   * The runs of ids in the order asked, null where there is none: one read for all of them. A run
   * that no longer fits the model (stored-row.ts) throws LibraryError 'unreadable' naming it and what to do.
   */
  getRuns(ids: readonly number[]): Array<RunRecord | null>;
  /** As getRuns, for lists: a run that no longer fits is null and named in `unreadable`, the others read. */
  readRuns(ids: readonly number[]): { runs: Array<RunRecord | null>; unreadable: UnreadableRow[] };
  /** The runs that can be read; a row whose columns no longer fit is left out here and said by listRunItems. */
  listRuns(filter?: RunFilter): RunSummary[];
  /** Every matching row: a row whose columns no longer fit is listed as unreadable (run-list-row.ts), never breaking the others. */
  listRunItems(filter?: RunFilter): RunListItem[];
  /** How many runs match (all of them without a filter): what a page of listRuns leaves out. */
  countRuns(filter?: Omit<RunFilter, 'limit'>): number;
  relabel(id: number, label: string): boolean;
  setNotes(id: number, notes: string): boolean;
  deleteRun(id: number): boolean;
  saveTrimAudit(audit: TrimAuditResult): number;
  /** The newest audit of each mount point (an audit whose mount point was unknown is kept, not listed). */
  latestTrimAudits(): TrimAuditResult[];
  /** One sample of every disk's write counter (write volume between and during runs). */
  saveWriteSamples(samples: readonly WriteSample[]): void;
  /** Every kept sample, by disk and time. */
  writeSamples(): WriteSample[];
  saveCipherCeilings(ceilings: CipherCeilings): number;
  /** The newest cipher measurement of a machine with this CPU (model and count), or null. */
  latestCipherCeilings(cpu?: { model: string | null; cpus: number }): CipherCeilings | null;
  /** A new upgrade assessment, its steps empty but those given; returns it with its id. */
  createAssessment(label: string, steps?: Partial<Record<AssessmentField, number | null>>): Assessment;
  /** null: no such assessment; a row that no longer fits throws LibraryError 'unreadable' saying what to do. */
  getAssessment(id: number): Assessment | null;
  /** Newest first; a row that no longer fits is listed as such (id, label, what is wrong), never breaking the others. */
  listAssessments(): AssessmentListItem[];
  /** Removes an assessment, readable or not (its runs stay); false: no such assessment. */
  deleteAssessment(id: number): boolean;
  /** Sets the steps given (a run id, or null to empty one); false: no such assessment. Every run id must exist. */
  updateAssessment(id: number, steps: Partial<Record<AssessmentField, number | null>>): boolean;
  /** Replaces the candidate drives the assessment weighs (spec sheets checked, run ids that exist); false: no such assessment. */
  setAssessmentCandidates(id: number, candidates: StoredCandidate[]): boolean;
  /** Runs fn inside one write transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T;
  /** PRAGMA integrity_check: ['ok'] for a healthy file. */
  integrityCheck(): string[];
  close(): void;
}

/**
 * Where the library lives: --db flag, then $DISKDELTA_DB, then the XDG data folder
 * ($XDG_DATA_HOME, ignored unless absolute as the spec says), then ~/.local/share.
 */
export function resolveDbPath(flagValue?: string, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (flagValue) return flagValue;
  if (env.DISKDELTA_DB) return env.DISKDELTA_DB;
  const xdg = env.XDG_DATA_HOME;
  const dataHome = xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share');
  return join(dataHome, 'diskdelta', 'library.sqlite');
}

export interface OpenOptions {
  dbPath?: string;
  /** How long a write waits for another process's transaction (default 10 s). */
  busyTimeoutMs?: number;
  /**
   * The caller only reads (list, show, export, compare): when the file cannot be opened for
   * writing — a read-only mount, a file of another user — it is opened read-only instead of
   * failing. Writes then fail with 'write-failed'.
   */
  readOnly?: boolean;
}

export function openLibrary(opts: OpenOptions = {}): Library {
  const path = opts.dbPath ?? resolveDbPath();
  const busyTimeoutMs = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  try {
    return new SqliteLibrary(path, busyTimeoutMs);
  } catch (error) {
    const unwritable = error instanceof LibraryError && error.code === 'open-failed' ? whyUnwritable(path, error) : null;
    if (!unwritable) throw error;
    // A writer is told why in words ("disk I/O error" once sent people to repair a healthy file).
    if (!opts.readOnly) throw new LibraryError(unwritable.code, unwritable.message, { cause: error });
    return openForReading(path, busyTimeoutMs, unwritable);
  }
}

interface Unwritable {
  code: 'read-only' | 'disk-full';
  message: string;
  /** The filesystem itself is read-only: nobody can change the file. */
  readOnlyFs: boolean;
}

const MiB = 1024 * 1024;
/** SQLite's primary result codes that a full disk gives on open: IOERR (the -shm cannot grow), FULL, CANTOPEN. */
const FULL_DISK_CODES = new Set([10, 13, 14]);

/**
 * Why a library that exists cannot be opened for writing, or null when that is not the reason
 * (then the original error stands): a full disk, a read-only filesystem, or no permission.
 */
function whyUnwritable(path: string, error: LibraryError): Unwritable | null {
  if (path === ':memory:') return null;
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return null;
  }
  const cause = error.cause as { errcode?: number } | undefined;
  const folder = dirname(path);
  try {
    const fs = statfsSync(folder);
    const free = fs.bavail * fs.bsize;
    if (FULL_DISK_CODES.has((cause?.errcode ?? 0) & 0xff) && free < MiB) {
      return {
        code: 'disk-full',
        readOnlyFs: false,
        message: `the disk holding the library ${shortPath(path)} is full (${free} bytes free in ${shortPath(folder)}): free some space, or choose another library with --db`,
      };
    }
  } catch {
    // No statfs: decide by permissions below.
  }
  try {
    accessSync(path, constants.W_OK);
    accessSync(folder, constants.W_OK);
    return null; // writable: the failure was something else, keep its message
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EROFS') {
      return {
        code: 'read-only',
        readOnlyFs: true,
        message: `the library ${shortPath(path)} is on a read-only filesystem and cannot be changed there: copy it elsewhere, or choose another library with --db`,
      };
    }
    return {
      code: 'read-only',
      readOnlyFs: false,
      message:
        `the library ${shortPath(path)} cannot be written by this user (${userName()}): the file or its folder is read-only ` +
        'for you. Use it as its owner, or choose another library with --db',
    };
  }
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/**
 * A library that cannot be written, opened for the commands that only read (list, show,
 * export, compare). 'ro' needs the WAL index (-shm) beside the file, which SQLite must be able
 * to create: not in a folder this user cannot write, nor on a full disk. Then 'immutable',
 * which reads the file without the index, is right only when no change waits in the -wal file
 * (the last writer closed cleanly and checkpointed it); else those runs would be missing.
 */
function openForReading(path: string, busyTimeoutMs: number, unwritable: Unwritable): Library {
  if (unwritable.readOnlyFs) return new SqliteLibrary(path, busyTimeoutMs, 'immutable');
  try {
    return new SqliteLibrary(path, busyTimeoutMs, 'ro');
  } catch (error) {
    if (!(error instanceof LibraryError) || error.code !== 'open-failed') throw error;
    if (walSize(path) > 0) {
      throw new LibraryError(
        unwritable.code,
        `${unwritable.message}. It cannot be read here either: its last changes are still in ${shortPath(`${path}-wal`)}, ` +
          'which only a writer can fold in (open it once where it can be written)',
        { cause: error },
      );
    }
    return new SqliteLibrary(path, busyTimeoutMs, 'immutable');
  }
}

function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

type Row = Record<string, SQLInputValue>;

/** A filter's SQL conditions on the runs table (list and count use the same). */
function filterSql(filter: Omit<RunFilter, 'limit'>): { where: string[]; params: SQLInputValue[] } {
  const where: string[] = [];
  const params: SQLInputValue[] = [];
  if (filter.source) {
    where.push('source = ?');
    params.push(filter.source);
  }
  if (filter.label) {
    where.push("label LIKE ? ESCAPE '\\'");
    params.push(likePattern(filter.label));
  }
  if (filter.device) {
    const pattern = likePattern(filter.device);
    where.push("(device_model LIKE ? ESCAPE '\\' OR device_class LIKE ? ESCAPE '\\' OR target_path LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern, pattern);
  }
  if (filter.since) {
    where.push('created_at >= ?');
    params.push(filter.since);
  }
  if (filter.until) {
    where.push('created_at <= ?');
    params.push(filter.until);
  }
  if (filter.kind !== undefined) {
    const kinds = typeof filter.kind === 'string' ? [filter.kind] : filter.kind;
    where.push(`kind IN (${kinds.map(() => '?').join(', ')})`);
    params.push(...kinds);
  }
  if (filter.test) {
    where.push('EXISTS (SELECT 1 FROM results WHERE results.run_id = runs.id AND results.test = ?)');
    params.push(filter.test);
  }
  return { where, params };
}

const LATENCY_KEYS = ['mean', 'p50', 'p90', 'p99', 'p999', 'max'] as const;

class SqliteLibrary implements Library {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  #depth = 0;

  constructor(path: string, busyTimeoutMs: number, readOnly: 'immutable' | 'ro' | null = null) {
    this.path = path;
    const inMemory = path === ':memory:';
    try {
      if (readOnly) {
        this.#db = new DatabaseSync(`${pathToFileURL(path).href}?${readOnly === 'immutable' ? 'immutable=1' : 'mode=ro'}`, {
          readOnly: true,
          timeout: busyTimeoutMs,
          enableForeignKeyConstraints: true,
        });
      } else {
        // The folder holds device serial numbers and a history of the machine: keep it private.
        if (!inMemory) makeFolderSync(dirname(path), 0o700);
        this.#db = new DatabaseSync(path, { timeout: busyTimeoutMs, enableForeignKeyConstraints: true });
      }
    } catch (error) {
      throw new LibraryError('open-failed', `cannot open the library ${shortPath(path)}: ${messageOf(error)}`, { cause: error });
    }
    if (readOnly) {
      // No migrations on a file we may not write: its schema must already be this version's.
      let version: number;
      try {
        version = userVersion(this.#db);
      } catch (error) {
        this.#db.close();
        throw new LibraryError('open-failed', `cannot read the library ${shortPath(path)}: ${messageOf(error)}`, { cause: error });
      }
      if (version !== SCHEMA_VERSION) {
        this.#db.close();
        throw new LibraryError(
          'open-failed',
          `the library ${shortPath(path)} is read-only here and has schema version ${version}, this DiskDelta reads ${SCHEMA_VERSION}: open it once where it can be written (it is upgraded then)`,
        );
      }
      return;
    }
    try {
      if (!inMemory) this.#db.exec('PRAGMA journal_mode = WAL');
      // WAL's fsync at checkpoints keeps the file safe; NORMAL avoids one fsync per commit.
      this.#db.exec('PRAGMA synchronous = NORMAL');
      migrate(this.#db);
      this.#classifyOldRuns();
    } catch (error) {
      this.#db.close();
      if (error instanceof NewerSchemaError) throw new LibraryError('newer-schema', `the library ${shortPath(path)}: ${error.message}`);
      throw new LibraryError('open-failed', `cannot open the library ${shortPath(path)}: ${messageOf(error)}`, { cause: error });
    }
  }

  #stmt(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  transaction<T>(fn: () => T): T {
    return this.#inTransaction('BEGIN IMMEDIATE', fn);
  }

  /** Reads that take several statements see one snapshot, even while another process writes. */
  #read<T>(fn: () => T): T {
    return this.#inTransaction('BEGIN', fn);
  }

  #inTransaction<T>(begin: string, fn: () => T): T {
    if (this.#depth > 0) return fn();
    try {
      this.#db.exec(begin);
    } catch (error) {
      throw this.#sqliteFailure(error);
    }
    this.#depth += 1;
    try {
      const value = fn();
      this.#db.exec('COMMIT');
      return value;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw this.#sqliteFailure(error);
    } finally {
      this.#depth -= 1;
    }
  }

  /** SQLite's own errors (locked, disk full, read-only file, constraint) as a LibraryError naming the file. */
  #sqliteFailure(error: unknown): unknown {
    const e = (error ?? {}) as { code?: string; errcode?: number; message?: string };
    if (e.code !== 'ERR_SQLITE_ERROR') return error;
    // SQLITE_BUSY (5) and SQLITE_LOCKED (6), also as extended codes (low byte).
    const primary = (e.errcode ?? 0) & 0xff;
    if (primary === 5 || primary === 6) {
      return new LibraryError(
        'busy',
        `the library ${shortPath(this.path)} is busy: another DiskDelta process kept it locked too long; try again`,
        { cause: error },
      );
    }
    // SQLITE_READONLY (8) and SQLITE_FULL (13): said as what they are, not as damage.
    if (primary === 8) {
      return new LibraryError('read-only', `the library ${shortPath(this.path)} cannot be written here (${e.message ?? 'read-only'})`, {
        cause: error,
      });
    }
    if (primary === 13) {
      return new LibraryError('disk-full', `the disk holding the library ${shortPath(this.path)} is full: free some space`, {
        cause: error,
      });
    }
    return new LibraryError('write-failed', `cannot write to the library ${shortPath(this.path)}: ${e.message ?? String(error)}`, {
      cause: error,
    });
  }

  saveRun(run: RunRecord): number {
    return this.transaction(() => this.#insertRun(run));
  }

  saveRuns(runs: RunRecord[]): number[] {
    return this.transaction(() => runs.map((run) => this.#insertRun(run)));
  }

  importRuns(items: ImportItem[]): ImportOutcome[] {
    return this.transaction(() => {
      this.#fingerprintOldRuns();
      return items.map(({ run, fingerprint }): ImportOutcome => {
        const found = (sql: string, key: string, why: AlreadyPresentWhy): ImportOutcome | null => {
          const row = this.#stmt(sql).get(key) as Row | undefined;
          return row ? { id: Number(row.id), alreadyPresent: true, why } : null;
        };
        // A reference run is one published figure set: kept once, however it arrived (`import
        // --reference`, or its shipped file through "Import files…").
        if (run.source === 'reference')
          return (
            found("SELECT id FROM runs WHERE source = 'reference' AND label = ?", run.label, 'same-reference') ?? {
              id: this.#insertRun(run),
              alreadyPresent: false,
            }
          );
        // A measured run's file (an unsaved run kept as JSON) is no import of a foreign file: only what it measured counts.
        const fileKey = run.source === 'measured' ? null : fingerprint;
        const runKey = runFingerprint(run);
        return (
          (fileKey ? found('SELECT id FROM runs WHERE import_fingerprint = ?', fileKey, 'same-file') : null) ??
          (runKey ? found('SELECT id FROM runs WHERE run_fingerprint = ? ORDER BY id LIMIT 1', runKey, 'same-run') : null) ?? {
            id: this.#insertRun(run, fileKey, runKey),
            alreadyPresent: false,
          }
        );
      });
    });
  }

  /**
   * Runs saved before schema 17 have no kind: each is classified from its stored record
   * (run-kind.ts, the same call as on save), a batch at a time so that a library of big runs
   * is not read into memory at once. A row that cannot be read (stored-row.ts) is 'unknown':
   * it is listed as unreadable anyway, and 'unknown' fits no assessment step. Its saved_at
   * needs nothing: every row has kept one since schema 1. Runs at every open (cheap: one
   * lookup in the covering index when all are classified), so an open that died half-way is
   * finished by the next.
   */
  #classifyOldRuns(): void {
    const BATCH = 50;
    const unclassified = () =>
      (this.#stmt('SELECT id FROM runs WHERE kind IS NULL ORDER BY id LIMIT ?').all(BATCH) as Row[]).map((r) => Number(r.id));
    const update = this.#stmt('UPDATE runs SET kind = ?, encrypted = ? WHERE id = ?');
    for (let ids = unclassified(); ids.length > 0; ids = unclassified()) {
      this.transaction(() => {
        const { runs } = this.readRuns(ids);
        ids.forEach((id, i) => {
          const run = runs[i];
          update.run(run ? runKind(run) : 'unknown', run ? encryptedColumn(runEncrypted(run)) : null, id);
        });
      });
    }
  }

  /** Runs saved before schema 13 have no run fingerprint: the first import gives them one (once). */
  #fingerprintOldRuns(): void {
    const ids = this.#stmt('SELECT id FROM runs WHERE run_fingerprint IS NULL').all() as Row[];
    const update = this.#stmt('UPDATE runs SET run_fingerprint = ? WHERE id = ?');
    for (const { id } of ids) {
      // A run the library can no longer read keeps no fingerprint (it cannot be matched) and does not stop the import.
      const run = this.readRuns([Number(id)]).runs[0];
      if (run) update.run(runFingerprint(run) ?? NO_RUN_FINGERPRINT, Number(id));
    }
  }

  /** runKey: the run's fingerprint when the caller has it already (a run of 200,000 results takes seconds to hash). */
  #insertRun(run: RunRecord, importFingerprint: string | null = null, runKey: string | null | undefined = undefined): number {
    const device = run.target.device;
    const warningCount = run.warnings.length + run.results.reduce((n, r) => n + r.warnings.length, 0);
    const inserted = this.#stmt(
      `INSERT INTO runs (label, notes, created_at, saved_at, source, source_format, source_meta,
         target_path, target_kind, device, stack, system, settings, preset,
         engine_name, engine_version, io_engine, device_model, device_class, result_count, warning_count, import_fingerprint, temperature,
         run_fingerprint, kind, encrypted, fill, drive)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      run.label,
      run.notes,
      run.createdAt,
      new Date().toISOString(),
      run.source,
      run.sourceFormat,
      JSON.stringify(run.sourceMeta),
      run.target.path,
      run.target.kind,
      jsonOrNull(device),
      jsonOrNull(run.target.stack),
      jsonOrNull(run.system),
      JSON.stringify(run.settings),
      run.settings.preset ?? null,
      run.engine.name,
      run.engine.version,
      run.engine.ioEngine ?? null,
      // The list's device column: virtio, loop and zram disks have no model, and their
      // kernel name ("vda") says more than a dash; a loop device in between is named too.
      measuredDeviceText(run.target),
      device?.class ?? null,
      run.results.length,
      warningCount,
      importFingerprint,
      jsonOrNull(run.temperature),
      (runKey === undefined ? runFingerprint(run) : runKey) ?? NO_RUN_FINGERPRINT,
      runKind(run),
      encryptedColumn(runEncrypted(run)),
      jsonOrNull(run.fill),
      jsonOrNull(run.drive),
    );
    const runId = Number(inserted.lastInsertRowid);
    run.results.forEach((result, seq) => this.#insertResult(runId, seq, result));
    this.#insertWarnings(runId, null, run.warnings);
    const insertExtra = this.#stmt('INSERT INTO extras (run_id, seq, name, value, unit, note) VALUES (?, ?, ?, ?, ?, ?)');
    run.extras.forEach((extra, seq) => {
      insertExtra.run(runId, seq, extra.name, extra.value, extra.unit, extra.note ?? null);
    });
    return runId;
  }

  #insertResult(runId: number, seq: number, result: TestResult): void {
    const lat = result.latencyNs;
    const inserted = this.#stmt(
      `INSERT INTO results (run_id, seq, test, params, bytes_per_sec, iops, has_latency,
         lat_mean, lat_p50, lat_p90, lat_p99, lat_p999, lat_max, has_best, best_bytes_per_sec, best_iops,
         cv, cpu_user_ns, cpu_system_ns, under_resolved, precision, statistic)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      runId,
      seq,
      result.test,
      jsonOrNull(result.params),
      result.bytesPerSec,
      result.iops,
      lat ? 1 : 0,
      ...LATENCY_KEYS.map((k) => lat?.[k] ?? null),
      result.best ? 1 : 0,
      result.best?.bytesPerSec ?? null,
      result.best?.iops ?? null,
      result.cv,
      result.cpu?.userNs ?? null,
      result.cpu?.systemNs ?? null,
      result.underResolved ? 1 : 0,
      jsonOrNull(result.precision),
      result.statistic ?? null,
    );
    const resultId = Number(inserted.lastInsertRowid);
    const insertBucket = this.#stmt('INSERT INTO histogram_buckets (result_id, seq, lower_ns, count) VALUES (?, ?, ?, ?)');
    result.histogram.forEach(([lowerNs, count], i) => insertBucket.run(resultId, i, lowerNs, count));
    result.runs.forEach((measurement, i) => this.#insertMeasurement(resultId, i, measurement));
    const insertFigure = this.#stmt(
      'INSERT INTO figures (result_id, seq, metric, subject, value, unit, provenance, basis, passes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    (result.figures ?? []).forEach((f, i) =>
      insertFigure.run(resultId, i, f.metric, f.subject, f.value, f.unit, f.provenance, f.basis ?? null, jsonOrNull(f.passes)),
    );
    this.#insertWarnings(runId, resultId, result.warnings);
  }

  #insertMeasurement(resultId: number, seq: number, m: RunMeasurement): void {
    const inserted = this.#stmt(
      `INSERT INTO measurements (result_id, seq, run, bytes_per_sec, iops,
         lat_mean, lat_p50, lat_p90, lat_p99, lat_p999, lat_max, elapsed_ns, ios, bytes, cpu_user_ns, cpu_system_ns)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      resultId,
      seq,
      m.run,
      m.bytesPerSec,
      m.iops,
      ...LATENCY_KEYS.map((k) => m.latencyNs[k]),
      m.elapsedNs,
      m.ios,
      m.bytes,
      m.cpu.userNs,
      m.cpu.systemNs,
    );
    const measurementId = Number(inserted.lastInsertRowid);
    const insertSample = this.#stmt('INSERT INTO samples (measurement_id, seq, t_ms, bytes_per_sec, iops) VALUES (?, ?, ?, ?, ?)');
    m.samples.forEach((s, i) => insertSample.run(measurementId, i, s.tMs, s.bytesPerSec, s.iops));
  }

  #insertWarnings(runId: number, resultId: number | null, warnings: Warning[]): void {
    const insert = this.#stmt('INSERT INTO warnings (run_id, result_id, seq, code, message) VALUES (?, ?, ?, ?, ?)');
    warnings.forEach((w, seq) => insert.run(runId, resultId, seq, w.code, w.message));
  }

  getRun(id: number): RunRecord | null {
    return this.getRuns([id])[0] ?? null;
  }

  getRuns(ids: readonly number[]): Array<RunRecord | null> {
    const { runs, unreadable } = this.readRuns(ids);
    if (unreadable.length > 0) throw new LibraryError('unreadable', unreadableRunsText(unreadable));
    return runs;
  }

  readRuns(ids: readonly number[]): { runs: Array<RunRecord | null>; unreadable: UnreadableRow[] } {
    if (ids.length === 0) return { runs: [], unreadable: [] };
    const found = this.#read(() => this.#readRunsEach(ids));
    const unreadable = [...found.values()].filter((r): r is UnreadableRow => 'problem' in r);
    return { runs: ids.map((id) => found.get(id) ?? null).map((r) => (r && 'problem' in r ? null : r)), unreadable };
  }

  /**
   * All the runs at once; when one of them does not fit (stored-row.ts), each alone, so that the
   * others are still read and the bad ones named. Reading one at a time is slow with many runs,
   * and only a library with a bad row pays for it.
   */
  #readRunsEach(ids: readonly number[]): Map<number, RunRecord | UnreadableRow> {
    const all = readRow(() => this.#readRuns(ids));
    if (all.ok) return all.value;
    const each = new Map<number, RunRecord | UnreadableRow>();
    for (const id of new Set(ids)) {
      const one = readRow(() => this.#readRuns([id]));
      const run = one.ok ? one.value.get(id) : undefined;
      if (!one.ok) {
        const row = this.#stmt('SELECT label FROM runs WHERE id = ?').get(id) as Row | undefined;
        each.set(id, { id, label: rowLabel(row?.label), problem: one.problem });
      } else if (run) each.set(id, run);
    }
    return each;
  }

  /**
   * The runs of `ids`, each table read once for all of them (rows grouped by their owner in
   * the order the indexes give): read a run at a time, the fleet page's 1,000 hosts took ~40,000
   * statements and ~220 ms. The ids go in as one JSON array, so no count of them meets SQLite's
   * limit on bound parameters.
   */
  #readRuns(ids: readonly number[]): Map<number, RunRecord> {
    const wanted = JSON.stringify([...new Set(ids)]);
    const RUN_IDS = 'SELECT value FROM json_each(?)';
    const RESULT_IDS = `SELECT id FROM results WHERE run_id IN (${RUN_IDS})`;
    const rows = (sql: string) => this.#stmt(sql).all(wanted) as Row[];

    const warnings = groupRows(
      rows(`SELECT run_id, result_id, code, message FROM warnings WHERE run_id IN (${RUN_IDS}) ORDER BY run_id, result_id, seq`),
      (w) => `${Number(w.run_id)}:${w.result_id == null ? '' : Number(w.result_id)}`,
      (w): Warning => ({ code: storedText('warnings.code', w.code), message: storedText('warnings.message', w.message) }),
    );
    const extras = groupRows(
      rows(`SELECT run_id, name, value, unit, note FROM extras WHERE run_id IN (${RUN_IDS}) ORDER BY run_id, seq`),
      (e) => Number(e.run_id),
      (e): ExtraMetric => {
        const extra: ExtraMetric = {
          name: storedText('extras.name', e.name),
          value: storedNumberOrNull('extras.value', e.value),
          unit: storedText('extras.unit', e.unit),
        };
        if (e.note != null) extra.note = storedText('extras.note', e.note);
        return extra;
      },
    );
    const histograms = groupRows(
      rows(`SELECT result_id, lower_ns, count FROM histogram_buckets WHERE result_id IN (${RESULT_IDS}) ORDER BY result_id, seq`),
      (b) => Number(b.result_id),
      (b): [number, number] => [storedNumber('histogram_buckets.lower_ns', b.lower_ns), storedNumber('histogram_buckets.count', b.count)],
    );
    const samples = groupRows(
      rows(
        `SELECT measurement_id, t_ms, bytes_per_sec, iops FROM samples WHERE measurement_id IN
           (SELECT id FROM measurements WHERE result_id IN (${RESULT_IDS})) ORDER BY measurement_id, seq`,
      ),
      (s) => Number(s.measurement_id),
      (s) => ({
        tMs: storedNumber('samples.t_ms', s.t_ms),
        bytesPerSec: storedNumber('samples.bytes_per_sec', s.bytes_per_sec),
        iops: storedNumber('samples.iops', s.iops),
      }),
    );
    const measurements = groupRows(
      rows(`SELECT * FROM measurements WHERE result_id IN (${RESULT_IDS}) ORDER BY result_id, seq`),
      (m) => Number(m.result_id),
      (m): RunMeasurement => ({
        run: storedNumber('measurements.run', m.run),
        bytesPerSec: storedNumber('measurements.bytes_per_sec', m.bytes_per_sec),
        iops: storedNumber('measurements.iops', m.iops),
        latencyNs: readLatency(m),
        elapsedNs: storedNumber('measurements.elapsed_ns', m.elapsed_ns),
        ios: storedNumber('measurements.ios', m.ios),
        bytes: storedNumber('measurements.bytes', m.bytes),
        cpu: {
          userNs: storedNumber('measurements.cpu_user_ns', m.cpu_user_ns),
          systemNs: storedNumber('measurements.cpu_system_ns', m.cpu_system_ns),
        },
        samples: samples.get(Number(m.id)) ?? [],
      }),
    );
    const figures = groupRows(
      rows(
        `SELECT result_id, metric, subject, value, unit, provenance, basis, passes FROM figures
         WHERE result_id IN (${RESULT_IDS}) ORDER BY result_id, seq`,
      ),
      (f) => Number(f.result_id),
      (f): Figure => {
        const figure: Figure = {
          metric: storedText('figures.metric', f.metric),
          subject: storedText('figures.subject', f.subject),
          value: storedNumberOrNull('figures.value', f.value),
          unit: checked('figures.unit', f.unit, figureSchema.shape.unit),
          provenance: checked('figures.provenance', f.provenance, figureSchema.shape.provenance),
        };
        if (f.basis != null) figure.basis = storedText('figures.basis', f.basis);
        if (f.passes != null) figure.passes = storedJson('figures.passes', f.passes, figureSchema.shape.passes.unwrap());
        return figure;
      },
    );
    const results = groupRows(
      rows(`SELECT * FROM results WHERE run_id IN (${RUN_IDS}) ORDER BY run_id, seq`),
      (r) => Number(r.run_id),
      (r): TestResult => {
        const resultId = Number(r.id);
        const result: TestResult = {
          test: storedText('results.test', r.test),
          params: r.params == null ? null : storedJson('results.params', r.params, testParamsSchema),
          bytesPerSec: storedNumberOrNull('results.bytes_per_sec', r.bytes_per_sec),
          iops: storedNumberOrNull('results.iops', r.iops),
          latencyNs: r.has_latency ? readLatency(r) : null,
          best: r.has_best
            ? {
                bytesPerSec: storedNumberOrNull('results.best_bytes_per_sec', r.best_bytes_per_sec),
                iops: storedNumberOrNull('results.best_iops', r.best_iops),
              }
            : null,
          cv: storedNumberOrNull('results.cv', r.cv),
          runs: measurements.get(resultId) ?? [],
          histogram: histograms.get(resultId) ?? [],
          cpu:
            r.cpu_user_ns == null
              ? null
              : {
                  userNs: storedNumber('results.cpu_user_ns', r.cpu_user_ns),
                  systemNs: storedNumber('results.cpu_system_ns', r.cpu_system_ns),
                },
          underResolved: Boolean(r.under_resolved),
          ...(r.statistic == null
            ? {}
            : { statistic: checked('results.statistic', r.statistic, testResultSchema.shape.statistic.unwrap()) }),
          ...(r.precision == null ? {} : { precision: storedJson('results.precision', r.precision, resultPrecisionSchema) }),
          warnings: warnings.get(`${Number(r.run_id)}:${resultId}`) ?? [],
        };
        const resultFigures = figures.get(resultId);
        if (resultFigures) result.figures = resultFigures;
        return result;
      },
    );

    const runs = new Map<number, RunRecord>();
    for (const row of rows(`SELECT * FROM runs WHERE id IN (${RUN_IDS})`)) {
      const id = Number(row.id);
      const target: RunRecord['target'] = {
        path: storedText('target path', row.target_path),
        kind: checked('target kind', row.target_kind, targetInfoSchema.shape.kind),
      };
      if (row.device != null) target.device = storedJson('device', row.device, deviceFingerprintSchema);
      if (row.stack != null) target.stack = storedJson('storage stack', row.stack, targetInfoSchema.shape.stack.unwrap());
      const engine: RunRecord['engine'] = {
        name: storedText('engine name', row.engine_name),
        version: storedText('engine version', row.engine_version),
      };
      if (row.io_engine != null) engine.ioEngine = storedText('I/O engine', row.io_engine);
      const run: RunRecord = {
        id,
        label: storedText('label', row.label),
        notes: storedText('notes', row.notes),
        createdAt: storedText('date', row.created_at),
        source: checked('source', row.source, runRecordSchema.shape.source),
        sourceFormat: checked('source format', row.source_format, runRecordSchema.shape.sourceFormat),
        sourceMeta: storedJson('source details', row.source_meta, runRecordSchema.shape.sourceMeta),
        target,
        settings: storedJson('settings', row.settings, runSettingsSchema),
        engine,
        results: results.get(id) ?? [],
        extras: extras.get(id) ?? [],
        warnings: warnings.get(`${id}:`) ?? [],
      };
      if (row.system != null) run.system = storedJson('system facts', row.system, systemFactsSchema);
      if (row.temperature != null) run.temperature = storedJson('drive temperature', row.temperature, driveTemperatureSchema);
      if (row.fill != null) run.fill = storedJson('fill level', row.fill, fillLevelSchema);
      if (row.drive != null) run.drive = storedJson("drive's counters", row.drive, driveCountersSchema);
      runs.set(id, run);
    }
    return runs;
  }

  listRuns(filter: RunFilter = {}): RunSummary[] {
    return readableRuns(this.listRunItems(filter));
  }

  listRunItems(filter: RunFilter = {}): RunListItem[] {
    const { where, params } = filterSql(filter);
    // The column list matches the covering index runs_list (migration 17), and rows come back
    // as arrays: both matter with thousands of runs (see scripts/bench-library.ts). Ids are
    // given in the order runs enter the library, so the highest are the most recently saved,
    // whatever date their source carries (a 2013 reference imported today is among them).
    let sql = `SELECT ${LIST_COLUMNS} FROM runs` + (where.length ? ` WHERE ${where.join(' AND ')}` : '');
    if (filter.limit !== undefined) {
      sql = `SELECT * FROM (${sql} ORDER BY id DESC LIMIT ?)`;
      params.push(filter.limit);
    }
    sql += ' ORDER BY id';
    const statement = this.#stmt(sql);
    statement.setReturnArrays(true);
    return (statement.all(...params) as unknown as SQLInputValue[][]).map(runListItem);
  }

  countRuns(filter: Omit<RunFilter, 'limit'> = {}): number {
    const { where, params } = filterSql(filter);
    return Number(
      (this.#stmt(`SELECT count(*) AS n FROM runs${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`).get(...params) as Row).n,
    );
  }

  relabel(id: number, label: string): boolean {
    return this.transaction(() => this.#stmt('UPDATE runs SET label = ? WHERE id = ?').run(label, id).changes > 0);
  }

  setNotes(id: number, notes: string): boolean {
    return this.transaction(() => this.#stmt('UPDATE runs SET notes = ? WHERE id = ?').run(notes, id).changes > 0);
  }

  deleteRun(id: number): boolean {
    // ON DELETE CASCADE removes results, measurements, samples, buckets, warnings and extras.
    return this.transaction(() => this.#stmt('DELETE FROM runs WHERE id = ?').run(id).changes > 0);
  }

  saveTrimAudit(audit: TrimAuditResult): number {
    return this.transaction(() =>
      Number(
        this.#stmt('INSERT INTO trim_audits (at, mount_point, result) VALUES (?, ?, ?)').run(
          audit.at,
          audit.mountPoint,
          JSON.stringify(audit),
        ).lastInsertRowid,
      ),
    );
  }

  latestTrimAudits(): TrimAuditResult[] {
    // Newest first per mount point; an audit that no longer fits (stored-row.ts) is passed over
    // for the mount's next newest, never laid over the Overview as if valid.
    const rows = this.#stmt(
      'SELECT mount_point, result FROM trim_audits WHERE mount_point IS NOT NULL ORDER BY mount_point, at DESC, id DESC',
    ).all() as Row[];
    const latest = new Map<string, TrimAuditResult>();
    for (const row of rows) {
      const mount = storedText('mount point', row.mount_point);
      if (latest.has(mount)) continue;
      const audit = readRow(() => storedJson('result', row.result, trimAuditSchema));
      if (audit.ok) latest.set(mount, audit.value);
    }
    return [...latest.values()];
  }

  saveWriteSamples(samples: readonly WriteSample[]): void {
    this.transaction(() => {
      const insert = this.#stmt('INSERT INTO write_samples (at, boot_id, uptime_s, disk, bytes_written) VALUES (?, ?, ?, ?, ?)');
      for (const s of samples) insert.run(s.at, s.bootId, s.uptimeSeconds, s.disk, s.bytesWritten);
    });
  }

  writeSamples(): WriteSample[] {
    const rows = this.#stmt('SELECT at, boot_id, uptime_s, disk, bytes_written FROM write_samples ORDER BY disk, at, id').all() as Row[];
    // A sample that no longer fits is left out: a NaN counter would make every pace after it NaN.
    return rows.flatMap((r) => {
      const sample = readRow((): WriteSample => ({
        at: storedText('time', r.at),
        bootId: storedText('boot id', r.boot_id),
        uptimeSeconds: storedNumber('uptime', r.uptime_s),
        disk: storedText('disk', r.disk),
        bytesWritten: storedNumber('bytes written', r.bytes_written),
      }));
      return sample.ok ? [sample.value] : [];
    });
  }

  saveCipherCeilings(ceilings: CipherCeilings): number {
    return this.transaction(() =>
      Number(
        this.#stmt('INSERT INTO cipher_ceilings (at, cpu_model, kernel, backend, result) VALUES (?, ?, ?, ?, ?)').run(
          ceilings.measuredAt,
          ceilings.cpu.model,
          ceilings.kernel ?? null,
          ceilings.backend,
          JSON.stringify(ceilings),
        ).lastInsertRowid,
      ),
    );
  }

  latestCipherCeilings(cpu?: { model: string | null; cpus: number }): CipherCeilings | null {
    // Another CPU's ceilings (a library copied from another machine) never stand in for this one's:
    // the model is matched in SQL (its own column), the CPU count in the few rows of that model.
    const rows = (
      cpu
        ? this.#stmt('SELECT result FROM cipher_ceilings WHERE cpu_model IS ? ORDER BY at DESC, id DESC').all(cpu.model)
        : this.#stmt('SELECT result FROM cipher_ceilings ORDER BY at DESC, id DESC').all()
    ) as Row[];
    for (const row of rows) {
      // A row that no longer fits (stored-row.ts) is passed over for the next newest.
      const ceilings = readRow(() => storedJson('result', row.result, cipherCeilingsSchema));
      if (ceilings.ok && (!cpu || ceilings.value.cpus === cpu.cpus)) return ceilings.value;
    }
    return null;
  }

  createAssessment(label: string, steps: Partial<Record<AssessmentField, number | null>> = {}): Assessment {
    const name = label.trim();
    if (!name) throw new LibraryError('invalid', 'an assessment needs a label: say what is being upgraded, e.g. "laptop HDD → SSD"');
    return this.transaction(() => {
      const now = new Date().toISOString();
      const id = Number(
        this.#stmt('INSERT INTO assessments (label, created_at, updated_at) VALUES (?, ?, ?)').run(name, now, now).lastInsertRowid,
      );
      this.updateAssessment(id, steps);
      return this.getAssessment(id)!;
    });
  }

  getAssessment(id: number): Assessment | null {
    const row = this.#stmt('SELECT * FROM assessments WHERE id = ?').get(id) as Row | undefined;
    if (!row) return null;
    const a = assessmentOf(row);
    if (isUnreadableAssessment(a)) throw new LibraryError('unreadable', unreadableAssessmentText(a));
    return a;
  }

  listAssessments(): AssessmentListItem[] {
    return (this.#stmt('SELECT * FROM assessments ORDER BY updated_at DESC, id DESC').all() as Row[]).map(assessmentOf);
  }

  deleteAssessment(id: number): boolean {
    return this.transaction(() => this.#stmt('DELETE FROM assessments WHERE id = ?').run(id).changes > 0);
  }

  setAssessmentCandidates(id: number, candidates: StoredCandidate[]): boolean {
    const parsed = assessmentSchema.shape.candidates.safeParse(candidates);
    if (!parsed.success)
      throw new LibraryError(
        'invalid',
        `candidates refused: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    return this.transaction(() => {
      // Whether the run is there, not the run itself: the caller has read it to check it is a disk (forecast-service.ts).
      for (const c of candidates)
        if (c.kind === 'run' && this.#stmt('SELECT 1 FROM runs WHERE id = ?').get(c.id) === undefined)
          throw new LibraryError('invalid', `no run ${c.id} in the library`);
      return (
        this.#stmt("UPDATE assessments SET candidates = ?, candidates_emptied = '[]', updated_at = ? WHERE id = ?").run(
          JSON.stringify(candidates),
          new Date().toISOString(),
          id,
        ).changes > 0
      );
    });
  }

  updateAssessment(id: number, steps: Partial<Record<AssessmentField, number | null>>): boolean {
    return this.transaction(() => {
      const current = this.getAssessment(id);
      if (!current) return false;
      for (const [field, runId] of Object.entries(steps) as Array<[AssessmentField, number | null | undefined]>) {
        if (runId === undefined) continue;
        if (!Object.hasOwn(ASSESSMENT_COLUMNS, field))
          throw new LibraryError(
            'invalid',
            `an assessment has no step '${field}' (its steps: ${Object.keys(ASSESSMENT_COLUMNS).join(', ')})`,
          );
        if (runId !== null && !this.#stmt('SELECT 1 FROM runs WHERE id = ?').get(runId))
          throw new LibraryError('invalid', `no run ${runId} in the library for the ${field} step ('diskdelta list' shows the ids)`);
      }
      // Every step takes only runs of its kind (#39): the one check, for the CLI and the API alike.
      const refusal = stepsRefusal(
        current,
        steps,
        (ids) => this.readRuns(ids),
        () => this.listRuns(),
      );
      if (refusal) throw new LibraryError('wrong-role', refusal);
      for (const [field, runId] of Object.entries(steps) as Array<[AssessmentField, number | null | undefined]>) {
        if (runId === undefined) continue;
        // A step set again no longer says that its earlier run was deleted.
        this.#stmt(
          `UPDATE assessments SET ${ASSESSMENT_COLUMNS[field]} = ?, emptied = json_remove(emptied, '$.${field}'), updated_at = ? WHERE id = ?`,
        ).run(runId, new Date().toISOString(), id);
      }
      return true;
    });
  }

  integrityCheck(): string[] {
    return (this.#db.prepare('PRAGMA integrity_check').all() as Row[]).map((r) => str(r.integrity_check));
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}

/** Rows by their owner (a run, a result, a measurement), each made into its value, in the order read. */
function groupRows<K, V>(rows: Row[], ownerOf: (row: Row) => K, valueOf: (row: Row) => V): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const owner = ownerOf(row);
    const group = groups.get(owner);
    if (group) group.push(valueOf(row));
    else groups.set(owner, [valueOf(row)]);
  }
  return groups;
}

function readLatency(row: Row): LatencyNs {
  return {
    mean: storedNumberOrNull('latency mean', row.lat_mean),
    p50: storedNumberOrNull('latency p50', row.lat_p50),
    p90: storedNumberOrNull('latency p90', row.lat_p90),
    p99: storedNumberOrNull('latency p99', row.lat_p99),
    p999: storedNumberOrNull('latency p99.9', row.lat_p999),
    max: storedNumberOrNull('latency max', row.lat_max),
  };
}

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
/** runEncrypted as the encrypted column keeps it: 1, 0, or NULL (nobody can say). */
function encryptedColumn(encrypted: boolean | null): number | null {
  return encrypted === null ? null : encrypted ? 1 : 0;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function str(value: SQLInputValue | undefined): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the columns read through it are TEXT or INTEGER, never BLOB
  return value == null ? '' : String(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The candidates column, each candidate checked on its own: one that no longer fits (a spec sheet
 * a newer, stricter check refuses) is left out and said in `candidatesUnreadable`, and the
 * assessment stays readable. A column that is not a JSON array at all is the row's problem.
 */
function storedCandidates(value: SQLInputValue | undefined): {
  candidates: StoredCandidate[];
  candidatesUnreadable: Assessment['candidatesUnreadable'] | undefined;
} {
  const all = storedJson('candidates', value, z.array(z.unknown()).max(MAX_CANDIDATES));
  const candidates: NonNullable<Assessment['candidates']> = [];
  const unreadable: NonNullable<Assessment['candidatesUnreadable']> = [];
  all.forEach((stored, i) => {
    const result = checkSchema(storedCandidateSchema, stored);
    if (result.success) candidates.push(result.data);
    else {
      const spec = (stored as { spec?: { name?: unknown } } | null)?.spec;
      const name = typeof spec?.name === 'string' ? spec.name.slice(0, 200) : null;
      unreadable.push({ position: i + 1, name, problem: issuesText(result.issues) });
    }
  });
  return { candidates, candidatesUnreadable: unreadable.length > 0 ? unreadable : undefined };
}

/** An assessment row as the model has it, or, when it no longer fits, what is wrong with it. */
function assessmentOf(row: Row): AssessmentListItem {
  const read = readRow(() =>
    // The columns as stored, no coercion (Number('abc') would pass as NaN): the schema says what does not fit.
    checked(
      'columns',
      {
        id: row.id,
        label: row.label,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        before: row.before_run,
        after: row.after_run,
        encrypted: row.encrypted_run,
        discardOff: row.discard_off_run,
        discardOn: row.discard_on_run,
        workingSet: row.working_set_run,
        emptied: storedJson('emptied', row.emptied, assessmentSchema.shape.emptied),
        notes: row.notes,
        ...storedCandidates(row.candidates),
        candidatesEmptied: storedJson('candidates_emptied', row.candidates_emptied, assessmentSchema.shape.candidatesEmptied),
      } satisfies Record<keyof Assessment, unknown>,
      assessmentSchema,
    ),
  );
  return read.ok ? read.value : { id: Number(row.id), label: rowLabel(row.label), unreadable: read.problem };
}
