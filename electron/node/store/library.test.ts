import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { exportJson } from '../formats/diskdelta-json.ts';
import { parseImport } from '../formats/index.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import type { TrimAuditResult } from '../system/discard-audit.ts';
import { importFingerprints, importItems, LibraryError, openLibrary, resolveDbPath } from './library.ts';
import { migrate, MIGRATIONS, SCHEMA_VERSION, userVersion } from './migrations.ts';
import type { CipherCeilings } from '../../shared/model/cipher-types.ts';
import { syntheticRun } from './fixtures/synthetic-run.ts';
import { RUN_SOURCES } from '../../shared/model/figure-terms.ts';
import { SOURCE_FORMATS } from '../../shared/model/source-formats.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(dir, `lib-${++counter}`, 'library.sqlite');

describe('library round trip', () => {
  it('gives back every field of a run, with the id it was saved under', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const run = syntheticRun(7, { tests: 3, runsPerTest: 3, samplesPerRun: 5 });
    const id = lib.saveRun(run);
    assert.ok(id > 0);
    assert.deepEqual(lib.getRun(id), { ...run, id });
    lib.close();
  });

  // The runs table's CHECK on source (migration 1) is the one place the list is written again:
  // a source added to RUN_SOURCES fails here until a migration lets the table take it.
  it("keeps a run of every source and every source format of the model's lists, and lists it by them", () => {
    const lib = openLibrary({ dbPath: freshPath() });
    for (const source of RUN_SOURCES) {
      for (const sourceFormat of SOURCE_FORMATS) {
        const run = { ...syntheticRun(1, { tests: 1, runsPerTest: 1, samplesPerRun: 0 }), source, sourceFormat };
        const id = lib.saveRun(run);
        assert.deepEqual([lib.getRun(id)?.source, lib.getRun(id)?.sourceFormat], [source, sourceFormat]);
      }
      assert.equal(lib.listRuns({ source }).length, SOURCE_FORMATS.length, source);
    }
    lib.close();
  });

  it('keeps absent optional fields absent and null fields null', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const bare: RunRecord = {
      label: 'bonnie++ import',
      notes: '',
      createdAt: '2011-06-01T00:00:00.000Z',
      source: 'imported',
      sourceFormat: 'bonnie++',
      sourceMeta: {},
      target: { path: '', kind: 'unknown' },
      settings: {},
      engine: { name: 'bonnie++', version: '1.03' },
      results: [
        {
          test: 'seeks',
          params: null,
          bytesPerSec: null,
          iops: null,
          latencyNs: null,
          best: null,
          cv: null,
          runs: [],
          histogram: [],
          cpu: null,
          underResolved: true,
          warnings: [],
        },
      ],
      extras: [{ name: 'Random Seeks CPU', value: null, unit: '% CPU' }],
      warnings: [],
    };
    const id = lib.saveRun(bare);
    const back = lib.getRun(id);
    assert.deepEqual(back, { ...bare, id });
    assert.equal(Object.hasOwn(back!, 'system'), false);
    assert.equal(Object.hasOwn(back!.target, 'device'), false);
    assert.equal(Object.hasOwn(back!.engine, 'ioEngine'), false);
    lib.close();
  });

  it('lists summaries without touching samples, relabels, deletes with everything under the run', () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    const a = lib.saveRun(syntheticRun(1));
    const b = lib.saveRun({ ...syntheticRun(2), source: 'reference', label: 'The 2011 HDD' });
    assert.deepEqual(
      lib.listRuns().map((s) => [s.id, s.label, s.source]),
      [
        [a, 'SYNTHETIC run 1', 'imported'],
        [b, 'The 2011 HDD', 'reference'],
      ],
    );
    const summary = lib.listRuns({ source: 'reference' })[0]!;
    assert.equal(summary.deviceModel, 'Synthetic SSD 2');
    assert.equal(summary.deviceClass, 'SATA SSD');
    assert.equal(summary.resultCount, 2);
    assert.equal(summary.warningCount, 2); // one run-level, one on the first test
    assert.equal(summary.engine, 'diskdelta-worker 0.1.0');
    assert.deepEqual(
      lib.listRuns({ label: '2011 h' }).map((s) => s.id),
      [b],
    );
    assert.deepEqual(lib.listRuns({ label: '%' }), [], 'LIKE wildcards in the search are literal');
    assert.deepEqual(
      lib.listRuns({ limit: 1 }).map((s) => s.id),
      [b],
      'the newest run',
    );

    assert.equal(lib.relabel(a, 'renamed'), true);
    assert.equal(lib.getRun(a)!.label, 'renamed');
    assert.equal(lib.setNotes(a, 'after the firmware update'), true);
    assert.equal(lib.getRun(a)!.notes, 'after the firmware update');
    assert.equal(lib.relabel(9999, 'x'), false);

    assert.equal(lib.deleteRun(a), true);
    assert.equal(lib.deleteRun(a), false);
    assert.equal(lib.getRun(a), null);
    assert.equal(lib.countRuns(), 1);
    lib.close();
    // The cascade really removed the children: only run b's rows are left.
    const db = new DatabaseSync(path, { readOnly: true });
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.equal(count('results'), 2);
    assert.equal(count('measurements'), 6);
    assert.equal(count('samples'), 24);
    assert.equal(count('histogram_buckets'), 6);
    assert.equal(count('warnings'), 2);
    assert.equal(count('extras'), 2);
    db.close();
  });

  it('reads many runs in one go as it reads each: every field, in the order asked, null where there is none', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    // Each run's children (results, their windows and samples, histograms, figures, warnings at
    // both levels, extras) must land under their own run, not a neighbour's.
    const runs = [1, 2, 3].map((n) => syntheticRun(n, { tests: n + 1, runsPerTest: n, samplesPerRun: n + 2 }));
    runs[1]!.results[1]!.figures = [
      { metric: 'block write', subject: 'Sequential Output', value: 41.5, unit: 'bytes/s', provenance: 'imported', passes: [40, 43] },
      { metric: 'seeks', subject: 'Random Seeks', value: null, unit: 'IOPS', provenance: 'estimated', basis: 'not measured' },
    ];
    runs[2]!.results[2]!.warnings.push({ code: 'noisy', message: 'the third run’s own warning' });
    const ids = lib.saveRuns(runs);
    const missing = Math.max(...ids) + 1;
    const asked = [ids[2]!, missing, ids[0]!, ids[1]!, ids[0]!];
    const got = lib.getRuns(asked);
    assert.deepEqual(got, [
      { ...runs[2], id: ids[2] },
      null,
      { ...runs[0], id: ids[0] },
      { ...runs[1], id: ids[1] },
      { ...runs[0], id: ids[0] },
    ]);
    assert.deepEqual(
      got,
      asked.map((id) => lib.getRun(id)),
    );
    assert.deepEqual(lib.getRuns([]), []);
    lib.close();
  });

  it('saves a batch all or nothing', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const bad = { ...syntheticRun(2), source: 'invented' } as unknown as RunRecord;
    assert.throws(
      () => lib.saveRuns([syntheticRun(1), bad]),
      (error: unknown) => error instanceof LibraryError && /CHECK constraint/.test(error.message),
    );
    assert.equal(lib.countRuns(), 0);
    assert.deepEqual(lib.saveRuns([syntheticRun(1), syntheticRun(2)]).length, 2);
    assert.equal(lib.countRuns(), 2);
    lib.close();
  });
});

