// Every kind × every assessment field (#39): the one check (model/assessment-check.ts, run by the
// library for the CLI and the API alike) takes a run for a step only when its kind fits the
// step's role, and a stored row that no longer fits is said and never used (usableAssessment).
// The runs: synthetic records of each kind measured here (labelled SYNTHETIC) beside the shipped
// references, so the class is checked on other libraries than the issue's.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseDiskDeltaJson } from '../formats/diskdelta-json.ts';
import { resultWithoutRuns } from '../formats/common.ts';
import { syntheticRun } from './fixtures/synthetic-run.ts';
import { LibraryError, openLibrary, type Library } from './library.ts';
import type { RunRecord, TestResult } from '../../shared/model/results.ts';
import { ASSESSMENT_FIELDS, assessmentSteps, type AssessmentField } from '../../shared/model/assessment.ts';
import { ASSESSMENT_ROLES, FITTING_SHOWN, roleProblem } from '../../shared/model/assessment-roles.ts';
import { usableAssessment } from '../../shared/model/assessment-usable.ts';
import { runKind, type RunKind } from '../../shared/model/run-kind.ts';
import { runCli } from '../../cli/run-cli-in-process.ts';
import { invoke } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';

const dir = mkdtempSync(join(tmpdir(), 'dd-assess-kinds-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `lib-${++n}.sqlite`);

const reference = (file: string) =>
  parseDiskDeltaJson(readFileSync(new URL(`../../../assets/reference/${file}`, import.meta.url), 'utf8'), file);
const figure = (metric: string, value: number) => ({ metric, subject: 'delete', value, unit: 's', provenance: 'measured' }) as const;
const rate = () => resultWithoutRuns({ test: 'seq1m-q8t1-read', params: null, bytesPerSec: 1e8, iops: null });
const phases = () =>
  resultWithoutRuns({ test: 'tree-3.9.1', params: null, bytesPerSec: null, iops: null, figures: [figure('phaseSeconds', 3)] });
const bytesOnly = (test: string) =>
  resultWithoutRuns({ test, params: null, bytesPerSec: null, iops: null, figures: [{ ...figure('storedBytes', 5), unit: 'bytes' }] });
const layer = (kind: 'disk' | 'dm-crypt') => ({ kind, name: kind === 'disk' ? 'sda' : 'luks', details: {} });

/** A SYNTHETIC run measured here of the given tests. */
function measured(label: string, results: TestResult[], extra: Partial<RunRecord> = {}, stack = [layer('disk')]): RunRecord {
  const base = syntheticRun(1);
  return { ...base, label: `SYNTHETIC ${label}`, source: 'measured', results, target: { ...base.target, stack }, ...extra };
}

/** Every kind a run can be, measured here, with the facts the roles read. */
const MEASURED: Array<{ name: string; run: RunRecord }> = [
  { name: 'disk', run: measured('disk', [rate()]) },
  { name: 'disk under dm-crypt', run: measured('disk under dm-crypt', [rate()], {}, [layer('disk'), layer('dm-crypt')]) },
  { name: 'disk, no stack', run: measured('disk, no stack', [rate()], {}, []) },
  { name: 'fleet host', run: measured('fleet host', [rate()], { sourceMeta: { 'fio.host': '127.0.0.2' } }) },
  { name: 'discard off', run: measured('discard off', [phases()], { sourceMeta: { 'mount option': 'no discard' } }) },
  { name: 'discard on', run: measured('discard on', [phases()], { sourceMeta: { 'mount option': 'discard' } }) },
  { name: 'workload', run: measured('workload', [phases()]) },
  { name: 'sustained write', run: measured('sustained write', [bytesOnly('sustained-write')]) },
  { name: 'working-set scan', run: measured('working-set scan', [bytesOnly('working-set')]) },
  { name: 'access recording', run: measured('access recording', [bytesOnly('access-curve')]) },
  { name: 'nothing known', run: measured('nothing known', []) },
  { name: 'imported disk', run: { ...measured('imported disk', [rate()]), source: 'imported' } },
  { name: 'imported disk under dm-crypt', run: { ...measured('imported crypt', [rate()], {}, [layer('dm-crypt')]), source: 'imported' } },
];
const REFERENCES = [...reference('2011-thinkpad-x201i-bonnie.json'), ...reference('2013-intel-525-discard.json')].map((run) => ({
  name: run.label,
  run,
}));
const ALL = [...MEASURED, ...REFERENCES];

/**
 * What each field takes, written here from the words (not read from ASSESSMENT_ROLES):
 * before/after a disk of any source; encryption this machine's own dm-crypt measurement; TRIM a
 * discard-cost run; size a scan or a recording.
 */
function fits(field: AssessmentField, run: RunRecord): boolean {
  const kind: RunKind = runKind(run);
  const crypt = (run.target.stack ?? []).some((l) => l.kind === 'dm-crypt');
  switch (field) {
    case 'before':
    case 'after':
      return kind === 'disk';
    case 'encrypted':
      return kind === 'disk' && run.source === 'measured' && crypt;
    case 'discardOff':
    case 'discardOn':
      return kind === 'discard-cost';
    case 'workingSet':
      return kind === 'working-set' || kind === 'access-recording';
  }
}

function libraryOf(runs: RunRecord[]): { library: Library; ids: number[]; path: string } {
  const path = freshPath();
  const library = openLibrary({ dbPath: path });
  return { library, ids: library.saveRuns(runs), path };
}

describe('assessment steps take only the kinds their role takes', () => {
  it('roleProblem: every kind × every field, measured here, imported and published', () => {
    for (const { name, run } of ALL)
      for (const field of ASSESSMENT_FIELDS) {
        const problem = roleProblem(field, run);
        assert.equal(problem === null, fits(field, run), `${name} as ${field}: ${problem ?? 'taken'}`);
        if (problem) assert.ok(problem.includes(ASSESSMENT_ROLES[field].takes), `${name} as ${field} says what the field takes`);
      }
  });

  it('the library refuses every run that does not fit, naming what fits, and keeps nothing of the refused call', () => {
    const { library, ids } = libraryOf(ALL.map((c) => c.run));
    const a = library.createAssessment('every kind');
    for (const [i, { name, run }] of ALL.entries())
      for (const field of ASSESSMENT_FIELDS) {
        const id = ids[i]!;
        const call = () => library.updateAssessment(a.id, { [field]: id });
        if (fits(field, run)) {
          assert.equal(call(), true, `${name} as ${field}`);
          library.updateAssessment(a.id, { [field]: null });
          continue;
        }
        assert.throws(
          call,
          (e: unknown) => {
            assert.ok(e instanceof LibraryError && e.code === 'wrong-role', `${name} as ${field}: ${String(e)}`);
            assert.ok(e.message.includes(`run ${id} "${run.label}" cannot be ${ASSESSMENT_ROLES[field].title}`), e.message);
            // The runs that fit, by id and label (this library has fewer than FITTING_SHOWN of each).
            const fitting = ALL.flatMap((c, j) => (fits(field, c.run) ? [`${ids[j]} "${c.run.label}"`] : []));
            if (fitting.length === 0) assert.ok(e.message.includes(`${ASSESSMENT_ROLES[field].makes} makes one`), e.message);
            for (const f of fitting) assert.ok(e.message.includes(f), `${name} as ${field} lists ${f}: ${e.message}`);
            return true;
          },
          `${name} as ${field}`,
        );
        assert.equal(library.getAssessment(a.id)![field], null, 'a refused step stays as it was');
      }
    library.close();
  });

  it('the discard pair is a run without discard, then one with it: reversed or twice is refused', () => {
    const off = MEASURED.find((c) => c.name === 'discard off')!.run;
    const on = MEASURED.find((c) => c.name === 'discard on')!.run;
    const { library, ids } = libraryOf([off, on]);
    const [offId, onId] = ids as [number, number];
    assert.equal(library.createAssessment('pair', { discardOff: offId, discardOn: onId }).discardOn, onId);
    assert.throws(
      () => library.createAssessment('reversed', { discardOff: onId, discardOn: offId }),
      /the discard pair is the run without discard, then the run with it: run 2 is the run with discard and run 1 is the run without discard/,
    );
    assert.throws(() => library.createAssessment('twice', { discardOff: offId, discardOn: offId }), /names one run twice/);
    assert.equal(library.listAssessments().length, 1, 'a refused start keeps no assessment');
    library.close();
  });

  it('names at most 8 fitting runs, then how many more', () => {
    const disks = Array.from({ length: FITTING_SHOWN + 3 }, (_, i) => measured(`disk ${i}`, [rate()]));
    const { library, ids } = libraryOf([...disks, MEASURED.find((c) => c.name === 'working-set scan')!.run]);
    assert.throws(
      () => library.createAssessment('x', { after: ids.at(-1)! }),
      (e: Error) => /Runs that fit the new disk \(after\): 1 "SYNTHETIC disk 0", .*8 "SYNTHETIC disk 7" and 3 more\.$/.test(e.message),
    );
    library.close();
  });

  it('a reference encrypted run is the published story only beside its own disk as after, never beside this machine’s', () => {
    const [hdd, ssd, crypt] = reference('2011-thinkpad-x201i-bonnie.json');
    const mine = measured('my new SSD', [rate()]);
    const { library, ids } = libraryOf([hdd!, ssd!, crypt!, mine]);
    assert.equal(library.createAssessment('story', { before: ids[0]!, after: ids[1]!, encrypted: ids[2]! }).encrypted, ids[2]);
    assert.throws(() => library.createAssessment('mine', { after: ids[3]!, encrypted: ids[2]! }), /another machine's story/);
    assert.throws(() => library.createAssessment('hdd', { after: ids[0]!, encrypted: ids[2]! }), /another machine's story/);
    library.close();
  });
});

describe('must-show: a library holding only the references', () => {
  it('assess start x --encrypted 2, --after a working-set scan and --discard 3,3 each exit 2 naming the kind needed', async () => {
    const db = freshPath();
    assert.equal((await runCli(['import', '--reference', '--db', db])).code, 0);
    const encrypted = await runCli(['assess', 'start', 'x', '--encrypted', '2', '--db', db]);
    assert.equal(encrypted.code, 2);
    assert.match(encrypted.stderr, /cannot be the new disk under dm-crypt: .*takes a run this machine measured through dm-crypt/);
    assert.match(encrypted.stderr, /no run that fits the new disk under dm-crypt: diskdelta encryption --target DIR makes one/);
    const discard = await runCli(['assess', 'start', 'x', '--discard', '3,3', '--db', db]);
    assert.equal(discard.code, 2);
    assert.match(
      discard.stderr,
      /it is a disk measured by the rate tests; the discard-cost run without discard takes a discard-cost experiment/,
    );
    assert.match(discard.stderr, /Runs that fit the discard-cost run without discard: 4 "Intel 525[^"]*", 5 "Intel 525/);
    // A working-set scan (a measured one: the references hold none) is refused as the new disk.
    const library = openLibrary({ dbPath: db });
    const scan = library.saveRun(MEASURED.find((c) => c.name === 'working-set scan')!.run);
    library.close();
    const afterScan = await runCli(['assess', 'start', 'x', '--after', String(scan), '--db', db]);
    assert.equal(afterScan.code, 2);
    assert.match(afterScan.stderr, /it is a working-set scan; the new disk \(after\) takes a disk measured by the rate tests/);
    assert.match(afterScan.stderr, /Runs that fit the new disk \(after\): 1 "Laptop hard disk[^"]*", 2 "Intel 320 SSD[^"]*", 3 /);
    assert.match((await runCli(['assess', 'list', '--db', db])).stdout, /No assessments yet/, 'nothing was started');
  });

  it('the API refuses the same runs as BAD_INPUT with the same words', async () => {
    const path = freshPath();
    const library = openLibrary({ dbPath: path });
    library.saveRuns(REFERENCES.map((c) => c.run));
    const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });
    const refused = await invoke(handlers, 'assessments.start', { label: 'x', steps: { encrypted: { kind: 'run', id: 2 } } });
    assert.ok(!refused.ok && refused.error.code === 'BAD_INPUT', JSON.stringify(refused));
    assert.match(refused.error.message, /cannot be the new disk under dm-crypt/);
    const started = await invoke(handlers, 'assessments.start', { label: 'x', steps: { before: { kind: 'run', id: 1 } } });
    assert.ok(started.ok);
    const pair = await invoke(handlers, 'assessments.set', {
      id: (started.data as { id: number }).id,
      steps: { discardOff: { kind: 'run', id: 5 }, discardOn: { kind: 'run', id: 4 } },
    });
    assert.ok(!pair.ok && pair.error.code === 'BAD_INPUT' && /run without discard, then the run with it/.test(pair.error.message));
    library.close();
  });
});

describe('a stored assessment that no longer fits', () => {
  /** A library whose assessment row was written before the kinds rules (or by hand): raw SQL past the check. */
  function storedRow(given: Record<string, unknown>): { db: string; library: Library } {
    const { corruptRun, ...row } = given;
    const columns: Record<string, unknown> = {
      label: 'old',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      ...row,
    };
    const { library, path, ids } = libraryOf([...REFERENCES.map((c) => c.run), MEASURED.find((c) => c.name === 'working-set scan')!.run]);
    assert.equal(ids.length, 6);
    library.close();
    const raw = new DatabaseSync(path);
    raw.exec('PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON');
    const names = Object.keys(columns);
    raw
      .prepare(`INSERT INTO assessments (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`)
      .run(...(Object.values(columns) as Array<string | number | null | Uint8Array>));
    // A run whose row no longer reads (run 6's settings are not JSON).
    if (corruptRun !== undefined) raw.exec(`UPDATE runs SET settings = 'not json' WHERE id = 6`);
    raw.close();
    return { db: path, library: openLibrary({ dbPath: path }) };
  }

  // [what is wrong, the row's columns, the step 'assess show' must say is not done and why (null: the row itself is unreadable)]
  const CASES: Array<[string, Record<string, unknown>, RegExp | null]> = [
    [
      'a discard-cost run as the new disk',
      { before_run: 1, after_run: 4 },
      /2\. The new disk \(after\): run 4 is not used as the new disk \(after\): it is a discard-cost experiment/,
    ],
    [
      'a plain disk as the encryption step',
      { before_run: 1, after_run: 2, encrypted_run: 1 },
      /3\. The cost of encryption: run 1 is not used as the new disk under dm-crypt/,
    ],
    [
      'the discard pair reversed',
      { discard_off_run: 5, discard_on_run: 4 },
      /4\. TRIM \(audit and discard cost\): runs 5 and 4 are not used as the discard pair/,
    ],
    ['one run as both halves of the pair', { discard_off_run: 4, discard_on_run: 4 }, /4\. TRIM .*names one run twice/],
    ['a disk as the working set', { working_set_run: 2 }, /5\. How big an SSD \(working set\): run 2 is not used as the working set/],
    [
      'a step pointing at a run that is not there',
      { before_run: 99 },
      /1\. The current disk \(before\): run 99 of the current disk \(before\) cannot be read from the library/,
    ],
    [
      'a step pointing at a run that cannot be read',
      { working_set_run: 6, corruptRun: 1 },
      /5\. How big an SSD .*run 6 of the working set .*cannot be read/,
    ],
    ['a run id that is text', { before_run: 'one' }, null],
    ['a run id that is a fraction', { after_run: 2.5 }, null],
    ['emptied that is not JSON', { emptied: '{oops' }, null],
    ['emptied of the wrong shape', { emptied: '{"before": 3}' }, null],
    ['emptied with extra fields', { emptied: '{"nonsense": {"run": 1, "label": "x", "at": "y"}}' }, null],
    ['a label that is binary data', { label: new Uint8Array([0xff, 0]) }, null],
  ];

  for (const [what, columns, said] of CASES) {
    it(`${what}: assess list, assess show and the app's list say so and never crash`, async () => {
      const { db, library } = storedRow(columns);
      const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });
      const appList = await invoke(handlers, 'assessments.list', {});
      assert.ok(appList.ok, JSON.stringify(appList));
      const appRows = appList.data as object[];
      assert.equal(appRows.length, 1);
      const list = await runCli(['assess', 'list', '--db', db]);
      assert.equal(list.code, 0, list.stderr);
      const show = await runCli(['assess', 'show', '1', '--db', db]);
      if (said === null) {
        assert.ok('unreadable' in appRows[0]!, 'the app lists the row as unreadable');
        assert.match(list.stdout, /^ +1 {2}\S.*\(cannot be read: /m);
        assert.equal(show.code, 1);
        assert.match(show.stderr, /assessment 1 "[^"]*" cannot be read from the library: .*diskdelta assess delete 1/);
      } else {
        assert.match(list.stdout, /not used: diskdelta assess show 1 says why/);
        assert.equal(show.code, 0, show.stderr);
        assert.match(show.stdout, new RegExp(`  [ →] ${said.source}`));
        assert.doesNotMatch(show.stdout, /✔ [12345]\. [^\n]*not used/);
      }
      library.close();
    });
  }
  if (!CASES.some(([, c]) => 'corruptRun' in c)) throw new Error('the table must hold an unreadable run');

  it('usableAssessment gives the steps with unfitting runs emptied and the problems in words; the steps show them not done', () => {
    const [hdd, ssd, crypt] = reference('2011-thinkpad-x201i-bonnie.json');
    const scan = MEASURED.find((c) => c.name === 'working-set scan')!.run;
    const a = {
      id: 1,
      label: 'old',
      createdAt: '',
      updatedAt: '',
      notes: '',
      emptied: {},
      before: 1,
      after: 4,
      encrypted: 3,
      discardOff: null,
      discardOn: null,
      workingSet: 2,
    };
    const records = new Map<number, RunRecord | null>([
      [1, hdd!],
      [2, ssd!],
      [3, crypt!],
      [4, scan],
    ]);
    const usable = usableAssessment(a, records);
    assert.deepEqual(
      [usable.assessment.before, usable.assessment.after, usable.assessment.encrypted, usable.assessment.workingSet],
      [1, null, null, null],
    );
    assert.deepEqual(Object.keys(usable.problems).sort(), ['after', 'encrypted', 'workingSet']);
    const steps = assessmentSteps(usable.assessment, {}, usable);
    assert.deepEqual(
      steps.map((s) => s.done),
      [true, false, false, false, false, false],
    );
    assert.match(
      steps[2]!.text,
      /run 3 is not used as the new disk under dm-crypt: a reference's encrypted run is another machine's story/,
    );
    // With the same reference's SSD as after, the published story is used, and said as such.
    const story = usableAssessment({ ...a, after: 2, workingSet: null }, records);
    assert.deepEqual(story.problems, {});
    assert.match(assessmentSteps(story.assessment, {}, story)[2]!.text, /^the published story: run 3/);
  });
});
