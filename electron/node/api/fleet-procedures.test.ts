// The fleet's procedures (issue #26) against the real core (library in memory, the importers,
// the report view): fleet.compare lists each fio --client measurement and narrows the compare to
// the ones chosen; fleet.report's HTML says, in its text, what the fleet compare found. The
// fleet is real: fio 3.33's --client output of the fleet lab's five throttled hosts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBackend } from './backend.ts';
import { createHandlers } from './handlers.ts';
import { invoke } from './dispatch.ts';
import type { ProcedureOutput } from '../../shared/contract/contract.ts';
import { percentile } from '../../shared/analysis/statistics.ts';
import { formatThroughput } from '../../shared/analysis/units.ts';
import { renderReportHtml } from '../../shared/report/report-html.ts';

const FIVE = 'fio-3.33-client-5-throttled-hosts.json';
const TWO = 'fio-3.33-client-2-hosts.json';
const fixture = (name: string) => readFileSync(new URL(`../formats/fixtures/${name}`, import.meta.url));
const SLOW = '198.18.245.18:8765';

async function setup(t: import('node:test').TestContext) {
  const backend = await openBackend({ dbPath: ':memory:', emit: () => {}, sample: () => {}, reportHtml: renderReportHtml });
  t.after(() => backend.close());
  const handlers = createHandlers(backend);
  return <T>(procedure: string, input: unknown) =>
    invoke(handlers, procedure, input) as Promise<{ ok: true; data: T } | { ok: false; error: { code: string; message: string } }>;
}

type Compare = ProcedureOutput<'fleet.compare'>;

/** The report's text as a reader sees it: tags gone, entities read, whitespace folded. */
const textOf = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

test('fleet.compare lists each fio --client file as one measurement and compares the ones chosen', async (t) => {
  const call = await setup(t);
  const none = await call<Compare>('fleet.compare', {});
  assert.deepEqual(none, { ok: true, data: { groups: [], fleet: null } });
  for (const name of [FIVE, TWO]) {
    const r = await call('library.import', { fileName: name, contentBase64: fixture(name).toString('base64') });
    assert.ok(r.ok, JSON.stringify(r));
  }
  const all = await call<Compare>('fleet.compare', {});
  assert.ok(all.ok);
  assert.deepEqual(
    all.data.groups.map((g) => g.hosts),
    [5, 2],
    'newest first: the five-host file was written later than the two-host one',
  );
  assert.equal(all.data.fleet?.rows.length, 7);
  const five = all.data.groups[0]!;
  const chosen = await call<Compare>('fleet.compare', { runIds: five.runIds });
  assert.ok(chosen.ok && chosen.data.fleet);
  const rows = chosen.data.fleet.rows;
  assert.deepEqual(rows.map((r) => r.host).sort(), [
    '198.18.245.10:8765',
    '198.18.245.14:8765',
    SLOW,
    '198.18.245.2:8765',
    '198.18.245.6:8765',
  ]);
  const slow = rows.find((r) => r.host === SLOW)!;
  assert.equal(slow.deviceClass, 'hdd');
  assert.deepEqual(
    slow.outliers.map((o) => o.figure),
    ['seqRead', 'seqWrite', 'rndRead', 'rndWrite'],
  );
  assert.ok(rows.filter((r) => r !== slow).every((r) => r.outliers.length === 0 && r.deviceClass === 'ssd'));
  const bad = await call('fleet.compare', { runIds: [0] });
  assert.equal(!bad.ok && bad.error.code, 'BAD_INPUT');
});

test('fleet.report as HTML: its text names every host, the fleet’s percentiles, the outlier, the verdicts and that there is no spread', async (t) => {
  const call = await setup(t);
  const missing = await call('fleet.report', { format: 'html', paper: 'a4', unit: 'MB' });
  assert.ok(!missing.ok && missing.error.code === 'NOT_FOUND' && /fleet run/.test(missing.error.message), JSON.stringify(missing));
  await call('library.import', { fileName: FIVE, contentBase64: fixture(FIVE).toString('base64') });
  const r = await call<{ fileName: string; mimeType: string; contentBase64: string }>('fleet.report', {
    format: 'html',
    paper: 'a4',
    unit: 'MB',
  });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.data.fileName, 'diskdelta-fleet-5-hosts.html');
  const html = Buffer.from(r.data.contentBase64, 'base64').toString('utf8');
  const text = textOf(html);
  assert.match(text, /Fleet assessment: 5 hosts/);
  assert.match(text, /1 of 5 hosts are on hard disks: an SSD would give them ×4\.9 sequential and ×5\.4 random reads \(median\)/);
  assert.match(text, /One fio run per test: no spread\./);
  assert.match(text, new RegExp(`${SLOW}: low: sequential read, sequential write, random 4K read QD1, random 4K write QD1`));
  // The sequential-read percentiles, by hand from the file's own figures (JSON.parse, bw_bytes).
  const raw = fixture(FIVE).toString('utf8');
  const doc = JSON.parse(raw.slice(raw.search(/^\{/m))) as { client_stats: Array<{ jobname: string; read: { bw_bytes: number } }> };
  const seq = doc.client_stats
    .filter((e) => e.jobname === 'seq1m-q8t1-read')
    .map((e) => e.read.bw_bytes)
    .sort((a, b) => a - b);
  assert.equal(seq.length, 5);
  const row = [0.1, 0.5, 0.9].map((p) => formatThroughput(percentile(seq, p))).join(' ');
  assert.ok(text.includes(`sequential read 5 ${row}`), `the row "sequential read 5 ${row}" in: ${text.slice(0, 1500)}`);
  for (const host of ['198.18.245.2:8765', '198.18.245.6:8765', '198.18.245.10:8765', '198.18.245.14:8765', SLOW])
    assert.match(text, new RegExp(`${host.replace(/\./g, '\\.')} `));
  assert.equal(text.match(/on an SSD already: no upgrade needed for speed/g)?.length, 4);
  assert.match(text, /on a hard disk: an SSD like the fleet's would give ×4\.9 sequential and ×5\.4 random reads/);
  // The two charts of the fleet, drawn as the report draws Compare's: three bars per figure.
  assert.equal(html.match(/data-chart-type="fleet-percentiles"/g)?.length, 2);
  assert.equal(html.match(/data-testid="bar"/g)?.length, 12);
});