describe('list filters', () => {
  it('filters by device model or class, date and count, combined', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    // syntheticRun(n): model "Synthetic SSD n%7", class SATA SSD, created 2026-01-01 plus n minutes.
    const ids = [1, 2, 3].map((n) => lib.saveRun(syntheticRun(n)));
    const hdd = syntheticRun(4);
    hdd.target.device = { ...hdd.target.device!, model: 'WDC 50%_disk', class: 'HDD' };
    hdd.createdAt = '2011-06-01T10:00:00.000Z';
    const old = lib.saveRun(hdd);
    const idsOf = (filter: Parameters<typeof lib.listRuns>[0]) => lib.listRuns(filter).map((s) => s.id);
    assert.deepEqual(idsOf({ device: 'ssd 2' }), [ids[1]], 'model, any case');
    assert.deepEqual(idsOf({ device: 'hdd' }), [old], 'class');
    assert.deepEqual(idsOf({ device: '50%_' }), [old], 'wildcards literal');
    assert.deepEqual(idsOf({ device: '5%' }), []);
    assert.deepEqual(idsOf({ since: '2026-01-01' }), ids);
    assert.deepEqual(idsOf({ since: '2026-01-02' }), []);
    assert.deepEqual(idsOf({ since: '2011-06-01', device: 'sata', limit: 2 }), [ids[1], ids[2]]);
    lib.close();
  });

  it('filters by a test the run holds (the working-set page finds its scans whatever their label)', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const rates = lib.saveRun(syntheticRun(1));
    const scan = syntheticRun(2);
    scan.label = 'renamed by the user';
    scan.results = [
      {
        ...scan.results[0]!,
        test: 'working-set',
        params: null,
        figures: [{ metric: 'storedBytes', subject: '', value: 1, unit: 'bytes', provenance: 'measured' }],
      },
    ];
    const scanned = lib.saveRun(scan);
    assert.deepEqual(
      lib.listRuns({ test: 'working-set' }).map((s) => s.id),
      [scanned],
    );
    assert.deepEqual(
      lib.listRuns({ test: 'seq1m-q8t1-read' }).map((s) => s.id),
      [rates],
    );
    lib.close();
  });
});

