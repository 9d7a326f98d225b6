// CSV export: one row per (run, test) and per extra, units in the header, RFC 4180 quoting,
// and no formula injection from labels.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { exportCsv, loadReferenceRuns, parseImport } from './index.ts';

/** A small RFC 4180 reader for the test (quoted cells with "" and CRLF). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('CSV export', () => {
  it('one row per test, per figure and per extra, with the stored numbers and units in the header', async () => {
    const runs = await loadReferenceRuns();
    const rows = readCsv(exportCsv(runs));
    const header = rows[0] as string[];
    const col = (name: string) => header.indexOf(name);
    assert.ok(col('bytes_per_sec [B/s]') > 0 && col('iops [IO/s]') > 0 && col('lat_p99 [ns]') > 0);
    const body = rows.slice(1);
    assert.equal(
      body.length,
      runs.reduce((n, r) => n + r.results.length + r.results.reduce((k, t) => k + (t.figures?.length ?? 0), 0) + r.extras.length, 0),
    );
    assert.ok(body.every((r) => r.length === header.length));
    const hddRead = body.find((r) => /hard disk/.test(r[col('label')]!) && r[col('test')] === 'seq1m-q1t1-read');
    assert.equal(hddRead?.[col('bytes_per_sec [B/s]')], '41267200');
    const seeks = body.find((r) => /^Intel 320 SSD, /.test(r[col('label')]!) && r[col('test')] === 'seeks');
    assert.equal(seeks?.[col('iops [IO/s]')], '10524');
    assert.equal(seeks?.[col('under_resolved')], 'true');
    const discard = body.find(
      (r) => /with discard/.test(r[col('label')]!) && r[col('test')] === 'tree-3.9.1' && r[col('kind')] === 'figure',
    );
    assert.deepEqual([discard?.[col('value')], discard?.[col('unit')]], ['7.373', 's']);
  });

  it('quotes commas, quotes and newlines, and defuses formula-like labels', () => {
    const text = readFileSync(new URL('./fixtures/crystaldiskmark-8.txt', import.meta.url), 'utf8');
    const [run] = parseImport(text, 'cdm.txt');
    assert.ok(run);
    run.label = '=HYPERLINK("http://x","click"), "quoted"\nnext';
    const rows = readCsv(exportCsv([run]));
    const header = rows[0] as string[];
    assert.equal(rows.length, 1 + run.results.length);
    assert.equal(rows[1]?.[header.indexOf('label')], `'${run.label}`);
    assert.equal(rows[1]?.[header.indexOf('test')], 'seq1m-q8t1-read');
    assert.equal(rows[1]?.[header.indexOf('bytes_per_sec [B/s]')], '867985000');
    assert.equal(rows[1]?.[header.indexOf('lat_mean [ns]')], '9573310');
  });
});
