// The measuring commands check the library before measuring and save through the core's one
// save-or-keep path (store/unsaved.ts; its refusals are tested there on a real SQLite file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notSavedLine } from './save-runs.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

test('diskdelta encryption finds an unusable library before it measures or maps anything, as run does', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-save-runs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const target = join(dir, 'target');
  mkdirSync(target);
  // A folder where the library file would be: SQLite cannot open it.
  const db = join(dir, 'library-is-a-folder');
  mkdirSync(db);
  for (const command of ['run', 'encryption']) {
    const out = spawnSync(NODE, ['bin/diskdelta.js', command, '--target', target, '--tests', 'rnd4k-q1t1-read', '--db', db], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(out.status, 1, `${command}: ${out.stderr}`);
    assert.match(
      out.stderr,
      new RegExp(
        `^diskdelta ${command}: cannot open the library .*Nothing was measured: repair or move the library, choose another with --db, or pass --no-save\\.\\n$`,
      ),
    );
    assert.equal(out.stdout, '');
    assert.deepEqual(readdirSync(target), [], `${command} left nothing in the target`);
  }
});

test('the not-saved line names the reason and every kept file in one import command', () => {
  assert.equal(
    notSavedLine('encryption', {
      saved: false,
      ids: [3],
      reason: 'database or disk is full',
      kept: ['/u/a.json', '/u/b.json'],
      lost: null,
    }),
    "diskdelta encryption: the results above were NOT saved: database or disk is full; they were written to /u/a.json and /u/b.json: run 'diskdelta import /u/a.json /u/b.json' once the library can be written\n",
  );
});
