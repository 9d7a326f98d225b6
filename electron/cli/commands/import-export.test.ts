// `diskdelta import`, `export` and the reference runs, through main(): what lands in the
// library is what the importers read, a bad file leaves the library untouched, export →
// import gives the same numbers, and compare on the reference runs tells the seed's story.
import assert from 'node:assert/strict';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { runCli } from '../run-cli-in-process.ts';
import { labelsFor } from './import.ts';
import { openLibrary } from '../../node/store/library.ts';
import { parseImport, REFERENCE_DIR } from '../../node/formats/index.ts';
import type { RunRecord } from '../../shared/model/results.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-cli-import-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshDb = () => join(dir, `library-${++counter}.sqlite`);

// Two rows of a bonnie++ 2.00a run made on this machine (electron/node/formats/fixtures).
const BONNIE_HEADER =
  'format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency';
const BONNIE_ROW_1 =
  '1.98,2.00a,fixturehost,1,1795984448,1G,,8192,5,913,98,317821,86,1135932,66,1444,97,+++++,+++,+++++,+++,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,15409us,2085us,11147us,11339us,1760us,9950us,532us,77us,317us,1312us,7us,815us';
const BONNIE_ROW_2 =
  '1.98,2.00a,fixturehost,1,1795984448,1G,,8192,5,862,98,337445,88,1219521,77,1453,99,+++++,+++,+++++,+++,1,,,,,1681,98,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,13971us,3190us,9249us,7362us,228us,7174us,2092us,102us,922us,1753us,10us,74us';

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const good1 = file('good-1.csv', `${BONNIE_HEADER}\n${BONNIE_ROW_1}\n`);
const good2 = file('good-2.csv', `${BONNIE_HEADER}\n${BONNIE_ROW_2}\n`);

/** What a run means, without what the library adds (id) or when the file was read (createdAt). */
function figures(run: RunRecord) {
  return { results: run.results, extras: run.extras, warnings: run.warnings, engine: run.engine, sourceFormat: run.sourceFormat };
}

function allRuns(db: string): RunRecord[] {
  const library = openLibrary({ dbPath: db });
  try {
    return library.listRuns().map((s) => library.getRun(s.id)!);
  } finally {
    library.close();
  }
}

describe('import --label', () => {
  it('one run: the label; runs of one file: numbered; runs of several files: their file, then their number', () => {
    assert.deepEqual(labelsFor('mine', [{ path: '/x/a.json', runs: 1 }]), [['mine']]);
    assert.deepEqual(labelsFor('mine', [{ path: '/x/a.csv', runs: 3 }]), [['mine (1/3)', 'mine (2/3)', 'mine (3/3)']]);
    assert.deepEqual(
      labelsFor('mine', [
        { path: '/x/a.json', runs: 1 },
        { path: 'b.csv', runs: 2 },
      ]),
      [['mine (a.json)'], ['mine (b.csv, 1/2)', 'mine (b.csv, 2/2)']],
    );
  });
});