describe('import fingerprints', () => {
  it('skips runs whose file and place in it were imported before, in one all-or-nothing batch', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const bytes = new TextEncoder().encode('a bonnie++ file, two rows');
    const fingerprints = importFingerprints(bytes, 2);
    assert.notEqual(fingerprints[0], fingerprints[1], 'the index in the file is part of it');
    assert.deepEqual(importFingerprints(bytes, 2), fingerprints, 'same bytes, same fingerprints');
    const items = () => [syntheticRun(1), syntheticRun(2)].map((run, i) => ({ run, fingerprint: fingerprints[i]! }));

    const first = lib.importRuns(items());
    assert.deepEqual(
      first.map((o) => o.alreadyPresent),
      [false, false],
    );
    const again = lib.importRuns(items());
    assert.deepEqual(
      again,
      first.map((o) => ({ id: o.id, alreadyPresent: true, why: 'same-file' })),
    );
    assert.equal(lib.countRuns(), 2);

    // A failing batch saves nothing, not even its new runs.
    const other = importFingerprints(new TextEncoder().encode('another file'), 1)[0]!;
    const bad = { ...syntheticRun(4), source: 'invented' } as unknown as RunRecord;
    assert.throws(
      () =>
        lib.importRuns([
          { run: syntheticRun(3), fingerprint: other },
          { run: bad, fingerprint: `${other}x` },
        ]),
      LibraryError,
    );
    assert.equal(lib.countRuns(), 2);
    lib.close();
  });

  it('skips a run already in the library whatever file it comes in: its own export, relabelled, a bigger file, twice in one', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const file = (text: string) => new TextEncoder().encode(text);
    const [a, b] = [syntheticRun(1), syntheticRun(2)];
    const [first] = lib.importRuns(importItems([a], file('a.json')));
    assert.deepEqual(first, { id: 1, alreadyPresent: false });
    lib.relabel(1, 'relabelled since');
    // Its export read back (new bytes, a new label, another createdAt stamp) and a run beside it.
    const exported = { ...lib.getRun(1)!, id: undefined, label: 'as exported', createdAt: '2026-12-01T18:00:00.000Z' };
    const outcomes = lib.importRuns(importItems([exported, b, structuredClone(b)], file('export of 1 and 2, 2 twice')));
    assert.deepEqual(outcomes, [
      { id: 1, alreadyPresent: true, why: 'same-run' },
      { id: 2, alreadyPresent: false },
      { id: 2, alreadyPresent: true, why: 'same-run' },
    ]);
    assert.deepEqual(
      lib.importRuns(importItems([a], file('a.json'))),
      [{ id: 1, alreadyPresent: true, why: 'same-file' }],
      'the same file: said as such',
    );
    // A measured run arriving in a file (an unsaved run's JSON) is the same measurement too.
    const measured = { ...syntheticRun(3), source: 'measured' as const };
    lib.saveRun(measured);
    assert.deepEqual(lib.importRuns(importItems([structuredClone(measured)], file('unsaved run'))), [
      { id: 3, alreadyPresent: true, why: 'same-run' },
    ]);
    // Another measurement (one figure differs) is another run.
    const other = structuredClone(a);
    other.results[0]!.bytesPerSec! += 1;
    assert.equal(lib.importRuns(importItems([other], file('other')))[0]!.alreadyPresent, false);
    assert.equal(lib.countRuns(), 4);
    lib.close();
  });

  it('two fleet hosts that measured alike are two runs; the same host again is not (schema 16 fingerprints fleet runs anew)', () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    const file = (text: string) => new TextEncoder().encode(text);
    const host = (key: string) => ({ ...syntheticRun(7), sourceMeta: { 'fio.host': key } });
    const outcomes = lib.importRuns(importItems([host('10.0.0.1:8765'), host('10.0.0.2:8765')], file('fleet.json')));
    assert.deepEqual(outcomes, [
      { id: 1, alreadyPresent: false },
      { id: 2, alreadyPresent: false },
    ]);
    assert.deepEqual(lib.importRuns(importItems([host('10.0.0.2:8765')], file('that host again'))), [
      { id: 2, alreadyPresent: true, why: 'same-run' },
    ]);
    lib.close();
    // A library of schema 15 kept fleet fingerprints without the host: 16 clears them, and the
    // next import fingerprints them the new way. (Migration 16's own SQL, run on this file: going
    // back to user_version 15 would run 17's column additions a second time.)
    const raw = new DatabaseSync(path);
    raw.exec("UPDATE runs SET run_fingerprint = 'sha256:without-host'");
    raw.exec(MIGRATIONS.find((m) => m.version === 16)!.sql);
    raw.close();
    const upgraded = openLibrary({ dbPath: path });
    assert.deepEqual(upgraded.importRuns(importItems([host('10.0.0.1:8765')], file('first host again'))), [
      { id: 1, alreadyPresent: true, why: 'same-run' },
    ]);
    upgraded.close();
  });

  it('every import format: a file, then its runs exported and imported again, or in a file grown by a row, add nothing', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'formats', 'fixtures');
    const files = readdirSync(fixtures).filter((f) => /\.(csv|json|txt)$/.test(f));
    const formats = new Set<string>();
    for (const name of files) {
      const bytes = readFileSync(join(fixtures, name));
      // bonnie++'s CSV has no date: each parse stamps another "now" into the run.
      const runs = parseImport(bytes.toString('utf8'), name, { now: new Date('2026-12-01T10:00:00Z') });
      const saved = lib.importRuns(importItems(runs, bytes));
      assert.ok(
        saved.every((o) => !o.alreadyPresent),
        `${name}: new`,
      );
      formats.add(runs[0]!.sourceFormat);
      const text = exportJson(saved.map((o) => lib.getRun(o.id)!));
      const again = lib.importRuns(importItems(parseImport(text, 'export.json'), new TextEncoder().encode(text)));
      assert.deepEqual(
        again,
        saved.map((o) => ({ id: o.id, alreadyPresent: true, why: 'same-run' })),
        `${name}: its export is already in the library`,
      );
    }
    assert.deepEqual([...formats].sort(), ['bonnie++', 'crystaldiskmark', 'fio', 'kdiskmark']);
    lib.close();
    // A bonnie++ CSV that a later run appended a row to (bonnie++ -x, or `>>`): the first row is the run already kept.
    const grown = openLibrary({ dbPath: freshPath() });
    const [header, row1, row2] = readFileSync(join(fixtures, 'bonnie-2.00a-1g-x2.csv'), 'utf8').trim().split('\n');
    const importText = (text: string, now: string) =>
      grown.importRuns(importItems(parseImport(text, 'a.csv', { now: new Date(now) }), new TextEncoder().encode(text)));
    const first = importText(`${header}\n${row1}\n`, '2026-12-02T10:00:00Z');
    assert.deepEqual(importText(`${header}\n${row1}\n${row2}\n`, '2026-12-03T10:00:00Z'), [
      { id: first[0]!.id, alreadyPresent: true, why: 'same-run' },
      { id: first[0]!.id + 1, alreadyPresent: false },
    ]);
    assert.equal(grown.countRuns(), 2);
    grown.close();
  });

  it('knows the runs saved before run fingerprints existed (schema 12)', () => {
    const path = freshPath();
    const old = openLibrary({ dbPath: path });
    const id = old.saveRun(syntheticRun(5));
    old.close();
    // Written as schema 12 would have: no run fingerprint.
    const raw = new DatabaseSync(path);
    raw.exec('UPDATE runs SET run_fingerprint = NULL');
    raw.close();
    const lib = openLibrary({ dbPath: path });
    assert.deepEqual(lib.importRuns(importItems([syntheticRun(5)], new Uint8Array([9]))), [{ id, alreadyPresent: true, why: 'same-run' }]);
    lib.close();
  });
});

