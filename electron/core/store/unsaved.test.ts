// A run the library could not save goes to a file that import takes back, in the first folder
// that will take it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keepUnsavedRun } from './unsaved.ts';
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