describe('diskdelta import', () => {
  it('stores exactly what the importer read, from several files, with a label', async () => {
    const db = freshDb();
    const result = await runCli(['import', good1, good2, '--label', 'old laptop', '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Imported 2 runs from 2 files into /);
    const stored = allRuns(db);
    // Runs of two files are not one numbered series: each names its file.
    assert.deepEqual(
      stored.map((r) => r.label),
      ['old laptop (good-1.csv)', 'old laptop (good-2.csv)'],
    );
    assert.deepEqual(
      stored.map((r) => r.source),
      ['imported', 'imported'],
    );
    const parsed = [...parseImport(readFileSync(good1, 'utf8'), 'good-1.csv'), ...parseImport(readFileSync(good2, 'utf8'), 'good-2.csv')];
    assert.deepEqual(stored.map(figures), parsed.map(figures));
  });

  it('importing the same files again adds nothing and names the runs already there', async () => {
    const db = freshDb();
    // both.csv is good-1.csv with a second row appended: its first row is the run good-1.csv holds.
    const both = file('both.csv', `${BONNIE_HEADER}\n${BONNIE_ROW_1}\n${BONNIE_ROW_2}\n`);
    const first = await runCli(['import', good1, both, '--db', db]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      /\nSkipped 1 run already in the library:\n {2}.*both\.csv, run 1 of 2: already in the library as #1 \(the same measurement \(figures, target and machine\), from another file or an export\)\n$/,
    );
    assert.equal(allRuns(db).length, 2);
    for (let i = 0; i < 2; i++) {
      const again = await runCli(['import', good1, both, '--label', 'renamed', '--db', db]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(
        again.stdout,
        `Nothing imported: every run is already in ${db}:\n` +
          `  ${good1}: already in the library as #1 (this file was imported before)\n` +
          `  ${both}, run 1 of 2: already in the library as #1 (the same measurement (figures, target and machine), from another file or an export)\n` +
          `  ${both}, run 2 of 2: already in the library as #2 (this file was imported before)\n`,
      );
      assert.equal(allRuns(db).length, 2);
    }
    assert.deepEqual(
      allRuns(db).map((r) => r.label.startsWith('renamed')),
      [false, false],
      'skipped runs are left as they were',
    );
    // good-2.csv is both.csv's second row alone: new bytes, the same run.
    const mixed = await runCli(['import', good2, '--db', db]);
    assert.equal(mixed.code, 0, mixed.stderr);
    assert.match(mixed.stdout, /^Nothing imported: .*\n {2}.*good-2\.csv: already in the library as #2 \(the same measurement/);
    assert.equal(allRuns(db).length, 2);
  });

  it('importing one’s own export (all of it, or a run of it relabelled) adds nothing, and says why', async () => {
    const db = freshDb();
    assert.equal((await runCli(['import', good1, good2, '--db', db])).code, 0);
    assert.equal((await runCli(['label', '1', 'old laptop', '--db', db])).code, 0);
    const exported = join(dir, 'own-export.json');
    assert.equal((await runCli(['export', '1', '2', '--format', 'json', '--out', exported, '--db', db])).code, 0);
    const back = await runCli(['import', exported, '--db', db]);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(
      back.stdout,
      `Nothing imported: every run is already in ${db}:\n` +
        `  ${exported}, run 1 of 2: already in the library as #1 (the same measurement (figures, target and machine), from another file or an export)\n` +
        `  ${exported}, run 2 of 2: already in the library as #2 (the same measurement (figures, target and machine), from another file or an export)\n`,
    );
    assert.equal(allRuns(db).length, 2);
  });

  it('a fio import lists no device rather than its test file path; the path stays the target', async () => {
    const db = freshDb();
    const fio = fileURLToPath(new URL('../../node/formats/fixtures/fio-3.33-json.json', import.meta.url));
    assert.equal((await runCli(['import', fio, '--db', db])).code, 0);
    const row = (await runCli(['list', '--db', db])).stdout.split('\n')[1]!;
    assert.match(row, /^1 +\S+ \S+( \(saved \S+\))? +disk +\[imported\] fio +— +\d+ /);
    assert.doesNotMatch(row, /\/tmp\/fmt-fio\/testfile/);
    assert.match((await runCli(['show', '1', '--db', db])).stdout, /target +\/tmp\/fmt-fio\/testfile/);
  });

  it('a bad file among good ones: exit 1, its name and line in the message, nothing imported', async () => {
    const db = freshDb();
    assert.equal((await runCli(['import', good1, '--db', db])).code, 0);
    const before = allRuns(db);
    const broken = file('broken.json', '{\n  "fio version": "fio-3.33",\n  "jobs": [\n    {"jobname": "x", \n');
    const result = await runCli(['import', good2, broken, '--db', db]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^diskdelta import: broken\.json(:\d+)?: .*; nothing was imported\n$/);
    assert.deepEqual(allRuns(db), before);
  });

  it('unreadable paths and unknown formats are refused the same way', async () => {
    const db = freshDb();
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.csv'), /cannot read .*missing\.csv: no such file; nothing was imported/],
      [dir, /: a folder, not a file: import reads result files only; nothing was imported/],
      [file('notes.txt', 'just some notes\nabout my disk\n'), /notes\.txt: unrecognised format/],
    ];
    for (const [path, message] of cases) {
      const result = await runCli(['import', good1, path, '--db', db]);
      assert.equal(result.code, 1, path);
      assert.match(result.stderr, message);
    }
    assert.deepEqual(allRuns(db), []);
  });

  it('truncated or corrupted files never leave a partial import (property)', async () => {
    const db = freshDb();
    const valid = `${BONNIE_HEADER}\n${BONNIE_ROW_1}\n${BONNIE_ROW_2}\n`;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: valid.length }),
        fc.option(fc.tuple(fc.nat({ max: valid.length }), fc.string({ minLength: 1, maxLength: 5 })), { nil: undefined }),
        async (cut, corruption) => {
          let text = valid.slice(0, cut);
          if (corruption) text = text.slice(0, corruption[0]) + corruption[1] + text.slice(corruption[0]);
          const path = file('mutated.csv', text);
          const before = allRuns(db).length;
          const result = await runCli(['import', good1, path, '--db', db]);
          const after = allRuns(db).length;
          if (result.code === 0) {
            // good-1.csv is new only the first time; after that it is named as already there.
            const imported = Number(/^Imported (\d+) run/m.exec(result.stdout)?.[1] ?? 0);
            assert.equal(after, before + imported, 'adds exactly the runs it reports');
            assert.ok(imported > 0 || result.stdout.includes(`${good1}: already in the library as #`), result.stdout);
          } else {
            assert.equal(result.code, 1);
            assert.match(result.stderr, /mutated\.csv/);
            assert.equal(after, before, 'failed import leaves the library unchanged');
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('usage: files and --reference do not mix; no files is a usage error', async () => {
    assert.equal((await runCli(['import', '--reference', good1, '--db', freshDb()])).code, 2);
    assert.equal((await runCli(['import', '--db', freshDb()])).code, 2);
    assert.equal((await runCli(['import', good1, '--label', ' ', '--db', freshDb()])).code, 2);
  });
});

describe('diskdelta import of what is not a result file', () => {
  it('a FIFO, /dev/zero, a /proc file and a folder are refused before opening; nothing hangs, nothing is imported', async () => {
    const db = freshDb();
    const fifo = join(dir, 'results.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const cases: Array<[string, RegExp]> = [
      [fifo, /results\.fifo: a FIFO \(named pipe\), not a file: import reads result files only; nothing was imported/],
      ['/dev/zero', /zero: a character device, not a file/],
      ['/proc/self/status', /status: a file of proc, a virtual filesystem the kernel makes up/],
      ['/sys/kernel/mm/transparent_hugepage/enabled', /enabled: a file of sysfs/],
      [dir, /a folder, not a file/],
    ];
    for (const [path, says] of cases) {
      if (!existsSync(path)) continue;
      // A hang (the old open() of a FIFO waits for a writer forever) fails here instead of stalling the suite.
      let hang: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        runCli(['import', path, '--db', db]),
        new Promise<never>((_, reject) => {
          hang = setTimeout(() => {
            // Release the blocked reader (a writer opens and closes), so the suite can end.
            if (path === fifo) closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
            reject(new Error(`import ${path} hung`));
          }, 20_000);
        }),
      ]).finally(() => clearTimeout(hang)); // else it fires later, opening a FIFO nobody reads (ENXIO)
      assert.equal(result.code, 1, path);
      assert.match(result.stderr, says, path);
    }
    assert.equal(allRuns(db).length, 0);
  });

  it('a 5,000-character path is named by its ends and length, not echoed whole', async () => {
    const long = join(dir, 'x'.repeat(3000), 'y'.repeat(2000));
    const result = await runCli(['import', long, '--db', freshDb()]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^diskdelta import: cannot read .*x…y+ \(a path of \d+ characters\): the name is too long; nothing was imported\n$/,
    );
    assert.ok(result.stderr.length < 400);
  });
});

describe('diskdelta export', () => {
  it('JSON export → import into another library gives the same numbers', async () => {
    const from = freshDb();
    assert.equal((await runCli(['import', good1, good2, '--db', from])).code, 0);
    const out = join(dir, 'export.json');
    const exported = await runCli(['export', '1', '2', '--format', 'json', '--out', out, '--db', from]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, /Exported 2 runs to .*export\.json \(json\)/);
    const to = freshDb();
    assert.equal((await runCli(['import', out, '--db', to])).code, 0);
    const original = allRuns(from);
    const copy = allRuns(to);
    assert.deepEqual(
      copy.map(figures),
      original.map((run) => ({ ...figures(run), sourceFormat: 'diskdelta' })),
    );
    assert.deepEqual(
      copy.map((r) => [r.label, r.createdAt]),
      original.map((r) => [r.label, r.createdAt]),
    );
  });

  it('CSV to standard output; unknown ids exit 1; a bad --format exits 2', async () => {
    const db = freshDb();
    assert.equal((await runCli(['import', good1, '--db', db])).code, 0);
    const csv = await runCli(['export', '1', '--format', 'csv', '--db', db]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.match(csv.stdout.split('\n')[0]!, /^run,label,created_at,source/);
    assert.ok(csv.stdout.includes('fixturehost'));
    const missing = await runCli(['export', '1', '7', '--db', db]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no run 7/);
    assert.equal((await runCli(['export', '1', '--format', 'xml', '--db', db])).code, 2);
    const unwritable = await runCli(['export', '1', '--out', join(dir, 'no-such-folder', 'x.json'), '--db', db]);
    assert.equal(unwritable.code, 1);
    assert.match(unwritable.stderr, /cannot write .*x\.json: the folder .*no-such-folder does not exist/);
    assert.doesNotMatch(unwritable.stderr, /\.tmp/, 'the hidden temporary file is never named');
  });

  it('--out never replaces what is there: devices stay devices, a file needs --force and keeps its inode', async () => {
    const db = freshDb();
    assert.equal((await runCli(['import', good1, '--db', db])).code, 0);
    const existing = file('existing.json', 'keep me');
    const refused = await runCli(['export', '1', '--out', existing, '--db', db]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already exists and was left unchanged: add --force to replace it/);
    assert.equal(readFileSync(existing, 'utf8'), 'keep me');
    const inode = statSync(existing).ino;
    assert.equal((await runCli(['export', '1', '--out', existing, '--force', '--db', db])).code, 0);
    assert.equal(statSync(existing).ino, inode);
    assert.equal((JSON.parse(readFileSync(existing, 'utf8')) as { runs: unknown[] }).runs.length, 1);
    // Only after the file checks, which fail harmlessly on a writer that renames over targets.
    const toNull = await runCli(['export', '1', '--out', '/dev/null', '--db', db]);
    assert.equal(toNull.code, 0, toNull.stderr);
    assert.ok(statSync('/dev/null').isCharacterDevice(), '/dev/null is still a device');
    const toFull = await runCli(['export', '1', '--out', '/dev/full', '--db', db]);
    assert.equal(toFull.code, 1, 'a write error is an error');
    assert.match(toFull.stderr, /cannot write \/dev\/full: no space left/);
  });
});

describe('reference runs', () => {
  it('import --reference, then compare tells the seed story: ×3.29 and ×1.73 against the baseline, ×69.5', async (t) => {
    if (!existsSync(REFERENCE_DIR)) {
      t.skip(`the reference data is not in this tree yet (${REFERENCE_DIR})`);
      return;
    }
    const db = freshDb();
    const imported = await runCli(['import', '--reference', '--db', db]);
    assert.equal(imported.code, 0, imported.stderr);
    const again = await runCli(['import', '--reference', '--db', db]);
    assert.match(again.stdout, /already in/);
    const summaries = JSON.parse((await runCli(['list', '--json', '--db', db])).stdout) as Array<{
      id: number;
      label: string;
      source: string;
    }>;
    assert.ok(summaries.every((s) => s.source === 'reference'));
    const find = (re: RegExp) => {
      const s = summaries.find((x) => re.test(x.label));
      assert.ok(s, `a reference run matching ${re}: ${summaries.map((x) => x.label).join(' | ')}`);
      return String(s.id);
    };
    const hdd = find(/hard disk|HDD/i);
    const crypt = find(/dm-crypt/i);
    const ssd = summaries.find((s) => /SSD/.test(s.label) && !/dm-crypt/i.test(s.label) && String(s.id) !== hdd)!;
    const story = await runCli(['compare', hdd, String(ssd.id), crypt, '--db', db]);
    assert.equal(story.code, 0, story.stderr);
    const read = story.stdout.slice(story.stdout.indexOf('sequential read'));
    assert.match(read, /#2 .*×3\.29 .*better/);
    assert.match(read, /#3 .*×1\.73 .*better/, 'against the baseline, never the neighbour (#39)');
    assert.doesNotMatch(read, /\| vs #/);
    assert.match(story.stdout.slice(story.stdout.indexOf('random seeks')), /#2 .*×69\.5 .*better/);
    assert.match(story.stdout, /reference data \(published figures shipped with DiskDelta\)/);
  });
});

describe('a real measured run survives export → import', () => {
  it('carries the machine facts a measurement records (device reasons, threads, fstrim …) and the same numbers', async () => {
    // Synthetic runs lack the optional machine fields a real run has; a strict importer that
    // did not know them once refused DiskDelta's own exports. So: measure for real.
    const target = mkdtempSync(join(dir, 'target-'));
    const db = freshDb();
    const run = await runCli([
      'run',
      '--target',
      target,
      '--tests',
      'rnd4k-q1t1-read,seeks',
      '--size',
      '16MiB',
      '--duration',
      '0.2',
      '--warmup',
      '0',
      '--runs',
      '2',
      '--db',
      db,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const exported = join(dir, 'measured.json');
    assert.equal((await runCli(['export', '1', '--format', 'json', '--out', exported, '--db', db])).code, 0);
    const original = JSON.parse(readFileSync(exported, 'utf8')).runs[0] as RunRecord;
    assert.ok(original.system && original.target.device, 'the measured run records its machine and device');
    // Into the same library it is the run already there; into another, the same run again.
    const same = await runCli(['import', exported, '--db', db]);
    assert.match(same.stdout, /^Nothing imported: .*\n.*already in the library as #1 \(the same measurement/);
    const other = freshDb();
    const back = await runCli(['import', exported, '--db', other]);
    assert.equal(back.code, 0, back.stderr);
    const library = openLibrary({ dbPath: other });
    try {
      const reimported = library.getRun(1)!;
      assert.deepEqual(figures(reimported).results, figures(original).results);
      assert.deepEqual(reimported.system, original.system);
      assert.deepEqual(reimported.target, original.target);
    } finally {
      library.close();
    }
  });

  it('a shipped reference file imported by name is kept as the reference data, once: not an imported copy beside it', async () => {
    const db = freshDb();
    const intel = join(REFERENCE_DIR, '2013-intel-525-discard.json');
    const first = await runCli(['import', intel, '--db', db]);
    assert.equal(first.code, 0, first.stderr);
    const list = async () =>
      (JSON.parse((await runCli(['list', '--json', '--db', db])).stdout) as Array<{ label: string; source: string }>).map((r) => [
        r.source,
        r.label,
      ]);
    const afterFile = await list();
    assert.equal(afterFile.length, 2);
    assert.ok(
      afterFile.every(([source]) => source === 'reference'),
      JSON.stringify(afterFile),
    );
    // Neither the file again nor --reference adds the same published runs a second time.
    assert.match((await runCli(['import', intel, '--db', db])).stdout, /Nothing imported: every run is already in/);
    assert.equal((await runCli(['import', '--reference', '--db', db])).code, 0);
    const all = await list();
    assert.equal(new Set(all.map(([, label]) => label)).size, all.length, `each reference run once: ${JSON.stringify(all)}`);
    // A copy with another label is the same measurement; one with a figure edited is not the
    // published data: an import like any other.
    const relabelled = JSON.parse(readFileSync(intel, 'utf8')) as { runs: Array<{ label: string }> };
    relabelled.runs[0]!.label = 'my own Intel 525';
    assert.match(
      (await runCli(['import', file('relabelled-reference.json', JSON.stringify(relabelled)), '--db', db])).stdout,
      /run 1 of 2: already in the library as #1 \(the same measurement/,
    );
    const edited = JSON.parse(readFileSync(intel, 'utf8')) as {
      runs: Array<{ label: string; results: Array<{ figures: Array<{ value: number }> }> }>;
    };
    edited.runs[0]!.label = 'my own Intel 525';
    edited.runs[0]!.results[0]!.figures[0]!.value += 0.001;
    const copy = file('edited-reference.json', JSON.stringify(edited));
    assert.equal((await runCli(['import', copy, '--db', db])).code, 0);
    assert.deepEqual(
      (await list()).filter(([, label]) => label === 'my own Intel 525'),
      [['imported', 'my own Intel 525']],
    );
  });
});