describe('errors', () => {
  it('a write that waits too long for another process fails as busy and saves nothing', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close();
    const other = new DatabaseSync(path);
    other.exec('BEGIN IMMEDIATE'); // another process holding the write lock
    const lib = openLibrary({ dbPath: path, busyTimeoutMs: 50 });
    assert.throws(
      () => lib.saveRun(syntheticRun(1)),
      (error: unknown) => error instanceof LibraryError && error.code === 'busy' && error.message.includes(path),
    );
    other.exec('ROLLBACK');
    other.close();
    assert.equal(lib.countRuns(), 0);
    assert.ok(lib.saveRun(syntheticRun(1)) > 0, 'works again once the lock is released');
    lib.close();
  });
});

describe('migrations', () => {
  it('brings a version-1 library forward, keeping and summarising its runs', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close(); // creates the folder
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 1), 1);
    old.exec(`INSERT INTO runs (label, created_at, saved_at, source, source_format, target_path, target_kind, device, engine_name, engine_version)
              VALUES ('kept from v1', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z', 'measured', 'diskdelta', '/mnt', 'folder',
                      '{"model":"Old HDD","class":"HDD"}', 'diskdelta-worker', '0.0.1')`);
    old.exec(`INSERT INTO results (run_id, seq, test) VALUES (1, 0, 'seeks'), (1, 1, 'seq1m-q8t1-read')`);
    old.exec(`INSERT INTO warnings (run_id, seq, code, message) VALUES (1, 0, 'noisy', 'x')`);
    old.close();

    const lib = openLibrary({ dbPath: path });
    const [summary] = lib.listRuns();
    assert.equal(summary?.label, 'kept from v1');
    assert.equal(summary?.deviceModel, 'Old HDD');
    assert.equal(summary?.deviceClass, 'HDD');
    assert.equal(summary?.resultCount, 2);
    assert.equal(summary?.warningCount, 1);
    lib.close();
    const db = new DatabaseSync(path, { readOnly: true });
    assert.equal(userVersion(db), SCHEMA_VERSION);
    db.close();
  });

  it('brings a version-3 library forward to import fingerprints, keeping its runs', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close(); // creates the folder
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 3), 3);
    old.exec(`INSERT INTO runs (label, created_at, saved_at, source, source_format, target_path, target_kind, engine_name, engine_version,
                device_model, device_class, result_count)
              VALUES ('imported under v3', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z', 'imported', 'fio', '', 'unknown', 'fio', '3.33',
                      'Old SSD', 'SATA SSD', 1)`);
    old.exec(`INSERT INTO results (run_id, seq, test) VALUES (1, 0, 'seq1m-q8t1-read')`);
    old.close();

    const lib = openLibrary({ dbPath: path });
    assert.deepEqual(
      lib.listRuns().map((s) => [s.id, s.label, s.deviceModel, s.resultCount]),
      [[1, 'imported under v3', 'Old SSD', 1]],
    );
    assert.equal(lib.getRun(1)?.results[0]?.test, 'seq1m-q8t1-read');
    // Its fingerprint is unknown (NULL), so it never blocks a new import.
    const [outcome] = lib.importRuns([{ run: syntheticRun(1), fingerprint: importFingerprints(new Uint8Array([7]), 1)[0]! }]);
    assert.deepEqual(outcome, { id: 2, alreadyPresent: false });
    lib.close();
    const db = new DatabaseSync(path, { readOnly: true });
    assert.equal(userVersion(db), SCHEMA_VERSION);
    assert.equal((db.prepare('SELECT import_fingerprint AS f FROM runs WHERE id = 1').get() as { f: unknown }).f, null);
    db.close();
  });

  it('setAssessmentCandidates refuses candidates that do not fit, or a run it does not hold, and keeps what it had', () => {
    const lib = openLibrary({ dbPath: freshPath() });
    const run = lib.saveRun(syntheticRun(1));
    const id = lib.createAssessment('refusals').id;
    assert.equal(lib.setAssessmentCandidates(id, [{ kind: 'run', id: run }]), true);
    const refusals: Array<[unknown[], RegExp]> = [
      [Array(5).fill({ kind: 'run', id: run }), /candidates refused: .*4/],
      [[{ kind: 'spec', source: 'x.json', spec: { name: 'not a spec sheet' } }], /candidates refused: 0\.spec/],
      [[{ kind: 'run', id: 0 }], /candidates refused: 0\.id/],
      [[{ kind: 'run', id: 999 }], /no run 999 in the library/],
    ];
    for (const [candidates, message] of refusals)
      assert.throws(
        () => lib.setAssessmentCandidates(id, candidates as never),
        (e: Error) => e instanceof LibraryError && e.code === 'invalid' && message.test(e.message),
        JSON.stringify(candidates),
      );
    assert.deepEqual(lib.getAssessment(id)!.candidates, [{ kind: 'run', id: run }]);
    assert.equal(lib.setAssessmentCandidates(77, []), false, 'no such assessment');
    lib.close();
  });

  it('brings a version-19 assessment forward to candidates: read back weighing none', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close(); // creates the folder
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 19), 19);
    old.exec(
      `INSERT INTO assessments (label, created_at, updated_at) VALUES ('kept under v19', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
    );
    old.close();
    const lib = openLibrary({ dbPath: path });
    const a = lib.getAssessment(1)!;
    assert.equal(a.label, 'kept under v19');
    assert.deepEqual(a.candidates, []);
    assert.deepEqual(a.candidatesEmptied, []);
    lib.close();
  });

  it('brings a version-20 assessment forward: a candidate run already deleted leaves its candidates, and is said', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close(); // creates the folder
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 20), 20);
    old.exec(`INSERT INTO runs (label, created_at, saved_at, source, source_format, target_path, target_kind, engine_name, engine_version)
              VALUES ('kept', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z', 'imported', 'fio', '', 'unknown', 'fio', '3.33')`);
    // Run 9 was deleted under version 20, which left it among the candidates.
    old.exec(`INSERT INTO assessments (label, created_at, updated_at, candidates) VALUES ('v20', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z',
              '[{"kind":"run","id":9},{"kind":"run","id":1}]')`);
    old.close();
    const lib = openLibrary({ dbPath: path });
    const a = lib.getAssessment(1)!;
    assert.deepEqual(a.candidates, [{ kind: 'run', id: 1 }]);
    assert.deepEqual(
      a.candidatesEmptied?.map((e) => e.run),
      [9],
    );
    // From version 21 on, the trigger does it as the run is deleted.
    assert.ok(lib.deleteRun(1));
    assert.deepEqual(lib.getAssessment(1)!.candidates, []);
    assert.deepEqual(
      lib.getAssessment(1)!.candidatesEmptied?.map((e) => [e.run, e.label]),
      [
        [9, ''],
        [1, 'kept'],
      ],
    );
    lib.close();
  });

  it('brings a version-7 library forward to statistics: measured runs were medians, CrystalDiskMark its best, reference unknown', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close(); // creates the folder
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 7), 7);
    const insert = (label: string, source: string, format: string) =>
      old.exec(`INSERT INTO runs (label, created_at, saved_at, source, source_format, target_path, target_kind, engine_name, engine_version)
                VALUES ('${label}', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z', '${source}', '${format}', '', 'unknown', 'x', '1')`);
    insert('measured', 'measured', 'diskdelta');
    insert('cdm', 'imported', 'crystaldiskmark');
    insert('kdm', 'imported', 'kdiskmark');
    insert('bonnie', 'imported', 'bonnie++');
    insert('seed', 'reference', 'crystaldiskmark');
    old.exec(`INSERT INTO results (run_id, seq, test) VALUES (1, 0, 'seq1m-q8t1-read'), (2, 0, 'seq1m-q8t1-read'),
                (3, 0, 'seq1m-q8t1-read'), (4, 0, 'seq1m-q1t1-read'), (5, 0, 'seq1m-q8t1-read')`);
    old.close();

    const lib = openLibrary({ dbPath: path });
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((id) => lib.getRun(id)?.results[0]?.statistic),
      ['median', 'best', 'mean', 'single', undefined],
    );
    // A result stored now keeps its statistic as given.
    const run = syntheticRun(1);
    run.results[0]!.statistic = 'best';
    const id = lib.saveRun(run);
    assert.equal(lib.getRun(id)?.results[0]?.statistic, 'best');
    lib.close();
  });

  it('brings a version-10 assessment forward: a working-set step, and a deleted run named in the step it emptied until set again', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close();
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 10), 10);
    old.close();
    const lib = openLibrary({ dbPath: path });
    const hdd = lib.saveRun(syntheticRun(1));
    const ssd = lib.saveRun({ ...syntheticRun(2), label: 'SSD after the swap' });
    // A working-set scan: the step takes nothing else (#39).
    const scanRun = syntheticRun(3, { tests: 1 });
    scanRun.results[0]!.test = 'working-set';
    const scan = lib.saveRun(scanRun);
    const a = lib.createAssessment('laptop HDD → SSD', { before: hdd, after: ssd, workingSet: scan });
    assert.deepEqual([a.before, a.after, a.workingSet, a.emptied], [hdd, ssd, scan, {}]);
    assert.equal(lib.deleteRun(ssd), true);
    const after = lib.getAssessment(a.id)!;
    assert.equal(after.after, null);
    assert.deepEqual(Object.keys(after.emptied), ['after']);
    assert.deepEqual([after.emptied.after!.run, after.emptied.after!.label], [ssd, 'SSD after the swap']);
    assert.match(after.emptied.after!.at, /^\d{4}-\d\d-\d\dT/);
    assert.ok(after.updatedAt >= a.updatedAt);
    // The other steps are untouched; setting the step again forgets the deletion.
    assert.deepEqual([after.before, after.workingSet], [hdd, scan]);
    const again = lib.saveRun(syntheticRun(4));
    lib.updateAssessment(a.id, { after: again });
    assert.deepEqual(lib.getAssessment(a.id)!.emptied, {});
    assert.throws(() => lib.updateAssessment(a.id, { ['nonsense' as 'after']: again }), /an assessment has no step 'nonsense'/);
    lib.close();
  });

  it("brings a version-14 library forward to figures' passes: a workload phase's passes come back whole, older figures without", () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close();
    rmSync(path);
    const old = new DatabaseSync(path);
    assert.equal(migrate(old, 14), 14);
    old.close();
    const lib = openLibrary({ dbPath: path });
    const run = syntheticRun(1);
    run.results[0]!.figures = [
      { metric: 'phaseSeconds', subject: 'delete', value: 21.69, unit: 's', provenance: 'measured', passes: [4.77, 21.69, 26.4] },
      { metric: 'phaseSeconds', subject: 'fstrim', value: 60, unit: 's', provenance: 'measured' },
    ];
    const id = lib.saveRun(run);
    assert.deepEqual(lib.getRun(id)?.results[0]?.figures, run.results[0]!.figures);
    lib.close();
  });

  it('refuses a library from a newer DiskDelta without touching it', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    assert.throws(
      () => openLibrary({ dbPath: path }),
      (error: unknown) => error instanceof LibraryError && error.code === 'newer-schema' && /newer DiskDelta/.test(error.message),
    );
  });

  it('says which file is not a database', () => {
    const path = join(dir, 'not-a-db.sqlite');
    writeFileSync(path, 'this is a text file, not SQLite '.repeat(100));
    assert.throws(
      () => openLibrary({ dbPath: path }),
      (error: unknown) => error instanceof LibraryError && error.message.includes(path),
    );
  });
});

