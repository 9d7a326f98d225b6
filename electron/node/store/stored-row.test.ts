// #38 item 5: one row of a real library file that no longer fits the model (its JSON not JSON, the
// wrong shape, fields missing, values of the wrong type) is listed as such, never used as if
// valid, and never breaks the list of the others, through the store, the API and the CLI alike; a
// stored candidate that no longer fits is left out of its assessment and said, not the whole of it.
// The rows are corrupted the way an outside program would: straight through SQLite, with the
// library's CHECKs switched off (ignore_check_constraints) for the JSON that is not JSON.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { openBackend } from '../api/backend.ts';
import { invoke } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';
import { fleetRunsOf } from '../../shared/analysis/fleet-runs.ts';
import { runCli } from '../../cli/run-cli-in-process.ts';
import type { CipherCeilings } from '../../shared/model/cipher-types.ts';
import type { TrimAuditResult } from '../system/discard-audit.ts';
import { LibraryError, openLibrary, importItems } from './library.ts';
import { syntheticRun } from './fixtures/synthetic-run.ts';
import { EXAMPLE_CANDIDATE } from '../../shared/model/candidate.ts';
import { buildReport } from '../../shared/report/report-model.ts';
import { renderReportHtml } from '../../shared/report/report-html.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-stored-row-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(dir, `lib-${++counter}.sqlite`);

/** Changes the file as another program would: plain SQL, CHECKs off. */
function tamper(path: string, ...statements: string[]): void {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA ignore_check_constraints = ON');
  db.exec('PRAGMA foreign_keys = OFF');
  for (const sql of statements) db.exec(sql);
  db.close();
}

/** Each way a stored assessment can stop fitting, and what its listing must name. */
const BAD_ASSESSMENTS: Array<{ why: string; set: string; said: RegExp }> = [
  { why: 'emptied is not JSON', set: `emptied = '{"after": '`, said: /its emptied column is not JSON/ },
  { why: 'emptied of the wrong shape', set: `emptied = '[1, 2]'`, said: /its emptied column: .*expected record/ },
  {
    why: 'an emptied step missing fields',
    set: `emptied = '{"after": {"run": 3}}'`,
    said: /its emptied column: after\.label: .*expected string/,
  },
  {
    why: 'an emptied step of the wrong types',
    set: `emptied = '{"before": 5, "after": {"run": "three", "label": 1, "at": null}}'`,
    said: /its emptied column: before: .*expected object/,
  },
  { why: 'a step that is not a run id', set: `after_run = 'abc'`, said: /its columns: after: .*expected number, received string/ },
  { why: 'a label that is binary data', set: `label = X'00ff'`, said: /its columns: label: .*expected string/ },
];

