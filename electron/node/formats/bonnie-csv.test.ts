// bonnie++ CSV import against real bonnie++ 2.00a output made on this machine and a 1.0x
// layout file: every figure of every row is checked against the file's own text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunRecord } from '../../shared/model/results.ts';
import { detectFormat, ImportError, parseImport } from './index.ts';
import { startWindowFromSeed } from './bonnie-csv.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-11-29T12:00:00.000Z');

// The column layouts as documented by bon_csv2txt (written out here independently of the
// importer's own tables, so a wrong table in the importer fails these tests).
const IO = 'putc putc_cpu put_block put_block_cpu rewrite rewrite_cpu getc getc_cpu get_block get_block_cpu seeks seeks_cpu'.split(' ');
const FILES =
  'seq_create seq_create_cpu seq_stat seq_stat_cpu seq_del seq_del_cpu ran_create ran_create_cpu ran_stat ran_stat_cpu ran_del ran_del_cpu'.split(
    ' ',
  );
const LAT = 'putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del'
  .split(' ')
  .map((f) => `${f}_latency`);
const COLS_198 = [
  'format_version',
  'bonnie_version',
  'name',
  'concurrency',
  'seed',
  'file_size',
  'io_chunk_size',
  'num_seeks',
  'seek_proc_count',
  ...IO,
  'num_files',
  'max_size',
  'min_size',
  'num_dirs',
  'file_chunk_size',
  ...FILES,
  ...LAT,
];
const COLS_103 = ['name', 'file_size', ...IO, 'num_files', ...FILES];

const MAPPED: Record<string, string> = { get_block: 'seq1m-q1t1-read', put_block: 'seq1m-q1t1-write', seeks: 'seeks' };

function toNs(value: string): number {
  const m = /^(\d+)(us|ms|s)$/.exec(value);
  assert.ok(m, `latency ${value}`);
  return Number(m[1]) * { us: 1e3, ms: 1e6, s: 1e9 }[m[2] as 'us' | 'ms' | 's'];
}

/** Checks every field of one CSV row against the run the importer made of it. */
function checkRow(line: string, columns: string[], run: RunRecord): void {
  const cells = line.split(',');
  assert.equal(cells.length, columns.length);
  const field = (name: string) => cells[columns.indexOf(name)] as string;
  for (const name of [...IO, ...FILES]) {
    const raw = field(name);
    const test = MAPPED[name];
    if (test) {
      const r = run.results.find((x) => x.test === test);
      if (raw === '') {
        assert.equal(r, undefined, `${name} not run`);
        continue;
      }
      assert.ok(r, `${name} → ${test}`);
      assert.equal(r.params, null);
      assert.ok(r.warnings.some((w) => w.code === 'nearest-test'));
      const latency = columns.includes(`${name}_latency`) ? field(`${name}_latency`) : '';
      assert.equal(r.latencyNs?.max ?? null, latency === '' ? null : toNs(latency), `${name} latency`);
      if (raw === '+++++') {
        assert.equal(r.underResolved, true, `${name} +++++ is under-resolved`);
        assert.equal(r.bytesPerSec, null, `${name} +++++ is not zero`);
        assert.equal(r.iops, null);
        assert.ok(r.warnings.some((w) => w.code === 'under-resolved'));
      } else if (test === 'seeks') {
        assert.equal(r.iops, Number(raw));
        assert.equal(r.bytesPerSec, null);
        assert.equal(r.underResolved, false);
      } else {
        assert.equal(r.bytesPerSec, Number(raw) * 1024, `${name}: K/sec is KiB/s`);
        assert.equal(r.underResolved, false);
      }
      continue;
    }
    const extra = run.extras.find((e) => e.name === name);
    if (raw === '') {
      assert.equal(extra, undefined, `${name} not run`);
      continue;
    }
    assert.ok(extra, `extra ${name}`);
    assert.equal(extra.unit, name.endsWith('_cpu') ? '% CPU' : ['putc', 'rewrite', 'getc'].includes(name) ? 'K/sec' : '/sec');
    assert.equal(extra.value, /^\++$/.test(raw) ? null : Number(raw), name);
    if (/^\++$/.test(raw)) assert.match(extra.note ?? '', /under-resolved/);
  }
  for (const name of LAT) {
    if (!columns.includes(name)) continue;
    const base = name.replace(/_latency$/, '');
    if (base in MAPPED) continue; // checked with its result above
    const raw = field(name);
    const extra = run.extras.find((e) => e.name === name);
    if (raw === '') {
      assert.equal(extra, undefined);
      continue;
    }
    assert.ok(extra, `extra ${name}`);
    assert.equal(extra.unit, 'ns');
    assert.equal(extra.value, toNs(raw), name);
  }
  // Settings and identity fields are kept as the file's own metadata.
  for (const name of ['bonnie_version', 'name', 'file_size', 'concurrency', 'seed', 'num_seeks', 'seek_proc_count', 'num_files']) {
    if (columns.includes(name) && field(name) !== '') assert.equal(run.sourceMeta[name], field(name), name);
  }
  assert.equal(run.source, 'imported');
  assert.equal(run.sourceFormat, 'bonnie++');
}