describe('resolveDbPath', () => {
  it('takes the flag, then DISKDELTA_DB, then an absolute XDG_DATA_HOME, then ~/.local/share', () => {
    const env = { DISKDELTA_DB: '/env/lib.sqlite', XDG_DATA_HOME: '/xdg' };
    assert.equal(resolveDbPath('/flag.sqlite', env, '/home/u'), '/flag.sqlite');
    assert.equal(resolveDbPath(undefined, env, '/home/u'), '/env/lib.sqlite');
    assert.equal(resolveDbPath(undefined, { XDG_DATA_HOME: '/xdg' }, '/home/u'), '/xdg/diskdelta/library.sqlite');
    assert.equal(resolveDbPath(undefined, { XDG_DATA_HOME: 'relative' }, '/home/u'), '/home/u/.local/share/diskdelta/library.sqlite');
    assert.equal(resolveDbPath(undefined, {}, '/home/u'), '/home/u/.local/share/diskdelta/library.sqlite');
  });
});

describe('two processes writing at once', () => {
  it('saves every run of both and leaves the database intact', async () => {
    const path = freshPath(); // new file: both children also race to create and migrate it
    const writer = fileURLToPath(new URL('./fixtures/concurrent-writer.ts', import.meta.url));
    const perChild = 150;
    const children = ['alpha', 'beta'].map((tag) => {
      const proc = spawn(process.execPath, [writer, path, tag, String(perChild)], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      const ready = new Promise<void>((resolve) =>
        proc.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('ready')) resolve();
        }),
      );
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => proc.on('close', (code) => resolve({ code, stderr })));
      return { proc, ready, exit };
    });
    // Start both write loops together so that their transactions really interleave. A child
    // that exits before it is ready (it could not open the library) ends the wait with its
    // stderr: waiting for both to exit would hang while the other waits for "go".
    const early = await Promise.race([Promise.all(children.map((c) => c.ready)).then(() => null), ...children.map((c) => c.exit)]);
    if (early) {
      for (const c of children) c.proc.kill();
      assert.fail(`a writer exited (code ${early.code}) before it was ready: ${early.stderr}`);
    }
    for (const c of children) c.proc.stdin.end('go\n');
    for (const { exit } of children) {
      const { code, stderr } = await exit;
      assert.equal(code, 0, stderr);
    }

    const lib = openLibrary({ dbPath: path });
    const labels = lib.listRuns().map((s) => s.label);
    assert.equal(labels.length, 2 * perChild);
    for (let i = 0; i < perChild; i += 1) {
      assert.ok(labels.includes(`alpha ${i}`), `alpha ${i} saved`);
      assert.ok(labels.includes(`beta ${i}`), `beta ${i} saved`);
    }
    assert.deepEqual(lib.integrityCheck(), ['ok']);
    // Proof that the writes overlapped rather than ran one after the other.
    const switches = labels.filter((label, i) => i > 0 && label[0] !== labels[i - 1]![0]).length;
    assert.ok(switches > 2, `the two writers' runs interleave (${switches} switches)`);
    lib.close();
  });
});