describe('assessments that no longer fit', () => {
  it('are listed with their id, name and what is wrong, beside the good ones; show, set and report say what to do', async () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    const hdd = lib.saveRun(syntheticRun(1));
    const ssd = lib.saveRun(syntheticRun(2));
    const good = lib.createAssessment('the good one', { before: hdd, after: ssd });
    const bad = BAD_ASSESSMENTS.map((b) => ({ ...b, id: lib.createAssessment(`broken: ${b.why}`, { before: hdd }).id }));
    lib.close();
    tamper(path, ...bad.map((b) => `UPDATE assessments SET ${b.set} WHERE id = ${b.id}`));

    const reopened = openLibrary({ dbPath: path });
    const listed = reopened.listAssessments();
    assert.equal(listed.length, 1 + bad.length, 'every row is listed');
    const goodListed = listed.find((a) => a.id === good.id)!;
    assert.ok(!('unreadable' in goodListed));
    assert.deepEqual([goodListed.before, goodListed.after], [hdd, ssd]);
    for (const b of bad) {
      const entry = listed.find((a) => a.id === b.id)!;
      assert.ok('unreadable' in entry, `${b.why}: listed as unreadable`);
      assert.match(entry.unreadable, b.said, b.why);
      assert.equal(Object.keys(entry).sort().join(), 'id,label,unreadable', `${b.why}: nothing of it used as if valid`);
      assert.throws(
        () => reopened.getAssessment(b.id),
        (e: unknown) => e instanceof LibraryError && e.code === 'unreadable' && e.message.includes(`'diskdelta assess delete ${b.id}'`),
        b.why,
      );
      assert.throws(() => reopened.updateAssessment(b.id, { after: ssd }), /cannot be read from the library/);
    }
    assert.match(listed.find((a) => a.id === bad[0]!.id)!.label, /^broken: emptied is not JSON$/);
    assert.equal(listed.find((a) => a.id === bad[5]!.id)!.label, '(no readable label: binary data (2 bytes))');
    reopened.close();

    // The API: the list answers, the bad ones marked; opening one is FAILED with what to do.
    const backend = await openBackend({ dbPath: path, emit: () => {}, sample: () => {} });
    try {
      const handlers = createHandlers(backend);
      const list = await invoke(handlers, 'assessments.list', {});
      assert.ok(list.ok, JSON.stringify(list));
      const data = list.data as Array<{ id: number; unreadable?: string }>;
      assert.equal(data.length, 1 + bad.length);
      assert.equal(data.filter((a) => a.unreadable).length, bad.length);
      const asked = [
        ['assessments.get', { id: bad[1]!.id }],
        ['assessments.report', { id: bad[1]!.id, format: 'html', paper: 'a4', unit: 'MB' }],
        ['assessments.set', { id: bad[1]!.id, steps: { after: { kind: 'run', id: ssd } } }],
      ] as const;
      for (const [procedure, input] of asked) {
        const got = await invoke(handlers, procedure, input);
        assert.ok(!got.ok);
        assert.equal(got.error.code, 'FAILED', JSON.stringify(got));
        assert.match(got.error.message, /cannot be read from the library: its emptied column: .*assess delete/);
      }
    } finally {
      await backend.close();
    }

    // The CLI: list exits 0 with every row; show and report exit 1 with the remedy; delete removes the row.
    const cliList = await runCli(['assess', 'list', '--db', path]);
    assert.equal(cliList.code, 0, cliList.stderr);
    assert.match(cliList.stdout, new RegExp(`^ +${good.id} {2}the good one {2}\\(2 of 5 steps done, then the report\\)$`, 'm'));
    assert.match(
      cliList.stdout,
      new RegExp(`^ +${bad[0]!.id} {2}broken: emptied is not JSON {2}\\(cannot be read: its emptied column is not JSON`, 'm'),
    );
    const show = await runCli(['assess', 'show', String(bad[4]!.id), '--db', path]);
    assert.equal(show.code, 1);
    assert.match(show.stderr, /cannot be read from the library: its columns: after: .*remove the assessment with 'diskdelta assess delete/);
    assert.doesNotMatch(show.stderr, /at .*\.ts:\d+/, 'no stack trace');
    const report = await runCli(['assess', 'report', String(bad[4]!.id), '--html', '--out', join(dir, 'never.html'), '--db', path]);
    assert.equal(report.code, 1);
    assert.match(report.stderr, /cannot be read from the library/);
    const removed = await runCli(['assess', 'delete', String(bad[4]!.id), '--db', path]);
    assert.equal(removed.code, 0, removed.stderr);
    const afterDelete = openLibrary({ dbPath: path });
    assert.equal(afterDelete.listAssessments().length, bad.length);
    assert.ok(afterDelete.getRun(hdd), 'its runs stay');
    afterDelete.close();
  });
});

