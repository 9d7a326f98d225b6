// The library commands through main(), as `diskdelta …` runs them: output and exit codes
// (0 success, 1 failure such as an unknown id, 2 bad usage). Two cases also run the real
// executable to check that the exit code reaches the shell.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../run-cli-in-process.ts';
import { openLibrary } from '../../node/store/library.ts';
import { syntheticRun } from '../../node/store/fixtures/synthetic-run.ts';
import { formatRun } from './show.ts';
import { LIST_PAGE } from './list.ts';
import { thisCpu } from '../../node/crypto/cipher-ceilings.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-cli-library-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('library commands', () => {
  const db = join(dir, 'library.sqlite');
  const ids: number[] = [];
  before(() => {
    const library = openLibrary({ dbPath: db });
    ids.push(
      library.saveRun(syntheticRun(1)),
      library.saveRun({ ...syntheticRun(2), source: 'reference', label: 'the 2011 laptop disk' }),
      library.saveRun(syntheticRun(3)),
    );
    library.close();
  });

  it('list prints every run, reference runs marked; --json gives the summaries', async () => {
    const text = await runCli(['list', '--db', db]);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID +DATE +KIND +SOURCE +DEVICE +TESTS +WARNINGS +LABEL$/);
    assert.equal(lines.length, 4);
    assert.match(lines[2]!, /^2 .*\[reference\] diskdelta .*the 2011 laptop disk$/);
    const json = await runCli(['list', '--json', '--db', db]);
    assert.deepEqual(
      JSON.parse(json.stdout).map((s: { id: number }) => s.id),
      ids,
    );
  });

  it('list on an empty library says how to add runs', async () => {
    const result = await runCli(['list', '--db', join(dir, 'empty.sqlite')]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /No runs in .*empty\.sqlite yet/);
  });

  it('show prints the context and results; --json is the stored run', async () => {
    const text = await runCli(['show', String(ids[1]), '--db', db, '--unit', 'MiB']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Run 2: the 2011 laptop disk {2}\[REFERENCE\]/);
    assert.match(text.stdout, /device +sdz, Synthetic SSD 2, SATA SSD, serial SYN2, 112 GiB, sata, link SATA 3.0 Gb\/s\n/);
    // The stack as `inspect` shows it: one layer a line, in words, a missing detail as "?".
    assert.match(
      text.stdout,
      /stack +from the file down to the disk:\n +1\. file +diskdelta-test\.tmp\n +2\. mount +\/mnt\/synthetic .*\n +3\. dm-crypt +luks-x .*aes-xts-plain64, 512-bit key.*\n +4\. disk +sdz/,
    );
    assert.doesNotMatch(text.stdout, /undefined|[a-z][A-Z]\w*=/, 'no model keys (fsType=…), no "undefined"');
    assert.match(text.stdout, /seq1m-q8t1-read +read 4 KiB Q1T1 +95.37 MiB\/s/);
    assert.match(text.stdout, /Sequential Output Per Chr: 812 K\/sec/);
    assert.match(text.stdout, /\nFrom the source file\n {2}synthetic {3}yes\n/);
    assert.match(text.stdout, /seq1m-q8t1-read: synthetic warning on test 0 \[noisy\]/);
    const json = await runCli(['show', `#${ids[1]}`, '--json', '--db', db]);
    const library = openLibrary({ dbPath: db });
    assert.deepEqual(JSON.parse(json.stdout), library.getRun(ids[1]!));
    library.close();
  });

  it('compare tells the 2011 story with its encryption part: run 2 forecast under dm-crypt on this CPU, labelled estimated', async () => {
    const story = join(dir, 'story.sqlite');
    assert.equal((await runCli(['import', '--reference', '--db', story])).code, 0);
    const library = openLibrary({ dbPath: story });
    const cpu = await thisCpu();
    library.saveCipherCeilings({
      source: 'kernel',
      sourceLabel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
      backend: 'af_alg',
      cpus: cpu.cpus,
      cpu: { model: cpu.model, aesNi: false, vaes: false, flags: [] },
      figures: [1, cpu.cpus].map((threads) => ({
        cipher: 'aes-xts-plain64',
        keyBits: 512,
        kernelName: 'xts(aes)',
        sectorBytes: 65536,
        threads,
        encryptBps: 70e6,
        decryptBps: 70e6,
      })),
      unavailable: [],
      warnings: [],
      measuredAt: '2026-12-01T14:00:00.000Z',
      windowSeconds: 0.2,
      rounds: 5,
    });
    library.close();
    const text = await runCli(['compare', '1', '2', '3', '--db', story]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /#2 SSD: 135\.9 MB\/s published \(reference\); under dm-crypt on this CPU 70\.0 MB\/s \(estimated\), ceiling: cipher/,
    );
    assert.match(text.stdout, /one core decrypting at ~70 MB\/s was the ceiling/);
    const json = JSON.parse((await runCli(['compare', '1', '2', '3', '--json', '--db', story])).stdout);
    assert.equal(json.encryption.columns[1].forecast.provenance, 'estimated');
    assert.equal(json.encryption.columns[1].ceiling, 'cipher');
    assert.equal(json.encryption.cipher.oneCore, 70e6);
  });

  it('compare prints ratios to the first run, in the unit asked for', async () => {
    const text = await runCli(['compare', '1', '2', '3', '--unit', 'KB', '--db', db]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Throughput in KiB\/s/);
    // The synthetic result is flagged noisy: its figure carries the flag (issue #40, item 8).
    assert.match(text.stdout, /#2 {2}97,656 KiB\/s \(noisy, CV 1\.3 %\) +×1\.00 {2}±0\.0 % {2}same {2}\(within spread: may be noise\)/);
    const json = await runCli(['compare', '3', '1', '--json', '--db', db]);
    const comparison = JSON.parse(json.stdout);
    assert.deepEqual(
      comparison.runs.map((r: { id: number }) => r.id),
      [3, 1],
    );
    assert.equal(comparison.rows[0].cells[1].vsBaseline.ratio, (100e6 + 1) / (100e6 + 3));
  });

  it('label renames; unknown ids fail with exit code 1 and name the id', async () => {
    assert.equal((await runCli(['label', '1', 'before', 'the', 'upgrade', '--db', db])).code, 0);
    assert.match((await runCli(['list', '--db', db])).stdout, /^1 .* before the upgrade$/m);
    const missing = await runCli(['label', '99', 'x', '--db', db]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^diskdelta label: no run 99 in the library .*library\.sqlite/);
    const compare = await runCli(['compare', '1', '98', '99', '--db', db]);
    assert.equal(compare.code, 1);
    assert.match(compare.stderr, /no runs 98, 99/);
  });

  it('usage mistakes exit with 2', async () => {
    for (const args of [
      ['show'],
      ['show', 'abc'],
      ['compare', '1'],
      ['compare', '1', '2', '--unit', 'GB'],
      ['label', '1'],
      ['delete'],
      ['list', '--bogus'],
    ]) {
      const result = await runCli([...args, '--db', db]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^diskdelta \w+: /);
    }
  });

  it('delete checks every id first, then removes', async () => {
    const partly = await runCli(['delete', '3', '99', '--db', db]);
    assert.equal(partly.code, 1);
    assert.equal((await runCli(['show', '3', '--db', db])).code, 0, 'run 3 is still there');
    const done = await runCli(['delete', '3', '--db', db]);
    assert.equal(done.code, 0);
    assert.match(done.stdout, /Deleted run 3/);
    assert.equal((await runCli(['show', '3', '--db', db])).code, 1);
  });

  it('a file that is not a library is refused with its name', async () => {
    const bogus = join(dir, 'notes.txt');
    writeFileSync(bogus, 'not a database\n'.repeat(300));
    const result = await runCli(['list', '--db', bogus]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot open the library .*notes\.txt/);
  });

  it(
    'a library folder that cannot be made (under /proc: mkdir says ENOENT) is refused at once, not retried forever',
    // A bound for retrying forever, not a timing: a CLI start takes tens of seconds at a load of 30.
    { timeout: 180_000 },
    async () => {
      const result = await runCli(['list', '--db', '/proc/diskdelta-no-such/library.sqlite']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /cannot open the library \/proc\/diskdelta-no-such\/library\.sqlite: ENOENT/);
    },
  );

  it('the exit code reaches the shell', () => {
    const bin = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));
    const missing = spawnSync(process.execPath, [bin, 'show', '99', '--db', db], { encoding: 'utf8' });
    assert.equal(missing.status, 1, missing.stderr);
    const usage = spawnSync(process.execPath, [bin, 'compare', '1', '--db', db], { encoding: 'utf8' });
    assert.equal(usage.status, 2, usage.stderr);
  });
});