describe('TRIM audits', () => {
  const audit = (mountPoint: string | null, at: string, deepestReached: string | null): TrimAuditResult => ({
    target: mountPoint ?? '/srv/data',
    at,
    mountPoint,
    onlineDiscard: 'off',
    deletedBytes: 64 * 2 ** 20,
    fstrim: { seconds: 0.4, bytes: 503_504_896 },
    audit: { layers: [], deepestReached, stoppedAt: null, mismatches: [] },
  });

  it('keeps every audit and lists the newest of each mount point, across reopening', () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    // Saved out of order: "newest" is by the audit's time, not by when it was saved.
    lib.saveTrimAudit(audit('/home', '2026-11-02T10:00:00.000Z', 'disk sda'));
    lib.saveTrimAudit(audit('/home', '2026-10-01T10:00:00.000Z', null));
    lib.saveTrimAudit(audit('/', '2026-11-01T09:00:00.000Z', 'dm-crypt luks-root'));
    lib.saveTrimAudit(audit(null, '2026-11-03T09:00:00.000Z', 'disk sdb'));
    lib.close();
    const again = openLibrary({ dbPath: path });
    const latest = again.latestTrimAudits();
    again.close();
    assert.deepEqual(
      latest.map((a) => [a.mountPoint, a.at, a.audit.deepestReached]),
      [
        ['/', '2026-11-01T09:00:00.000Z', 'dm-crypt luks-root'],
        ['/home', '2026-11-02T10:00:00.000Z', 'disk sda'],
      ],
    );
    assert.deepEqual(latest[1], audit('/home', '2026-11-02T10:00:00.000Z', 'disk sda'), 'the whole audit comes back');
  });
});

