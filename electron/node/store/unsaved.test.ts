// A run the library could not save goes to a file that import takes back, in the first folder
// that will take it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { keepUnsavedRun, saveOrKeep, whereKeptText } from './unsaved.ts';
import { openLibrary } from './library.ts';
import { parseDiskDeltaJson } from '../formats/diskdelta-json.ts';
import { syntheticRun } from './fixtures/synthetic-run.ts';

test('the run goes to unsaved/ beside the library, as DiskDelta JSON that imports back to the same run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-unsaved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = syntheticRun(3);
  const path = await keepUnsavedRun(run, join(dir, 'library.sqlite'));
  assert.equal(dirname(path), join(dir, 'unsaved'));
  const [back] = parseDiskDeltaJson(readFileSync(path, 'utf8'), path);
  assert.deepEqual(back!.results, run.results);
  assert.equal(back!.createdAt, run.createdAt);
});

test('a folder that will not take it (here: a file in the way) falls through to the next; none at all names every reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-unsaved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const blocked = join(dir, 'blocked');
  writeFileSync(blocked, 'a file where the folder would be');
  const spare = join(dir, 'spare');
  const path = await keepUnsavedRun(syntheticRun(1), join(dir, 'library.sqlite'), [join(blocked, 'unsaved'), spare]);
  assert.equal(dirname(path), spare);
  assert.equal(readFileSync(blocked, 'utf8'), 'a file where the folder would be');
  await assert.rejects(
    keepUnsavedRun(syntheticRun(1), join(dir, 'library.sqlite'), [join(blocked, 'a'), join(blocked, 'b')]),
    (error: Error) =>
      error.message.startsWith('no folder would take the results') &&
      error.message.includes(`${blocked}/a:`) &&
      error.message.includes(`${blocked}/b:`),
  );
});

test('two runs made in the same millisecond (the encryption pair) are kept in two files beside the library, not one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-unsaved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const [raw, encrypted] = [syntheticRun(1), syntheticRun(2)];
  encrypted.createdAt = raw.createdAt;
  const library = join(dir, 'library.sqlite');
  const spare = join(dir, 'spare');
  const paths = [
    await keepUnsavedRun(raw, library, [join(dir, 'unsaved'), spare]),
    await keepUnsavedRun(encrypted, library, [join(dir, 'unsaved'), spare]),
  ];
  assert.notEqual(paths[0], paths[1]);
  assert.deepEqual(paths.map(dirname), [join(dir, 'unsaved'), join(dir, 'unsaved')], 'the second did not fall through to the spare folder');
  assert.deepEqual(
    paths.map((p) => parseDiskDeltaJson(readFileSync(p, 'utf8'), p)[0]!.results[0]!.bytesPerSec),
    [raw.results[0]!.bytesPerSec, encrypted.results[0]!.bytesPerSec],
  );
});

test('saveOrKeep: the library refuses the second of a pair; the first stays saved, the second and the rest go to files that import back', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-unsaved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'library.sqlite');
  openLibrary({ dbPath: db }).close();
  // A real refusal by the real save path: SQLite aborts the second INSERT, as a full disk would.
  const raw = new DatabaseSync(db);
  raw.exec(
    "CREATE TRIGGER refuse BEFORE INSERT ON runs WHEN (SELECT count(*) FROM runs) >= 1 BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
  );
  raw.close();
  const library = openLibrary({ dbPath: db });
  t.after(() => library.close());
  const runs = [syntheticRun(1), syntheticRun(2), syntheticRun(3)];
  const outcome = await saveOrKeep(runs, { save: (r) => library.saveRun(r), keep: (r) => keepUnsavedRun(r, db) });
  assert.equal(outcome.saved, false);
  if (outcome.saved) return;
  assert.equal(outcome.ids.length, 1);
  assert.equal(runs[0]!.id, outcome.ids[0], 'the saved run carries its id');
  assert.equal(runs[1]!.id, undefined);
  assert.match(outcome.reason, /database or disk is full/);
  assert.equal(outcome.lost, null);
  assert.equal(outcome.kept.length, 2);
  assert.deepEqual(
    outcome.kept.map((p) => parseDiskDeltaJson(readFileSync(p, 'utf8'), p)[0]!.results[0]!.bytesPerSec),
    [runs[1]!.results[0]!.bytesPerSec, runs[2]!.results[0]!.bytesPerSec],
  );
  assert.equal(library.listRuns().length, 1);
  const text = whereKeptText(outcome, (paths) => `run 'diskdelta import ${paths.join(' ')}'`);
  assert.equal(
    text,
    `they were written to ${outcome.kept[0]} and ${outcome.kept[1]}: run 'diskdelta import ${outcome.kept.join(' ')}' once the library can be written`,
  );
});

test('saveOrKeep: every run saved in order; nowhere to keep a refused run, or a keeper that fails, is said, never silent', async () => {
  const ids: number[] = [];
  const all = await saveOrKeep([syntheticRun(1), syntheticRun(2)], { save: () => (ids.push(ids.length + 7), ids.length + 6), keep: null });
  assert.deepEqual(all, { saved: true, ids: [7, 8] });
  const refuse = () => {
    throw new Error('read-only file system');
  };
  const nowhere = await saveOrKeep([syntheticRun(1)], { save: refuse, keep: null });
  assert.ok(!nowhere.saved);
  assert.equal(
    whereKeptText(nowhere, () => 'import it'),
    'they could not be kept elsewhere either: nowhere to keep them was given',
  );
  let calls = 0;
  const half = await saveOrKeep([syntheticRun(1), syntheticRun(2)], {
    save: refuse,
    keep: async () => {
      calls += 1;
      if (calls === 2) throw new Error('no folder would take the results (x)');
      return '/kept/one.json';
    },
  });
  assert.ok(!half.saved);
  assert.equal(
    whereKeptText(half, () => 'import it'),
    'they were written to /kept/one.json: import it once the library can be written; the rest could not be kept elsewhere: no folder would take the results (x)',
  );
});
