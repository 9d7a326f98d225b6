// The library's schema, as an ordered list of migrations. PRAGMA user_version holds the
// number of migrations applied; a library written by an older DiskDelta is brought forward
// on open, inside one IMMEDIATE transaction so that two processes opening the same old file
// cannot both migrate it. Never edit a migration that has shipped: add a new one.
import type { DatabaseSync } from 'node:sqlite';

export interface Migration {
  version: number;
  why: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    why: 'runs with their context, results per test, per-run measurements, samples, histograms, warnings, extras',
    sql: `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        label TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('measured', 'imported', 'reference')),
        source_format TEXT NOT NULL,
        source_meta TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(source_meta)),
        target_path TEXT NOT NULL,
        target_kind TEXT NOT NULL,
        device TEXT CHECK (device IS NULL OR json_valid(device)),
        stack TEXT CHECK (stack IS NULL OR json_valid(stack)),
        system TEXT CHECK (system IS NULL OR json_valid(system)),
        settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
        preset TEXT,
        engine_name TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        io_engine TEXT
      );

      CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        test TEXT NOT NULL,
        params TEXT CHECK (params IS NULL OR json_valid(params)),
        bytes_per_sec REAL,
        iops REAL,
        has_latency INTEGER NOT NULL DEFAULT 0,
        lat_mean REAL, lat_p50 REAL, lat_p90 REAL, lat_p99 REAL, lat_p999 REAL, lat_max REAL,
        has_best INTEGER NOT NULL DEFAULT 0,
        best_bytes_per_sec REAL,
        best_iops REAL,
        cv REAL,
        cpu_user_ns REAL,
        cpu_system_ns REAL,
        under_resolved INTEGER NOT NULL DEFAULT 0,
        UNIQUE (run_id, seq)
      );
      CREATE INDEX results_by_test ON results (test);

      -- One timed window of one test (RunMeasurement).
      CREATE TABLE measurements (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        run INTEGER NOT NULL,
        bytes_per_sec REAL NOT NULL,
        iops REAL NOT NULL,
        lat_mean REAL, lat_p50 REAL, lat_p90 REAL, lat_p99 REAL, lat_p999 REAL, lat_max REAL,
        elapsed_ns REAL NOT NULL,
        ios REAL NOT NULL,
        bytes REAL NOT NULL,
        cpu_user_ns REAL NOT NULL,
        cpu_system_ns REAL NOT NULL,
        UNIQUE (result_id, seq)
      );

      -- Time series: the bulk of a library, so keyed compactly and never read by list queries.
      CREATE TABLE samples (
        measurement_id INTEGER NOT NULL REFERENCES measurements (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        t_ms REAL NOT NULL,
        bytes_per_sec REAL NOT NULL,
        iops REAL NOT NULL,
        PRIMARY KEY (measurement_id, seq)
      ) WITHOUT ROWID;

      CREATE TABLE histogram_buckets (
        result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        lower_ns REAL NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (result_id, seq)
      ) WITHOUT ROWID;

      -- Run-level warnings have result_id NULL; a test's warnings point at its result.
      CREATE TABLE warnings (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        result_id INTEGER REFERENCES results (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        code TEXT NOT NULL,
        message TEXT NOT NULL
      );
      CREATE INDEX warnings_by_run ON warnings (run_id, result_id, seq);
      CREATE INDEX warnings_by_result ON warnings (result_id);

      CREATE TABLE extras (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        value REAL,
        unit TEXT NOT NULL,
        note TEXT,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    why: 'summary columns on runs so that listing a large library reads one table and no JSON',
    sql: `
      ALTER TABLE runs ADD COLUMN device_model TEXT;
      ALTER TABLE runs ADD COLUMN device_class TEXT;
      ALTER TABLE runs ADD COLUMN result_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN warning_count INTEGER NOT NULL DEFAULT 0;
      UPDATE runs SET
        device_model = json_extract(device, '$.model'),
        device_class = json_extract(device, '$.class'),
        result_count = (SELECT count(*) FROM results WHERE results.run_id = runs.id),
        warning_count = (SELECT count(*) FROM warnings WHERE warnings.run_id = runs.id);
      CREATE INDEX runs_by_source ON runs (source, id);
    `,
  },
  {
    version: 3,
    why: 'a covering index for list: with 10,000 runs, scanning it reads ~1/10 of the runs table (no JSON context)',
    sql: `
      CREATE INDEX runs_list ON runs (id, label, created_at, source, source_format, target_path, device_model,
        device_class, preset, engine_name, engine_version, result_count, warning_count);
    `,
  },
  {
    version: 4,
    why: "import fingerprints (sha256 of the source file + the run's index in it) so that importing a file again adds nothing",
    // Runs already in an older library keep NULL: their source bytes were never stored, so a
    // fingerprint cannot be rebuilt; only imports made from now on are recognised.
    sql: `
      ALTER TABLE runs ADD COLUMN import_fingerprint TEXT;
      CREATE UNIQUE INDEX runs_by_import_fingerprint ON runs (import_fingerprint) WHERE import_fingerprint IS NOT NULL;
    `,
  },
  {
    version: 5,
    why: 'figures of kinds that are not rates (seconds per phase, cipher ceilings, forecasts), each with its provenance',
    sql: `
      CREATE TABLE figures (
        result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        metric TEXT NOT NULL,
        subject TEXT NOT NULL,
        value REAL,
        unit TEXT NOT NULL,
        provenance TEXT NOT NULL CHECK (provenance IN ('measured', 'imported', 'reference', 'estimated')),
        basis TEXT,
        PRIMARY KEY (result_id, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 6,
    why: 'adaptive stopping: each result keeps the interval its median reached, its seconds and why its runs stopped',
    // NULL for results measured before, and for imports (their runs were not ours to stop).
    sql: `
      ALTER TABLE results ADD COLUMN precision TEXT CHECK (precision IS NULL OR json_valid(precision));
    `,
  },
  {
    version: 7,
    why: 'TRIM audits kept: the Overview says which layer a discard was last seen reaching, and when',
    // The whole audit as JSON (layers, counters, fstrim): it is read back whole, never queried inside.
    sql: `
      CREATE TABLE trim_audits (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        mount_point TEXT,
        result TEXT NOT NULL CHECK (json_valid(result))
      );
      CREATE INDEX trim_audits_by_mount ON trim_audits (mount_point, at);
    `,
  },
  {
    version: 8,
    why: 'cipher ceilings kept as a measurement of this machine (date, CPU, kernel, backend): forecasts and reports use the stored one',
    // The whole measurement as JSON (figures with their windows): read back whole, never queried inside.
    sql: `
      CREATE TABLE cipher_ceilings (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        cpu_model TEXT,
        kernel TEXT,
        backend TEXT NOT NULL,
        result TEXT NOT NULL CHECK (json_valid(result))
      );
    `,
  },
  {
    version: 9,
    why: 'upgrade assessments kept: before, after, encryption and TRIM steps across days and a hardware swap',
    // Run ids only: a deleted run empties its step (SET NULL) rather than deleting the story.
    sql: `
      CREATE TABLE assessments (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        before_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        after_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        encrypted_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        discard_off_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        discard_on_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        notes TEXT NOT NULL DEFAULT ''
      );
    `,
  },
  {
    version: 10,
    why: 'how each result combines its runs (median, best, mean, single), so a best-of-5 import is never compared as a median',
    // What the results already stored were: DiskDelta measured medians; CrystalDiskMark keeps
    // its best run, KDiskMark reports fio's mean over its loops, fio its mean over one window,
    // bonnie++ one run. Reference figures stay NULL: their sources do not say.
    sql: `
      ALTER TABLE results ADD COLUMN statistic TEXT CHECK (statistic IS NULL OR statistic IN ('median', 'best', 'mean', 'single'));
      UPDATE results SET statistic = (
        SELECT CASE
          WHEN runs.source = 'measured' THEN 'median'
          WHEN runs.source = 'reference' THEN NULL
          WHEN runs.source_format = 'crystaldiskmark' THEN 'best'
          WHEN runs.source_format IN ('kdiskmark', 'fio') THEN 'mean'
          WHEN runs.source_format = 'bonnie++' THEN 'single'
        END
        FROM runs WHERE runs.id = results.run_id
      );
    `,
  },
  {
    version: 11,
    why: "the drive's temperature before, during and after a measured run (NVMe hwmon, drivetemp), or why it could not be read",
    sql: `
      ALTER TABLE runs ADD COLUMN temperature TEXT CHECK (temperature IS NULL OR json_valid(temperature));
    `,
  },
  {
    version: 12,
    why: "write volume sampled whenever DiskDelta runs: each disk's bytes written since boot, so a month's pace can be told beside the last",
    // boot_id: the counters restart at each boot, so only samples of one boot are subtracted.
    sql: `
      CREATE TABLE write_samples (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        boot_id TEXT NOT NULL,
        uptime_s REAL NOT NULL,
        disk TEXT NOT NULL,
        bytes_written REAL NOT NULL
      );
      CREATE INDEX write_samples_by_disk ON write_samples (disk, at);
    `,
  },
  {
    version: 13,
    why: 'run fingerprints (what was measured, not which file carried it) so that a run already kept is not imported again from its own export or another file',
    // Filled on save; runs saved before are fingerprinted by the first import that needs them.
    sql: `
      ALTER TABLE runs ADD COLUMN run_fingerprint TEXT;
      CREATE INDEX runs_by_run_fingerprint ON runs (run_fingerprint) WHERE run_fingerprint IS NOT NULL;
    `,
  },
  {
    version: 14,
    why: 'an assessment step for the working set, and a record of the steps a deleted run emptied, so the app and the CLI can say which run went',
    // SET NULL alone forgets what the step held: the trigger keeps, per step (the model's field
    // names), the run's id and label and when it went; setting the step again clears it
    // (store/library.ts). A trigger rather than code in deleteRun: every way a run leaves the
    // library (delete, a future prune) records it.
    sql: `
      ALTER TABLE assessments ADD COLUMN working_set_run INTEGER REFERENCES runs(id) ON DELETE SET NULL;
      ALTER TABLE assessments ADD COLUMN emptied TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(emptied));
      CREATE TRIGGER assessment_step_run_deleted BEFORE DELETE ON runs BEGIN
        UPDATE assessments SET emptied = json_set(emptied, '$.before', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE before_run = OLD.id;
        UPDATE assessments SET emptied = json_set(emptied, '$.after', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE after_run = OLD.id;
        UPDATE assessments SET emptied = json_set(emptied, '$.encrypted', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE encrypted_run = OLD.id;
        UPDATE assessments SET emptied = json_set(emptied, '$.discardOff', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE discard_off_run = OLD.id;
        UPDATE assessments SET emptied = json_set(emptied, '$.discardOn', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE discard_on_run = OLD.id;
        UPDATE assessments SET emptied = json_set(emptied, '$.workingSet', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE working_set_run = OLD.id;
      END;
    `,
  },
  {
    version: 15,
    why: "a figure's repeated values (a workload phase's timed passes), so its spread is judged by the rates' trust rules and compare's one rule",
    // JSON, read back whole: a handful of passes, never queried inside. NULL for figures stored
    // before (their spread stays unknown, as compare says) and for single-valued ones.
    sql: `
      ALTER TABLE figures ADD COLUMN passes TEXT CHECK (passes IS NULL OR json_valid(passes));
    `,
  },
  {
    version: 16,
    why: "a fleet run's fingerprint includes its host: two hosts with the same figures were taken for one measurement and the second was not imported",
    // NULL is "not fingerprinted yet": the next import fingerprints them again, the new way.
    sql: `
      UPDATE runs SET run_fingerprint = NULL WHERE json_extract(source_meta, '$."fio.host"') IS NOT NULL;
    `,
  },
  {
    version: 17,
    why: "each run's kind (a disk, a workload, a discard-cost experiment, a scan, …) and whether it was measured under dm-crypt, so the list, the assessment's steps and their pickers tell runs apart without reading their JSON",
    // NULL here: the kind is decided by run-kind.ts (TypeScript, from the whole record), so the
    // rows already stored are classified right after this migration, on the first open that can
    // write (store/library.ts, #classifyOldRuns); a row that cannot be read gets 'unknown'.
    // saved_at (when a run entered the library) has been kept since version 1: the list's limit
    // and its dates read it now. The list's covering index grows by the three columns.
    sql: `
      ALTER TABLE runs ADD COLUMN kind TEXT;
      ALTER TABLE runs ADD COLUMN encrypted INTEGER CHECK (encrypted IS NULL OR encrypted IN (0, 1));
      DROP INDEX runs_list;
      CREATE INDEX runs_list ON runs (id, label, created_at, saved_at, source, source_format, target_path, device_model,
        device_class, preset, engine_name, engine_version, result_count, warning_count, kind, encrypted);
    `,
  },
  {
    version: 18,
    why: 'how full the file system under the target was when a measured run began (statfs): SSDs slow as they fill',
    sql: `
      ALTER TABLE runs ADD COLUMN fill TEXT CHECK (fill IS NULL OR json_valid(fill));
    `,
  },
  {
    version: 19,
    why: "the drive's own counters (NVMe SMART / health log) before and after a measured run, beside the host's bytes written",
    sql: `
      ALTER TABLE runs ADD COLUMN drive TEXT CHECK (drive IS NULL OR json_valid(drive));
    `,
  },
  {
    version: 20,
    why: 'the candidate drives an assessment weighs before buying (spec sheets kept whole, or runs), so once the new disk is measured the forecast is set beside it',
    sql: `
      ALTER TABLE assessments ADD COLUMN candidates TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(candidates));
    `,
  },
  {
    version: 21,
    why: 'a candidate run deleted from the library left the assessment naming a run that is gone, and its forecast failed: it leaves the candidates, and which run went is kept to be said',
    // As version 14's trigger for the steps: every way a run leaves the library takes it out of
    // the candidates it is in (the spec sheets and the other runs stay, in order) and records it
    // in candidates_emptied; keeping the candidates again clears that (store/library.ts). The
    // UPDATE before the trigger does the same for a candidate run deleted since version 20.
    sql: `
      ALTER TABLE assessments ADD COLUMN candidates_emptied TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(candidates_emptied));
      UPDATE assessments SET
        candidates_emptied = (SELECT json_group_array(json_object('run', json_extract(c.value, '$.id'), 'label', '', 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))
          FROM json_each(assessments.candidates) c
          WHERE json_extract(c.value, '$.kind') = 'run' AND json_extract(c.value, '$.id') NOT IN (SELECT id FROM runs)),
        candidates = (SELECT json_group_array(json(c.value)) FROM json_each(assessments.candidates) c
          WHERE NOT (json_extract(c.value, '$.kind') = 'run' AND json_extract(c.value, '$.id') NOT IN (SELECT id FROM runs)))
        WHERE EXISTS (SELECT 1 FROM json_each(assessments.candidates) c
          WHERE json_extract(c.value, '$.kind') = 'run' AND json_extract(c.value, '$.id') NOT IN (SELECT id FROM runs));
      CREATE TRIGGER assessment_candidate_run_deleted BEFORE DELETE ON runs BEGIN
        UPDATE assessments SET
          candidates_emptied = json_insert(candidates_emptied, '$[#]', json_object('run', OLD.id, 'label', OLD.label, 'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))),
          candidates = (SELECT json_group_array(json(c.value)) FROM json_each(assessments.candidates) c
            WHERE NOT (json_extract(c.value, '$.kind') = 'run' AND json_extract(c.value, '$.id') = OLD.id)),
          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          WHERE EXISTS (SELECT 1 FROM json_each(assessments.candidates) c
            WHERE json_extract(c.value, '$.kind') = 'run' AND json_extract(c.value, '$.id') = OLD.id);
      END;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
}

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/**
 * Applies the migrations after the database's user_version, up to `target` (all by default;
 * tests pass a lower target to build an old library). Returns the version reached.
 */
export function migrate(db: DatabaseSync, target = SCHEMA_VERSION, migrations: readonly Migration[] = MIGRATIONS): number {
  const before = userVersion(db);
  if (before > migrations.length) {
    throw new NewerSchemaError(
      `schema version ${before} was written by a newer DiskDelta (this one knows up to ${migrations.length}); ` +
        'upgrade DiskDelta or use another --db',
    );
  }
  if (before >= target) return before;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have migrated while we waited for the write lock.
    let version = userVersion(db);
    for (const migration of migrations) {
      if (migration.version <= version || migration.version > target) continue;
      db.exec(migration.sql);
      version = migration.version;
      db.exec(`PRAGMA user_version = ${version}`);
    }
    db.exec('COMMIT');
    return version;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