describe('cipher ceilings', () => {
  const ceilings = (model: string, cpus: number, measuredAt: string, mbps: number): CipherCeilings => ({
    source: 'kernel',
    sourceLabel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
    backend: 'af_alg',
    cpus,
    cpu: { model, aesNi: true, vaes: false, flags: ['aes'] },
    figures: [
      {
        cipher: 'aes-xts-plain64',
        keyBits: 512,
        kernelName: 'xts(aes)',
        sectorBytes: 65536,
        threads: 1,
        encryptBps: mbps * 1e6,
        decryptBps: mbps * 1e6,
        encryptWindows: [mbps * 1e6, mbps * 1e6],
        decryptWindows: [mbps * 1e6, mbps * 1e6],
        encryptCi: 0,
        decryptCi: 0,
        noisy: false,
      },
    ],
    unavailable: [],
    warnings: [],
    measuredAt,
    windowSeconds: 0.2,
    rounds: 2,
    kernel: '6.1.0-13-amd64',
  });

  it('gives back the newest measurement of this CPU, whole, across reopening; none of another CPU', () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    assert.equal(lib.latestCipherCeilings(), null);
    lib.saveCipherCeilings(ceilings('Intel Core i5 M 430', 2, '2026-11-02T10:00:00.000Z', 70));
    lib.saveCipherCeilings(ceilings('Intel Core i5 M 430', 2, '2026-10-01T10:00:00.000Z', 60));
    lib.saveCipherCeilings(ceilings('AMD Ryzen 7', 16, '2026-11-03T10:00:00.000Z', 2200));
    lib.close();
    const again = openLibrary({ dbPath: path });
    assert.deepEqual(
      again.latestCipherCeilings({ model: 'Intel Core i5 M 430', cpus: 2 }),
      ceilings('Intel Core i5 M 430', 2, '2026-11-02T10:00:00.000Z', 70),
    );
    assert.equal(again.latestCipherCeilings({ model: 'Intel Core i5 M 430', cpus: 4 }), null);
    assert.equal(again.latestCipherCeilings()?.cpu.model, 'AMD Ryzen 7');
    again.close();
  });
});
