// bonnie++ output other people published (fixtures/foreign/README.md names each source), as
// bonnie++ prints it without -q: progress lines and the text table, then the CSV row. The
// CSV row is what is read; each test checks its figures against the file's own row and table.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunRecord, TestResult } from '../../shared/model/results.ts';
import { detectFormat, ImportError, parseImport } from './index.ts';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const read = (name: string) => readFileSync(new URL(`./fixtures/foreign/${name}`, import.meta.url), 'utf8');

/** The CSV row of a file: the line with the most commas. */
function csvRow(text: string): string[] {
  const line = text.split('\n').reduce((a, b) => (b.split(',').length > a.split(',').length ? b : a));
  return line.split(',');
}

function importOne(name: string): { run: RunRecord; row: string[]; text: string } {
  const text = read(name);
  assert.equal(detectFormat(text), 'bonnie++');
  const runs = parseImport(text, name, { now: NOW });
  assert.equal(runs.length, 1);
  return { run: runs[0] as RunRecord, row: csvRow(text), text };
}

const result = (run: RunRecord, test: string) => run.results.find((r) => r.test === test) as TestResult;

describe('bonnie++ output published by others (text table + CSV row)', () => {
  it('1.97 (wifo3-02, RAID6): K/sec × 1024, seeks, latencies, and the seed as a window of days', () => {
    const { run, row } = importOne('bonnie-1.97-wifo3-02-a.txt');
    // 1.97 layout: put_block is field 9, get_block 15, seeks 17, seed 4.
    assert.equal(result(run, 'seq1m-q1t1-write').bytesPerSec, Number(row[9]) * 1024);
    assert.equal(result(run, 'seq1m-q1t1-read').bytesPerSec, Number(row[15]) * 1024);
    assert.equal(result(run, 'seeks').iops, Number(row[17]));
    assert.equal(result(run, 'seq1m-q1t1-read').latencyNs?.max, 57_565_000, 'get_block_latency 57565us');
    assert.equal(run.createdAt, NOW.toISOString(), 'pid XOR time(NULL) is no instant: the import time');
    assert.match(run.sourceMeta.date ?? '', /began between 2015-06-16 and 2015-08-03 \(UTC\), from the seed/);
    assert.match(run.sourceMeta.textReport ?? '', /Version {2}1\.97/);
  });

  it('1.97 with seeks too fast to measure: +++++ stays null, never 0', () => {
    const { run, row } = importOne('bonnie-1.97-wifo3-02-b.txt');
    assert.equal(row[17], '+++++');
    const seeks = result(run, 'seeks');
    assert.equal(seeks.iops, null);
    assert.equal(seeks.underResolved, true);
    assert.equal(seeks.latencyNs?.max, 169_000_000, 'the latency is still given: 169ms');
    assert.equal(result(run, 'seq1m-q1t1-read').bytesPerSec, Number(row[15]) * 1024);
  });

  it('1.97 pasted with the shell prompt and the "Using uid:65534, gid:65534." line', () => {
    const { run, row } = importOne('bonnie-1.97-nfs-worker1.txt');
    assert.equal(result(run, 'seq1m-q1t1-write').bytesPerSec, Number(row[9]) * 1024);
    assert.equal(result(run, 'seeks').iops, 6863);
    assert.equal(result(run, 'seq1m-q1t1-write').latencyNs?.max, 801_000_000, '801ms');
    assert.match(run.sourceMeta.date ?? '', /began between 2018-1[12]-\d\d and 201[89]-\d\d-\d\d/);
    assert.equal(run.label, 'nfs-worker1 2G');
  });

  it('2.00a: the table prints MiB ("728m") where the row has K/sec; both agree', () => {
    const { run, row, text } = importOne('bonnie-2.00a-andrew-pc-home.txt');
    assert.equal(row[0], '1.98');
    // 1.98 layout: two more fields after io_chunk_size, so put_block is 11 and get_block 17.
    const write = result(run, 'seq1m-q1t1-write').bytesPerSec as number;
    assert.equal(write, Number(row[11]) * 1024);
    assert.equal(result(run, 'seq1m-q1t1-read').bytesPerSec, Number(row[17]) * 1024);
    assert.match(text, /ANDREW-PC {7}63G {2}540k {2}99 {2}728m/);
    assert.equal(Math.round(write / 1024 ** 2), 728, "the table's 728m is MiB/s");
    assert.equal(result(run, 'seeks').underResolved, true);
    assert.match(run.sourceMeta.date ?? '', /began between 2024-\d\d-\d\d and 2024-\d\d-\d\d/);
    const slow = importOne('bonnie-2.00a-andrew-pc-mnt-c.txt');
    assert.equal(result(slow.run, 'seeks').iops, 8475);
    assert.equal(result(slow.run, 'seq1m-q1t1-write').latencyNs?.max, 17_524_000);
  });

  it('1.03 (27-field CSV, no seed): read after the progress lines; the date is the import time', () => {
    const { run, row } = importOne('bonnie-1.03-ubuntu-forum.txt');
    assert.equal(row.length, 27);
    assert.equal(result(run, 'seq1m-q1t1-write').bytesPerSec, Number(row[4]) * 1024);
    assert.equal(result(run, 'seq1m-q1t1-read').bytesPerSec, Number(row[10]) * 1024);
    assert.equal(result(run, 'seeks').iops, 84.4);
    assert.equal(run.createdAt, NOW.toISOString());
    assert.match(run.sourceMeta.date ?? '', /not in the file/);
  });

  it('a CSV row cut short inside the text report is still an error with its line', () => {
    const text = read('bonnie-1.97-nfs-worker1.txt');
    const cut = text.replace(/,21103us,.*$/m, ',21103us,801m');
    assert.throws(
      () => parseImport(cut, 'cut.txt', { now: NOW }),
      (e: unknown) => e instanceof ImportError && e.line === text.split('\n').findIndex((l) => l.startsWith('1.97,')) + 1,
    );
  });
});