describe('a stored candidate that no longer fits', () => {
  it('is left out and said, and the rest of the assessment reads: its steps, its other candidates, the API and assess show', async () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    const hdd = lib.saveRun(syntheticRun(1));
    const ssd = lib.saveRun(syntheticRun(2));
    const a = lib.createAssessment('with candidates', { before: hdd, after: ssd });
    lib.close();
    // As a newer, stricter version (or another program) would find them: a spec sheet whose
    // figure it now refuses, and a run candidate whose id is not one.
    const stored = [
      { kind: 'spec', source: 'good.json', spec: EXAMPLE_CANDIDATE },
      { kind: 'spec', source: 'old.json', spec: { ...EXAMPLE_CANDIDATE, name: 'Old sheet', capacityGB: -5 } },
      { kind: 'run', id: 'twelve' },
    ];
    tamper(path, `UPDATE assessments SET candidates = '${JSON.stringify(stored).replace(/'/g, "''")}' WHERE id = ${a.id}`);

    const reopened = openLibrary({ dbPath: path });
    const listed = reopened.listAssessments().find((x) => x.id === a.id)!;
    assert.ok(!('unreadable' in listed), JSON.stringify(listed));
    const got = reopened.getAssessment(a.id)!;
    assert.equal(got.before, hdd);
    assert.deepEqual(got.candidates, [{ kind: 'spec', source: 'good.json', spec: EXAMPLE_CANDIDATE }]);
    assert.deepEqual(
      got.candidatesUnreadable?.map((c) => [c.position, c.name]),
      [
        [2, 'Old sheet'],
        [3, null],
      ],
    );
    assert.match(got.candidatesUnreadable![0]!.problem, /capacityGB/);
    // The saved report says it too, in its Candidates section.
    const html = renderReportHtml(
      buildReport([reopened.getRun(hdd)!, reopened.getRun(ssd)!], { generatedAt: new Date(), assessment: got }),
    );
    assert.match(
      html,
      /data-testid="candidate-left-out">candidate 2 \(&quot;Old sheet&quot;\) no longer fits this version&#x27;s candidates/,
    );
    reopened.close();

    const backend = await openBackend({ dbPath: path, emit: () => {}, sample: () => {} });
    try {
      const api = await invoke(createHandlers(backend), 'assessments.get', { id: a.id });
      assert.ok(api.ok, JSON.stringify(api));
      assert.equal((api.data as { candidatesUnreadable?: unknown[] }).candidatesUnreadable?.length, 2);
    } finally {
      await backend.close();
    }
    const show = await runCli(['assess', 'show', String(a.id), '--db', path]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(
      show.stdout,
      new RegExp(
        `candidate 2 \\("Old sheet"\\) no longer fits this version's candidates \\(.*capacityGB.*\\): it is left out of the forecast; diskdelta assess set ${a.id} --candidate FILE\\|RUN`,
      ),
    );
    assert.match(show.stdout, /candidate 3 no longer fits this version's candidates/);
  });
});

/** Each way a stored run can stop fitting, the statement that does it (`ID` is its id) and what is said. */
const BAD_RUNS: Array<{ why: string; sql: string; said: RegExp }> = [
  { why: 'device not JSON', sql: `UPDATE runs SET device = 'not json' WHERE id = ID`, said: /its device column is not JSON/ },
  {
    why: 'settings of the wrong shape',
    sql: `UPDATE runs SET settings = '[]' WHERE id = ID`,
    said: /its settings column: .*expected object/,
  },
  {
    why: 'source details of the wrong types',
    sql: `UPDATE runs SET source_meta = '{"fio.host": 7}' WHERE id = ID`,
    said: /its source details column: fio\.host: .*expected string/,
  },
  {
    why: 'a device missing fields',
    sql: `UPDATE runs SET device = json_remove(device, '$.class') WHERE id = ID`,
    said: /its device column: class: /,
  },
  { why: 'an unknown source format', sql: `UPDATE runs SET source_format = 'bogus' WHERE id = ID`, said: /its source format: / },
  {
    why: "a result's parameters of the wrong types",
    sql: `UPDATE results SET params = '{"rw": "read", "blockSize": "4k"}' WHERE run_id = ID`,
    said: /its results\.params column: blockSize: .*expected number/,
  },
  {
    why: 'a sample rate that is text',
    sql: `UPDATE samples SET bytes_per_sec = 'fast' WHERE measurement_id IN (SELECT m.id FROM measurements m JOIN results r ON r.id = m.result_id WHERE r.run_id = ID)`,
    said: /its samples\.bytes_per_sec is a string \("fast"\), not a number/,
  },
];

describe('runs that no longer fit', () => {
  it('are named with what is wrong when asked for, and never stop the others being read, listed as a fleet, imported or deleted', async () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    // Fleet runs (fio, a host each), so the fleet list reads them all at once.
    const fleet = (n: number) => ({ ...syntheticRun(n), sourceFormat: 'fio' as const, sourceMeta: { 'fio.host': `host${n}` } });
    const good = lib.saveRun(fleet(100));
    const bad = BAD_RUNS.map((b, i) => ({ ...b, id: lib.saveRun(fleet(i + 1)) }));
    lib.close();
    tamper(path, ...bad.map((b) => b.sql.replaceAll('ID', String(b.id))), 'UPDATE runs SET run_fingerprint = NULL');

    const reopened = openLibrary({ dbPath: path });
    for (const b of bad) {
      assert.throws(
        () => reopened.getRun(b.id),
        (e: unknown) =>
          e instanceof LibraryError &&
          e.code === 'unreadable' &&
          b.said.test(e.message) &&
          e.message.includes(`'diskdelta delete ${b.id}'`),
        b.why,
      );
    }
    const all = reopened.readRuns([good, ...bad.map((b) => b.id)]);
    assert.equal(all.runs[0]?.id, good);
    assert.deepEqual(
      all.runs.slice(1),
      bad.map(() => null),
      'nothing of a bad run is used',
    );
    assert.deepEqual(
      all.unreadable.map((u) => u.id),
      bad.map((b) => b.id),
    );
    assert.deepEqual(
      fleetRunsOf(reopened).map((r) => r.id),
      [good],
    );
    // An import fingerprints the old runs first: a bad one does not stop it.
    const [outcome] = reopened.importRuns(importItems([syntheticRun(500)], new Uint8Array([5])));
    assert.equal(outcome?.alreadyPresent, false);
    reopened.close();

    const show = await runCli(['show', String(bad[0]!.id), '--db', path]);
    assert.equal(show.code, 1);
    assert.match(
      show.stderr,
      /run \d+ "[^"]+" cannot be read from the library: its device column is not JSON.*'diskdelta delete \d+' removes it/,
    );
    const deleted = await runCli(['delete', String(bad[0]!.id), '--db', path]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, new RegExp(`Deleted run ${bad[0]!.id} "`));

    const backend = await openBackend({ dbPath: path, emit: () => {}, sample: () => {} });
    try {
      const handlers = createHandlers(backend);
      const got = await invoke(handlers, 'library.get', { id: bad[1]!.id });
      assert.ok(!got.ok);
      assert.equal(got.error.code, 'FAILED');
      assert.match(got.error.message, /its settings column/);
      const fleetPage = await invoke(handlers, 'fleet.compare', {});
      assert.ok(fleetPage.ok, JSON.stringify(fleetPage));
    } finally {
      await backend.close();
    }
  });
});

