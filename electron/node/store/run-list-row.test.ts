// The library's list reads plain columns; one that no longer fits (edited outside DiskDelta, a
// newer version's value) makes that row unreadable, never the whole list (library.list once
// answered BAD_OUTPUT for all). And the kinds and saved dates of migration 17.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openLibrary } from './library.ts';
import { migrate } from './migrations.ts';
import { syntheticRun } from './fixtures/synthetic-run.ts';
import { parseDiskDeltaJson } from '../formats/diskdelta-json.ts';
import { invoke } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';
import { runCli } from '../../cli/run-cli-in-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'dd-run-list-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `lib-${++n}.sqlite`);
const references = () =>
  ['2011-thinkpad-x201i-bonnie.json', '2013-intel-525-discard.json'].flatMap((f) =>
    parseDiskDeltaJson(readFileSync(new URL(`../../../assets/reference/${f}`, import.meta.url), 'utf8'), f),
  );

describe('a run row whose plain columns no longer fit', () => {
  const CASES: Array<[string, string]> = [
    ['source_format', "source_format = 'floppy-tool'"],
    ['source', "source = 'stolen'"],
    ['device_class', "device_class = 'punched card'"],
    ['kind', "kind = 'a kind of a newer version'"],
    ['result_count', "result_count = 'many'"],
    ['label', "label = x'ff00'"],
    ['created_at', "created_at = x'00'"],
    ['encrypted', "encrypted = 'perhaps'"],
  ];
  for (const [column, set] of CASES) {
    it(`${column}: list and library.list list the others and name that row as unreadable`, async () => {
      const path = freshPath();
      const library = openLibrary({ dbPath: path });
      library.saveRuns([1, 2, 3].map((i) => syntheticRun(i)));
      const raw = new DatabaseSync(path);
      raw.exec('PRAGMA ignore_check_constraints = ON');
      raw.exec(`UPDATE runs SET ${set} WHERE id = 2`);
      raw.close();
      const items = library.listRunItems();
      assert.deepEqual(
        items.map((i) => ('unreadable' in i ? [i.id, 'unreadable'] : [i.id, i.label])),
        [
          [1, 'SYNTHETIC run 1'],
          [2, 'unreadable'],
          [3, 'SYNTHETIC run 3'],
        ],
      );
      assert.deepEqual(
        library.listRuns().map((s) => s.id),
        [1, 3],
        'listRuns gives the readable ones',
      );
      const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });
      const app = await invoke(handlers, 'library.list', {});
      assert.ok(app.ok, JSON.stringify(app));
      assert.equal((app.data as unknown[]).length, 3);
      const cli = await runCli(['list', '--db', path]);
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stdout, /^1 .*SYNTHETIC run 1$/m);
      assert.match(cli.stdout, /^3 .*SYNTHETIC run 3$/m);
      assert.match(cli.stdout, /run 2 "[^"]*" cannot be read from the library: its .*'diskdelta delete 2' removes it/);
      library.close();
    });
  }
});

describe('kinds and saved dates (migration 17)', () => {
  it('classifies the runs of an older library from their records; an unreadable one is unknown', () => {
    const path = freshPath();
    openLibrary({ dbPath: path }).close();
    rmSync(path);
    const old = new DatabaseSync(path);
    migrate(old, 16);
    old.close();
    // Runs written by the schema-16 library code are what a user has: save them with today's
    // code on a copy of the schema (kind filled), then forget the kind as 16 never had it.
    const library = openLibrary({ dbPath: path });
    library.saveRuns([syntheticRun(1), ...references()]);
    library.close();
    const raw = new DatabaseSync(path);
    raw.exec(
      "PRAGMA ignore_check_constraints = ON; UPDATE runs SET kind = NULL, encrypted = NULL; UPDATE runs SET settings = 'not json' WHERE id = 1",
    );
    raw.close();
    const reopened = openLibrary({ dbPath: path });
    assert.deepEqual(
      reopened.listRunItems().map((i) => ('unreadable' in i ? [i.id, 'unreadable'] : [i.id, i.kind, i.encrypted])),
      [
        [1, 'disk', null],
        [2, 'disk', null],
        [3, 'disk', null],
        [4, 'disk', true],
        [5, 'discard-cost', true],
        [6, 'discard-cost', true],
      ].map((row) => (row[0] === 1 ? [1, 'unknown', null] : row)),
    );
    reopened.close();
  });

  it('list --limit N is the N most recently saved; a reference shows its published date and the day it was saved; --kind', async () => {
    const path = freshPath();
    const library = openLibrary({ dbPath: path });
    const measured = { ...syntheticRun(1), source: 'measured' as const, createdAt: new Date().toISOString() };
    library.saveRuns([...references(), measured]);
    library.close();
    const limited = await runCli(['list', '--limit', '2', '--db', path]);
    const rows = limited.stdout.split('\n').filter((l) => /^\d+ +\d{4}-/.test(l));
    assert.deepEqual(
      rows.map((r) => r.split(/ +/)[0]),
      ['5', '6'],
      'the last saved, whatever their dates',
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.match(rows[0]!, new RegExp(`^5 +2013-01-01 00:00 \\(saved ${today}\\) +discard-cost \\(dm-crypt\\) +\\[reference\\]`));
    assert.doesNotMatch(rows[1]!, /saved/, 'a run measured today shows one date');
    const discard = await runCli(['list', '--kind', 'discard-cost,working-set', '--db', path]);
    assert.deepEqual(
      discard.stdout
        .split('\n')
        .filter((l) => /^\d+ +\d{4}-/.test(l))
        .map((r) => r.split(/ +/)[0]),
      ['4', '5'],
    );
    const bad = await runCli(['list', '--kind', 'floppy', '--db', path]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--kind 'floppy' is not a kind of run: use disk, fleet-host, discard-cost/);
  });
});