describe('a library on a read-only mount', () => {
  it(
    'list, show, export and compare read it; label says it cannot write',
    { skip: process.getuid?.() !== 0 && 'needs root for a read-only bind mount' },
    async (t) => {
      const src = join(dir, 'ro-src');
      const ro = join(dir, 'ro-mount');
      mkdirSync(src);
      mkdirSync(ro);
      const library = openLibrary({ dbPath: join(src, 'library.sqlite') });
      const id = String(library.saveRun({ ...syntheticRun(1), label: 'on a read-only disk' }));
      library.close();
      assert.equal(spawnSync('mount', ['--bind', src, ro]).status, 0);
      t.after(() => spawnSync('umount', [ro]));
      assert.equal(spawnSync('mount', ['-o', 'remount,bind,ro', ro]).status, 0);
      const db = join(ro, 'library.sqlite');
      const list = await runCli(['list', '--db', db]);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /on a read-only disk/);
      assert.equal((await runCli(['show', id, '--db', db])).code, 0);
      assert.equal((await runCli(['compare', id, id, '--db', db])).code, 0);
      const exported = await runCli(['export', id, '--db', db]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal((JSON.parse(exported.stdout) as { runs: unknown[] }).runs.length, 1);
      const label = await runCli(['label', id, 'new', '--db', db]);
      assert.equal(label.code, 1);
      assert.match(label.stderr, /the library .*library\.sqlite is on a read-only filesystem and cannot be changed there/);
    },
  );
});