describe('the other JSON the library keeps', () => {
  it('a TRIM audit or cipher measurement that no longer fits is passed over for the one before it; a write sample that is not a number is left out', () => {
    const path = freshPath();
    const lib = openLibrary({ dbPath: path });
    const audit = (at: string): TrimAuditResult => ({
      target: '/mnt/x',
      at,
      mountPoint: '/mnt',
      onlineDiscard: 'off',
      deletedBytes: 1 << 20,
      fstrim: { skipped: 'not asked' },
      audit: { layers: [], deepestReached: null, stoppedAt: null, refusedBy: null, mismatches: [] },
    });
    lib.saveTrimAudit(audit('2026-01-01T00:00:00.000Z'));
    const newest = lib.saveTrimAudit(audit('2026-02-01T00:00:00.000Z'));
    const ceilings = (at: string): CipherCeilings => ({
      source: 'kernel',
      sourceLabel: 'kernel',
      backend: 'af_alg',
      cpus: 2,
      cpu: { model: 'CPU', aesNi: true, vaes: false, flags: [] },
      figures: [],
      unavailable: [],
      warnings: [],
      measuredAt: at,
      windowSeconds: 1,
    });
    lib.saveCipherCeilings(ceilings('2026-01-01T00:00:00.000Z'));
    const newestCeilings = lib.saveCipherCeilings(ceilings('2026-02-01T00:00:00.000Z'));
    lib.saveWriteSamples([
      { at: '2026-01-01T00:00:00.000Z', bootId: 'b', uptimeSeconds: 10, disk: 'sda', bytesWritten: 100 },
      { at: '2026-01-02T00:00:00.000Z', bootId: 'b', uptimeSeconds: 20, disk: 'sda', bytesWritten: 200 },
    ]);
    lib.close();
    tamper(
      path,
      `UPDATE trim_audits SET result = json_set(result, '$.audit', 'gone') WHERE id = ${newest}`,
      `UPDATE cipher_ceilings SET result = 'not json' WHERE id = ${newestCeilings}`,
      `UPDATE write_samples SET bytes_written = 'lots' WHERE at LIKE '2026-01-02%'`,
    );
    const reopened = openLibrary({ dbPath: path });
    assert.deepEqual(
      reopened.latestTrimAudits().map((a) => a.at),
      ['2026-01-01T00:00:00.000Z'],
    );
    assert.equal(reopened.latestCipherCeilings({ model: 'CPU', cpus: 2 })?.measuredAt, '2026-01-01T00:00:00.000Z');
    assert.equal(reopened.latestCipherCeilings()?.measuredAt, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(
      reopened.writeSamples().map((s) => s.bytesWritten),
      [100],
    );
    reopened.close();
  });
});
