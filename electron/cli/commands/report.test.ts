// `diskdelta report`: the PDF as a reader gets it (text, vectors, embedded fonts, paper size),
// read back with poppler-utils, and every bad input refused with a clear message, the right
// exit code and no file (nor half a file) left behind.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../run-cli-in-process.ts';
import { findChromium } from '../../node/report/chromium-printer.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-cli-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, 'library.sqlite');
const LABELS = [
  'Laptop hard disk, ThinkPad X201i (2011)',
  'Intel 320 SSD, ThinkPad X201i (2011)',
  'Intel 320 SSD + dm-crypt (LUKS, AES-256), ThinkPad X201i (2011)',
];

const chromium = findChromium();
const poppler = spawnSync('pdftotext', ['-v']).error === undefined;
const noPdf = !chromium
  ? 'no Chromium here (Debian package "chromium")'
  : !poppler
    ? 'no pdftotext here (Debian package "poppler-utils")'
    : false;

before(async () => {
  const imported = await runCli(['import', '--reference', '--db', db]);
  assert.equal(imported.code, 0, imported.stderr);
});

/** Files in a folder other than those expected: a temporary name left behind would show here. */
const filesIn = (folder: string) => readdirSync(folder).sort();

describe('diskdelta report: the PDF', { skip: noPdf }, () => {
  const out = join(dir, 'r.pdf');
  before(async () => {
    const result = await runCli(['report', '1', '2', '3', '--out', out, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Wrote the report of 3 runs to .*r\.pdf \(PDF, A4\)/);
  });

  it('says ×3.29, ×1.73 and ×69.5 (each run against #1) and names every run (pdftotext)', () => {
    const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' });
    for (const figure of ['×3.29', '×1.73', '×69.5']) assert.ok(text.includes(figure), `${figure} in the PDF text`);
    // Labels may wrap in table cells: compare with whitespace collapsed.
    const flat = text.replace(/\s+/g, ' ');
    for (const label of LABELS) assert.ok(flat.includes(label), `label "${label}" in the PDF text`);
    for (const heading of ['Summary', 'Runs, disks and machines', 'Charts', 'Every figure', 'Notes and warnings', 'How it was measured'])
      assert.ok(text.includes(heading), heading);
    assert.match(text, /Page 1 of \d/);
    // The charts' own text (value labels drawn in the SVG, as Compare draws them: the unit is
    // in the chart's caption) is in the PDF: they were printed.
    assert.ok(text.includes('10,524 ×69.5'), 'the seeks chart bar label');
  });

  it('draws the charts as vectors: no raster image in the file (pdfimages -list)', () => {
    const list = execFileSync('pdfimages', ['-list', out], { encoding: 'utf8' }).trim().split('\n');
    assert.equal(list.length, 2, `only the header lines, got:\n${list.join('\n')}`);
  });

  it('embeds its fonts (pdffonts)', () => {
    const rows = execFileSync('pdffonts', [out], { encoding: 'utf8' }).trim().split('\n').slice(2);
    assert.ok(rows.length > 0, 'at least one font');
    for (const row of rows) assert.match(row, /\byes\s+yes\s+yes\b/, `embedded, subset, with a Unicode map: ${row}`);
  });

  it('is A4 by default and Letter with --paper letter', async () => {
    assert.match(execFileSync('pdfinfo', [out], { encoding: 'utf8' }), /Page size:\s+59\d\.\d+ x 841\.\d+ pts \(A4\)/);
    const letter = join(dir, 'letter.pdf');
    const result = await runCli(['report', '1', '2', '--paper', 'letter', '--out', letter, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(execFileSync('pdfinfo', [letter], { encoding: 'utf8' }), /Page size:\s+612(\.\d+)? x 792(\.\d+)? pts \(letter\)/);
  });

  it('replaces an existing file only with --force, and then whole', async () => {
    const before = readFileSync(out);
    const refused = await runCli(['report', '1', '--out', out, '--db', db]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /r\.pdf already exists and was left unchanged: add --force to replace it/);
    assert.deepEqual(readFileSync(out), before);
    const forced = await runCli(['report', '1', '--out', out, '--force', '--db', db]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(readFileSync(out).subarray(0, 5).toString(), '%PDF-');
    assert.notDeepEqual(readFileSync(out), before);
  });
});

describe('diskdelta report --html', () => {
  it('writes one self-contained page with every chart, without Chromium', async () => {
    const out = join(dir, 'r.html');
    const result = await runCli(['report', '1', '2', '3', '--html', '--out', out, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /^<!doctype html>/);
    assert.equal(html.match(/<svg /g)?.length, 2);
    assert.doesNotMatch(html, /<script|\bsrc=|\bhref=/i);
  });

  it('compares each run with the baseline chosen (--baseline), says so, and numbers the runs once (#39)', async () => {
    const out = join(dir, 'baseline.html');
    const result = await runCli(['report', '1', '2', '3', '--baseline', '2', '--html', '--out', out, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /3 runs · each run against #1 Intel 320 SSD, ThinkPad X201i \(2011\), the baseline/);
    assert.match(
      html,
      /#2 Laptop hard disk, ThinkPad X201i \(2011\) against #1 Intel 320 SSD, ThinkPad X201i \(2011\): Sequential read ×0\.30 \(70 % slower\)/,
    );
    assert.match(html, /#3 Intel 320 SSD \+ dm-crypt [^:]* against #1 Intel 320 SSD, ThinkPad X201i \(2011\): Sequential read ×0\.53/);
    // No run against its neighbour in the order given: nothing says "From #… to #…" or "vs #2".
    assert.doesNotMatch(html, /From #\d|vs #[2-9]/);
    // The encrypted run is set against the same drive unencrypted, not the run picked before it (the hard disk).
    assert.match(html, /The SSD&#x27;s sequential read fell from 135\.9 MB\/s to 71\.5 MB\/s \(−47 %\) under dm-crypt/);
    assert.doesNotMatch(html, /from 41\.3 MB\/s to 71\.5 MB\/s/);
  });
});

describe('diskdelta report: bad input', () => {
  const folder = join(dir, 'bad');
  mkdirSync(folder);
  const cases: Array<{ name: string; args: string[]; env?: Record<string, string>; code: number; message: RegExp }> = [
    { name: 'no runs', args: [], code: 2, message: /which runs\? Usage: diskdelta report ID/ },
    {
      name: 'more runs than fit',
      args: ['1', '2', '3', '4', '5', '1', '2'],
      code: 2,
      message: /at most 6 runs side by side; 7 were given/,
    },
    { name: 'not an id', args: ['one'], code: 2, message: /'one' is not a run id/ },
    {
      name: 'a baseline not among the runs',
      args: ['1', '2', '--baseline', '3'],
      code: 2,
      message: /--baseline 3 is not among the runs given \(1 2\): name one of them, e\.g\. --baseline 1/,
    },
    { name: 'unknown ids', args: ['1', '98', '99'], code: 1, message: /no runs 98, 99 in the library/ },
    { name: 'a bad paper size', args: ['1', '--paper', 'a3'], code: 2, message: /--paper 'a3' is not a paper size: use a4 or letter/ },
    {
      name: 'a folder that does not exist',
      args: ['1', '--out', join(folder, 'missing', 'r.pdf')],
      code: 1,
      message: /the folder .*missing does not exist; choose another --out/,
    },
    {
      name: 'Chromium missing',
      args: ['1', '--out', join(folder, 'r.pdf')],
      env: { DISKDELTA_CHROMIUM: join(folder, 'no-such-chromium') },
      code: 1,
      message: /no Chromium found .*install the Debian package "chromium"/,
    },
    {
      name: 'Chromium crashing at start',
      args: ['1', '--out', join(folder, 'r.pdf')],
      env: { DISKDELTA_CHROMIUM: '/bin/false' },
      code: 1,
      message: /Chromium \(\/bin\/false\) did not start: .*Reinstall the "chromium" package/,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: exit ${c.code}, a message saying what to do, no file`, async () => {
      const saved = { ...process.env };
      Object.assign(process.env, c.env ?? {});
      try {
        const result = await runCli(['report', ...c.args, '--db', db]);
        assert.equal(result.code, c.code, result.stderr);
        assert.match(result.stderr, c.message);
        assert.deepEqual(filesIn(folder), []);
      } finally {
        process.env = saved;
      }
    });
  }

  it(
    'a folder it may not write to: exit 1, nothing written',
    { skip: process.getuid?.() === 0 ? 'root writes to any folder; the permission check cannot fail here' : false },
    async () => {
      const locked = join(dir, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      const result = await runCli(['report', '1', '--html', '--out', join(locked, 'r.html'), '--db', db]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /is not writable; choose another --out/);
      assert.equal(existsSync(join(locked, 'r.html')), false);
    },
  );

  it('a device is written directly: --out /dev/null', async () => {
    const result = await runCli(['report', '1', '--html', '--out', '/dev/null', '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /to \/dev\/null \(HTML/);
  });

  it('a path holding terminal escapes (ESC, OSC, C1) is echoed escaped, written or refused', async () => {
    const hostile = join(dir, 'esc-\u001b]0;owned\u0007-\u009b2J');
    mkdirSync(hostile);
    const written = await runCli(['report', '1', '--html', '--out', join(hostile, 'r\u001b[2J.html'), '--db', db]);
    assert.equal(written.code, 0, written.stderr);
    const refused = await runCli(['report', '1', '--html', '--out', join(hostile, 'r\u001b[2J.html'), '--db', db]);
    assert.equal(refused.code, 1);
    for (const r of [written, refused]) {
      assert.doesNotMatch(r.stderr + r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'no raw control character');
      assert.ok(r.stderr.includes('\\u001b]0;owned\\u0007'), r.stderr);
    }
  });

  it('a path that is a folder: exit 1, the folder untouched', async () => {
    const target = join(dir, 'a-folder.pdf');
    mkdirSync(target);
    writeFileSync(join(target, 'keep'), 'x');
    const result = await runCli(['report', '1', '--html', '--force', '--out', target, '--db', db]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot write .*a-folder\.pdf: it is a folder; name a file inside it/);
    assert.deepEqual(readdirSync(target), ['keep']);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });
});