describe('terminal escapes never reach the terminal', () => {
  const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
  const CLEAR = '\u001b[2J\u001b[H';

  it('a label or text in the library (stored by an older version) is printed escaped by list, show and label', async () => {
    const db = join(dir, 'escapes.sqlite');
    const library = openLibrary({ dbPath: db });
    const run = syntheticRun(1);
    const id = library.saveRun({ ...run, label: `pwned${CLEAR}${OSC52}`, target: { ...run.target, path: `/mnt/${CLEAR}x` } });
    library.close();
    for (const args of [['list'], ['show', String(id)], ['compare', String(id), String(id)]]) {
      const result = await runCli([...args, '--db', db]);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(
        result.stdout + result.stderr,
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/,
        `${args[0]}: no raw control character`,
      );
      assert.ok(result.stdout.includes('\\u001b]52;c;'), `${args[0]} shows the escape as text`);
    }
  });

  it('export to a pipe or a file: no raw control character in CSV or JSON, and the JSON still holds the text', async () => {
    const db = join(dir, 'escapes-export.sqlite');
    const library = openLibrary({ dbPath: db });
    const run = syntheticRun(1);
    const label = `pwned${CLEAR}${OSC52}\u009b2J\u202eevil`;
    const id = String(library.saveRun({ ...run, label, target: { ...run.target, path: `/mnt/${CLEAR}x` } }));
    library.close();
    const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const csv = await runCli(['export', id, '--format', 'csv', '--db', db]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.doesNotMatch(csv.stdout, RAW, 'CSV on stdout (a pipe here): no raw control character');
    assert.ok(csv.stdout.includes('pwned\\u001b[2J'), 'the escape is shown as text');
    const json = await runCli(['export', id, '--db', db]);
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stdout, RAW, 'JSON on stdout: C1 and bidi marks escaped too');
    assert.equal((JSON.parse(json.stdout) as { runs: Array<{ label: string }> }).runs[0]?.label, label, 'JSON escapes lose nothing');
    const file = join(dir, 'escapes-out.csv');
    assert.equal((await runCli(['export', id, '--format', 'csv', '--out', file, '--db', db])).code, 0);
    assert.doesNotMatch(readFileSync(file, 'utf8'), RAW, 'the same in a file');
  });

  it('label, run --label and import --label refuse control characters (exit 2)', async () => {
    const db = join(dir, 'escapes-2.sqlite');
    const library = openLibrary({ dbPath: db });
    const id = library.saveRun(syntheticRun(1));
    library.close();
    const label = await runCli(['label', String(id), `x${OSC52}`, '--db', db]);
    assert.equal(label.code, 2);
    assert.match(label.stderr, /the label holds the control character U\+001B: labels are plain text/);
    assert.doesNotMatch(label.stderr, /\u001b/);
    const run = await runCli(['run', '--target', dir, '--label', `SSD${CLEAR}`, '--no-save']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--label holds the control character U\+001B/);
    const file = join(dir, 'some.csv');
    writeFileSync(file, 'x');
    const imported = await runCli(['import', file, '--label', 'a\u009bb', '--db', db]);
    assert.equal(imported.code, 2);
    assert.match(imported.stderr, /U\+009B/);
  });

  it('an imported file whose JSON escapes decode to control characters is refused, naming the field', async () => {
    const db = join(dir, 'escapes-3.sqlite');
    const source = openLibrary({ dbPath: db });
    const id = source.saveRun(syntheticRun(1));
    source.close();
    const out = join(dir, 'escapes-export.json');
    assert.equal((await runCli(['export', String(id), '--out', out, '--db', db])).code, 0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { runs: Array<{ label: string }> };
    doc.runs[0]!.label = `pwned${OSC52}`;
    writeFileSync(out, JSON.stringify(doc)); // JSON.stringify writes ESC as the escape \u001b
    const result = await runCli(['import', out, '--db', join(dir, 'escapes-4.sqlite')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /run 1\.label holds the control character U\+001B, which a terminal would obey/);
    assert.doesNotMatch(result.stderr, /\u001b/);
  });
});

describe('list filters', () => {
  const db = join(dir, 'filters.sqlite');
  before(() => {
    const library = openLibrary({ dbPath: db });
    // syntheticRun(n): imported, device "Synthetic SSD n%7" (SATA SSD), created 2026-01-01 plus n minutes.
    const hdd = { ...syntheticRun(2), source: 'reference' as const, label: 'The 2011 HDD', createdAt: '2011-06-01T00:00:00.000Z' };
    hdd.target = { ...hdd.target, device: { ...hdd.target.device!, model: 'Hitachi HTS54', class: 'HDD' } };
    library.saveRun(syntheticRun(1));
    library.saveRun(hdd);
    library.saveRun({ ...syntheticRun(3), source: 'measured', label: 'after the firmware update' });
    library.close();
  });
  const idsOf = async (...flags: string[]) => {
    const result = await runCli(['list', '--json', ...flags, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout).map((s: { id: number }) => s.id);
  };

  it('filters by source, label, device, date and count, combined', async () => {
    assert.deepEqual(await idsOf('--source', 'reference'), [2]);
    assert.deepEqual(await idsOf('--source', 'measured'), [3]);
    assert.deepEqual(await idsOf('--label', 'FIRMWARE'), [3]);
    assert.deepEqual(await idsOf('--device', 'hitachi'), [2], 'model');
    assert.deepEqual(await idsOf('--device', 'sata ssd'), [1, 3], 'class');
    assert.deepEqual(await idsOf('--since', '2026-01-01'), [1, 3]);
    assert.deepEqual(await idsOf('--limit', '2'), [2, 3], 'the newest two, oldest first');
    assert.deepEqual(await idsOf('--source', 'imported', '--device', 'ssd', '--limit', '1'), [1]);
    const none = await runCli(['list', '--label', 'no such run', '--db', db]);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /^No runs in .*filters\.sqlite match these filters\.\n$/);
  });

  it('bad filter values are usage errors (exit 2) that say what is expected', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--source', 'guessed'], /--source 'guessed' is not a source: use measured, imported, reference/],
      [['--label', ' '], /--label is empty/],
      [['--device', 'x'.repeat(201)], /--device is 201 characters long/],
      [['--since', '2026-02-30'], /--since '2026-02-30' is not a date: February 2026 has days 01 to 28; write YYYY-MM-DD/],
      // Once a RangeError with a stack trace: every impossible date is the same usage error.
      [['--since', '2026-13-01'], /--since '2026-13-01' is not a date: there is no month 13; write YYYY-MM-DD/],
      [['--since', '2026-01-32'], /--since '2026-01-32' is not a date: January 2026 has days 01 to 31/],
      [['--since', '0000-00-00'], /--since '0000-00-00' is not a date: there is no month 00/],
      [['--since', '2026-04-00'], /--since '2026-04-00' is not a date: April 2026 has days 01 to 30/],
      [['--since', 'yesterday'], /is not a date/],
      [['--limit', '0'], /--limit '0' is out of range/],
      [['--limit', 'ten'], /--limit 'ten' is not a whole number/],
      [['--since'], /argument missing|--since/],
    ];
    for (const [flags, message] of cases) {
      const result = await runCli(['list', ...flags, '--db', db]);
      assert.equal(result.code, 2, `${flags.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
  });
});

describe('list of a large library', () => {
  const db = join(dir, 'large.sqlite');
  const RUNS = 2 * LIST_PAGE + 30;
  before(() => {
    const library = openLibrary({ dbPath: db });
    library.saveRuns(Array.from({ length: RUNS }, (_, i) => ({ ...syntheticRun(i), label: i % 2 ? `odd ${i}` : `even ${i}` })));
    library.close();
  });

  it('shows a page of the newest runs and says how many more there are; --all, --limit and --json give the rest', async () => {
    const text = await runCli(['list', '--db', db]);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1 + LIST_PAGE + 1, 'heading, a page of runs, the note');
    assert.match(lines[1]!, new RegExp(`^${RUNS - LIST_PAGE + 1} `), 'the page starts at the oldest of the newest');
    assert.match(lines.at(-2)!, new RegExp(`^${RUNS} `));
    assert.equal(
      lines.at(-1),
      `${LIST_PAGE} of ${RUNS} runs shown, the most recently saved: --limit N shows N, --all every one, filters narrow the list.`,
    );
    const all = await runCli(['list', '--all', '--db', db]);
    assert.equal(all.stdout.trimEnd().split('\n').length, 1 + RUNS, 'every run, no note');
    // A filter's count is of the matching runs, not of the library.
    const odd = await runCli(['list', '--label', 'odd', '--db', db]);
    assert.match(odd.stdout, new RegExp(`\n${LIST_PAGE} of ${RUNS / 2} runs shown`));
    const limited = await runCli(['list', '--limit', '5', '--db', db]);
    assert.match(limited.stdout, new RegExp(`\n5 of ${RUNS} runs shown`));
    assert.equal(JSON.parse((await runCli(['list', '--json', '--db', db])).stdout).length, RUNS, 'scripts get every run');
    const both = await runCli(['list', '--all', '--limit', '3', '--db', db]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--limit and --all contradict each other/);
  });
});

it('show of a run without a label (a measured run named by no --label) says how to name it, not "Run 7: "', () => {
  const text = formatRun({ ...syntheticRun(1), id: 7, label: '', source: 'measured' }, 'MB');
  assert.match(text, /^Run 7 \(no label: diskdelta label ID TEXT names it\)\n/);
});