function dataLines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('format_version,'));
}

describe('bonnie++ CSV import', () => {
  for (const name of ['bonnie-2.00a-256m.csv', 'bonnie-2.00a-1g-x2.csv', 'bonnie-2.00a-throttled-loop.csv']) {
    it(`${name}: every row, every field (1.98/2.0x layout)`, () => {
      const text = fixture(name);
      assert.equal(detectFormat(text), 'bonnie++');
      const runs = parseImport(text, name, { now: NOW });
      const lines = dataLines(text);
      assert.equal(runs.length, lines.length);
      lines.forEach((line, i) => checkRow(line, COLS_198, runs[i] as RunRecord));
      runs.forEach((run) => {
        assert.equal(run.engine.name, 'bonnie++');
        assert.equal(run.engine.version, '2.00a');
        // The seed is pid XOR time(NULL): a window of days, not the start; createdAt is the import.
        assert.equal(run.createdAt, NOW.toISOString());
        assert.match(run.sourceMeta.date ?? '', /began between 2026-\d\d-\d\d and 2026-11-29 .*seed/);
      });
    });
  }

  it("2.00a's seed is pid XOR time(NULL): the known start lies in the window, the seed itself is 56 min off", () => {
    // Made as pid 5425 at 1796135352 (fixtures/README.md); the old reading took the seed for the start.
    const started = new Date(1796135352 * 1000);
    const now = new Date(started.getTime() + 3_600_000);
    const [run] = parseImport(fixture('bonnie-2.00a-pid-5425.csv'), 'pid.csv', { now });
    assert.equal(run?.createdAt, now.toISOString(), 'not the seed taken for a time');
    const window = startWindowFromSeed('1796131977', now);
    assert.ok(window && window.from <= started && started <= window.to, 'the true start is inside the window');
    assert.equal((1796131977 ^ 5425) * 1000, started.getTime());
    assert.match(run?.sourceMeta.date ?? '', /began between 2026-\d\d-\d\d and 2026-12-01 \(UTC\)/);
  });

  it('a seed whose window begins after the import is no start time (no day of grace)', () => {
    const now = new Date('2026-11-29T12:00:00.000Z');
    const ahead = String(Math.floor(now.getTime() / 1000) + 2 ** 22 + 3600);
    assert.equal(startWindowFromSeed(ahead, now), null);
    const row = fixture('bonnie-2.00a-pid-5425.csv').replace('1796131977', ahead);
    assert.match(parseImport(row, 'ahead.csv', { now })[0]?.sourceMeta.date ?? '', /not in the file/);
  });

  it('the 1.0x layout (27 fields, no version column)', () => {
    const text = fixture('bonnie-1.03-layout.csv');
    assert.equal(detectFormat(text), 'bonnie++');
    const runs = parseImport(text, 'old.csv', { now: NOW });
    assert.equal(runs.length, 2);
    dataLines(text).forEach((line, i) => checkRow(line, COLS_103, runs[i] as RunRecord));
    assert.equal(runs[0]?.sourceMeta.csvLayout, '1.0x');
  });

  it('spot values from the files, written out by hand', () => {
    const [first] = parseImport(fixture('bonnie-2.00a-1g-x2.csv'), 'x2.csv', { now: NOW });
    const write = first?.results.find((r) => r.test === 'seq1m-q1t1-write');
    assert.equal(write?.bytesPerSec, 325_448_704); // 317,821 K/sec
    assert.equal(write?.latencyNs?.max, 2_085_000); // 2085us
    assert.equal(first?.settings.sizeBytes, 1024 ** 3); // 1G
    assert.equal(first?.label, 'fixturehost 1G #1');
    const [throttled] = parseImport(fixture('bonnie-2.00a-throttled-loop.csv'), 't.csv', { now: NOW });
    assert.equal(throttled?.results.find((r) => r.test === 'seeks')?.iops, 1623);
    assert.equal(throttled?.results.find((r) => r.test === 'seq1m-q1t1-write')?.latencyNs?.max, 459_000_000); // 459ms
    assert.equal(throttled?.sourceMeta.num_seeks, '1000');
    assert.equal(
      throttled?.extras.find((e) => e.name === 'putc'),
      undefined,
      '-f: per-char not run',
    );
  });

  it('seeks with a decimal and latency in seconds', () => {
    const cols197 = COLS_198.filter((c) => c !== 'num_seeks' && c !== 'seek_proc_count');
    const set: Record<string, string> = {
      format_version: '1.97',
      bonnie_version: '1.97',
      name: 'x201i',
      file_size: '6G',
      put_block: '40300',
      get_block: '+++++',
      seeks: '151.4',
      seeks_latency: '1500ms',
      put_block_latency: '2s',
    };
    const row = `${cols197.map((c) => set[c] ?? '').join(',')}\n`;
    const [run] = parseImport(row, 'x.csv', { now: NOW });
    assert.equal(run?.sourceMeta.csvLayout, '1.9x');
    assert.equal(run?.results.find((r) => r.test === 'seeks')?.iops, 151.4);
    assert.equal(run?.results.find((r) => r.test === 'seeks')?.latencyNs?.max, 1_500_000_000);
    assert.equal(run?.results.find((r) => r.test === 'seq1m-q1t1-write')?.latencyNs?.max, 2_000_000_000);
  });

  it('a last row without its line break is refused as truncated', () => {
    const text = fixture('bonnie-1.03-layout.csv');
    assert.throws(
      () => parseImport(text.trimEnd().slice(0, -1), 'cut.csv', { now: NOW }), // "…,+++" → "…,++"
      (e: unknown) => e instanceof ImportError && e.line === 2 && /truncated/.test(e.message),
    );
  });

  it('a bad row is an error naming the file and its line', () => {
    const text = fixture('bonnie-2.00a-1g-x2.csv').replace('317821', '31x821');
    assert.throws(
      () => parseImport(text, 'x2.csv', { now: NOW }),
      (e: unknown) => e instanceof ImportError && e.file === 'x2.csv' && e.line === 2 && /put_block/.test(e.message),
    );
    const short = fixture('bonnie-2.00a-1g-x2.csv')
      .split('\n')
      .map((l, i) => (i === 2 ? l.slice(0, 40) : l))
      .join('\n');
    assert.throws(
      () => parseImport(short, 'x2.csv', { now: NOW }),
      (e: unknown) => e instanceof ImportError && e.line === 3 && /fields/.test(e.message),
    );
  });
});
