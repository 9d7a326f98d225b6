// The procedures against the real core modules (library in memory, formats, system), through
// the same dispatch the transports use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wholeSpansAsText } from '../../shared/report/whole-text.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { openBackend } from './backend.ts';
import { createHandlers } from './handlers.ts';
import { invoke } from './dispatch.ts';
import type { SystemOverview } from '../../shared/contract/contract.ts';
import type { Library } from '../store/library.ts';
import { renderReportHtml } from '../../shared/report/report-html.ts';

const fixture = (name: string) => readFileSync(new URL(`../formats/fixtures/${name}`, import.meta.url));

async function setup(t: import('node:test').TestContext) {
  const backend = await openBackend({ dbPath: ':memory:', emit: () => {}, sample: () => {} });
  t.after(() => backend.close());
  const handlers = createHandlers(backend);
  return <T = any>(procedure: string, input: unknown) =>
    invoke(handlers, procedure, input) as Promise<{ ok: true; data: T } | { ok: false; error: { code: string; message: string } }>;
}

test('import (bonnie++ CSV, and CrystalDiskMark sent as UTF-16 bytes) → list → relabel → export → delete', async (t) => {
  const call = await setup(t);
  const bonnie = await call('library.import', {
    fileName: 'throttled.csv',
    contentBase64: fixture('bonnie-2.00a-throttled-loop.csv').toString('base64'),
  });
  assert.ok(bonnie.ok, JSON.stringify(bonnie));
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fixture('crystaldiskmark-8.txt').toString('utf8'), 'utf16le')]);
  const cdm = await call('library.import', { fileName: 'cdm.txt', contentBase64: utf16.toString('base64') });
  assert.ok(cdm.ok, JSON.stringify(cdm));
  const list = await call<Array<{ id: number; sourceFormat: string }>>('library.list', {});
  assert.ok(list.ok);
  assert.deepEqual(list.data.map((r) => r.sourceFormat).sort(), ['bonnie++', 'crystaldiskmark']);
  const bonnieId = list.data.find((r) => r.sourceFormat === 'bonnie++')!.id;
  assert.deepEqual(await call('library.relabel', { id: bonnieId, label: 'HDD' }), { ok: true, data: { id: bonnieId, label: 'HDD' } });
  const filtered = await call<unknown[]>('library.list', { label: 'hdd' });
  assert.equal(filtered.ok && filtered.data.length, 1);
  const csv = await call<{ fileName: string; content: string }>('library.export', { ids: [bonnieId], format: 'csv' });
  assert.ok(csv.ok && csv.data.fileName.endsWith('.csv') && csv.data.content.includes('HDD'));
  const json = await call<{ content: string }>('library.export', { ids: [bonnieId], format: 'json' });
  assert.equal(json.ok && (JSON.parse(json.data.content) as { runs: unknown[] }).runs.length, 1);
  assert.deepEqual(await call('library.delete', { id: bonnieId }), { ok: true, data: { deleted: true } });
  const gone = await call('library.get', { id: bonnieId });
  assert.equal(!gone.ok && gone.error.code, 'NOT_FOUND');
});

test('"Import files…" of a shipped reference file keeps its runs as reference data, once', async (t) => {
  const call = await setup(t);
  const bytes = readFileSync(new URL('../../../assets/reference/2013-intel-525-discard.json', import.meta.url));
  const first = await call<{ ids: number[] }>('library.import', {
    fileName: '2013-intel-525-discard.json',
    contentBase64: bytes.toString('base64'),
  });
  assert.ok(first.ok && first.data.ids.length === 2, JSON.stringify(first));
  const list = await call<Array<{ source: string }>>('library.list', {});
  assert.deepEqual(list.ok && list.data.map((r) => r.source), ['reference', 'reference']);
  const again = await call<{ ids: number[]; alreadyPresent: Array<{ id: number; why: string }> }>('library.import', {
    fileName: 'copy.json',
    contentBase64: bytes.toString('base64'),
  });
  assert.deepEqual(again.ok && [again.data.ids, again.data.alreadyPresent.map((p) => p.why)], [
    [],
    ['the published reference run of that name', 'the published reference run of that name'],
  ]);
});

test('importing the same file again adds nothing and says which runs it already has', async (t) => {
  const call = await setup(t);
  const content = fixture('bonnie-2.00a-throttled-loop.csv').toString('base64');
  type Imported = { ids: number[]; alreadyPresent: Array<{ id: number; why: string }>; warnings: unknown[] };
  const first = await call<Imported>('library.import', { fileName: 'a.csv', contentBase64: content });
  assert.ok(first.ok && first.data.ids.length > 0 && first.data.alreadyPresent.length === 0, JSON.stringify(first));
  const again = await call<Imported>('library.import', { fileName: 'copy.csv', contentBase64: content });
  assert.ok(again.ok, JSON.stringify(again));
  assert.deepEqual(again.data.ids, []);
  assert.deepEqual(
    again.data.alreadyPresent,
    first.data.ids.map((id) => ({ id, why: 'this file was imported before' })),
  );
  // The app's own export of those runs, imported back: the same runs, said as such.
  const exported = await call<{ content: string }>('library.export', { ids: first.data.ids, format: 'json' });
  assert.ok(exported.ok);
  const back = await call<Imported>('library.import', {
    fileName: 'export.json',
    contentBase64: Buffer.from(exported.data.content).toString('base64'),
  });
  assert.deepEqual(back.ok && back.data, {
    ids: [],
    alreadyPresent: first.data.ids.map((id) => ({
      id,
      why: 'the same measurement (figures, target and machine), from another file or an export',
    })),
    warnings: back.ok ? back.data.warnings : [],
  });
  const list = await call<unknown[]>('library.list', {});
  assert.equal(list.ok && list.data.length, first.data.ids.length);
});

test('bounded: 100,000 identical rows are refused saying the limit; the list answers one page of the newest runs', async (t) => {
  const call = await setup(t);
  const row = fixture('bonnie-2.00a-throttled-loop.csv').toString('utf8').trim().split('\n').at(-1)!;
  const flood = `${row}\n`.repeat(100_000);
  const refused = await call('library.import', { fileName: 'flood.csv', contentBase64: Buffer.from(flood).toString('base64') });
  assert.equal(!refused.ok && refused.error.code, 'IMPORT_FAILED');
  assert.match(
    !refused.ok ? refused.error.message : '',
    /flood\.csv: the file holds more than 1000 runs; one import takes at most 1000 \(split the file\)/,
  );
  const empty = await call<unknown[]>('library.list', {});
  assert.deepEqual(empty.ok && empty.data, []);
  // 1,000 rows is the limit and is taken; then a page of 500 newest, or more on request. Each
  // row its own figure (its block output, field 12): identical rows are one run, kept once.
  const rows = Array.from({ length: 1000 }, (_, i) =>
    row
      .split(',')
      .map((f, n) => (n === 11 ? String(19356 + i) : f))
      .join(','),
  );
  const most = await call<{ ids: number[] }>('library.import', {
    fileName: 'most.csv',
    contentBase64: Buffer.from(`${rows.join('\n')}\n`).toString('base64'),
  });
  assert.ok(most.ok && most.data.ids.length === 1000, JSON.stringify(!most.ok && most.error));
  const page = await call<Array<{ id: number }>>('library.list', {});
  assert.ok(page.ok);
  assert.equal(page.data.length, 500);
  assert.equal(page.data.at(-1)!.id, most.data.ids.at(-1));
  const bigger = await call<unknown[]>('library.list', { limit: 800 });
  assert.equal(bigger.ok && bigger.data.length, 800);
  const tooBig = await call('library.list', { limit: 1_000_000 });
  assert.equal(!tooBig.ok && tooBig.error.code, 'BAD_INPUT');
});

test("a file in no known format is IMPORT_FAILED with the importer's reason; nothing is saved", async (t) => {
  const call = await setup(t);
  const result = await call('library.import', { fileName: 'notes.txt', contentBase64: Buffer.from('hello\n').toString('base64') });
  assert.equal(!result.ok && result.error.code, 'IMPORT_FAILED');
  assert.match(!result.ok ? result.error.message : '', /unrecognised format/);
  const list = await call<unknown[]>('library.list', {});
  assert.deepEqual(list.ok && list.data, []);
});

test('references list the shipped runs; compare.load mixes a library run with references', async (t) => {
  const call = await setup(t);
  const refs = await call<Array<{ key: string; record: { source: string } }>>('references.list', {});
  assert.ok(refs.ok && refs.data.length >= 3);
  assert.ok(refs.data.every((r) => r.record.source === 'reference'));
  const imported = await call<{ ids: number[] }>('library.import', {
    fileName: 'b.csv',
    contentBase64: fixture('bonnie-2.00a-throttled-loop.csv').toString('base64'),
  });
  assert.ok(imported.ok);
  const loaded = await call<{ runs: Array<{ record: { source: string } }> }>('compare.load', {
    runs: [
      { kind: 'run', id: imported.data.ids[0] },
      { kind: 'reference', key: refs.data[0]!.key },
    ],
  });
  assert.ok(loaded.ok, JSON.stringify(loaded));
  assert.deepEqual(
    loaded.data.runs.map((r) => r.record.source),
    ['imported', 'reference'],
  );
  const missing = await call('compare.load', {
    runs: [
      { kind: 'reference', key: 'nope' },
      { kind: 'run', id: 99 },
    ],
  });
  assert.equal(!missing.ok && missing.error.code, 'NOT_FOUND');
  // One run is a valid request (the Compare page fetches only what it lacks); none or seven are not.
  const one = await call('compare.load', { runs: [{ kind: 'run', id: imported.data.ids[0] }] });
  assert.ok(one.ok && one.data.runs.length === 1, JSON.stringify(one));
  const none = await call('compare.load', { runs: [] });
  assert.equal(!none.ok && none.error.code, 'BAD_INPUT');
  const seven = await call('compare.load', { runs: Array.from({ length: 7 }, () => ({ kind: 'run', id: 1 })) });
  assert.equal(!seven.ok && seven.error.code, 'BAD_INPUT');
});

test('system overview: the root mount, suggested folders, disks as fingerprints', async (t) => {
  const call = await setup(t);
  const overview = await call<{ mounts: Array<{ path: string }>; suggestedTargets: string[]; disks: unknown[] }>('system.overview', {});
  assert.ok(overview.ok, JSON.stringify(overview));
  assert.ok(overview.data.suggestedTargets.includes(tmpdir()));
  assert.ok(overview.data.mounts.every((m) => !m.path.startsWith('/proc') && !m.path.startsWith('/sys')));
  const target = await call<{ path: string; stack: unknown[] }>('system.describeTarget', { path: tmpdir() });
  assert.ok(target.ok && target.data.stack.length > 0);
  const dialog = await call('dialog.pickFolder', {});
  assert.equal(!dialog.ok && dialog.error.code, 'UNAVAILABLE', 'no folder dialog outside Electron');
});

test("system overview: a mount's newest TRIM audit kept in the library is laid over its row; other rows have none", async (t) => {
  const backend = await openBackend({ dbPath: ':memory:', emit: () => {}, sample: () => {} });
  t.after(() => backend.close());
  const handlers = createHandlers(backend);
  const overview = async () => {
    const r = await invoke(handlers, 'system.overview', {});
    assert.ok(r.ok, JSON.stringify(r));
    return r.data as SystemOverview;
  };
  const first = { data: await overview() };
  const path = first.data.mounts[0]?.path;
  assert.ok(path, 'this machine lists at least one mount');
  assert.ok(first.data.mounts.every((m) => m.trimSeen === null));
  const layer = { kind: 'disk' as const, name: 'vda', device: 'vda', tablesSayPasses: true, allowDiscards: null, discardMaxBytes: 2 ** 30 };
  const counters = { ios: 1, merged: 0, sectors: 8, ms: 0 };
  // The one library of the backend, as the CLI's trim-audit would write into it.
  (backend.library as Library).saveTrimAudit({
    target: path,
    at: '2026-11-30T12:00:00.000Z',
    mountPoint: path,
    onlineDiscard: 'on',
    deletedBytes: 2 ** 26,
    fstrim: { skipped: 'not asked' },
    audit: {
      layers: [{ ...layer, before: counters, after: { ...counters, ios: 5 }, discards: 4, bytes: 4096, reached: true, mismatch: null }],
      deepestReached: 'disk vda',
      stoppedAt: null,
      mismatches: [],
    },
  });
  const second = { data: await overview() };
  const row = second.data.mounts.find((m) => m.path === path);
  assert.deepEqual(row?.trimSeen, {
    at: '2026-11-30T12:00:00.000Z',
    deepestReached: 'disk vda',
    stoppedAt: null,
    refusedBy: null,
    reachedBottom: true,
    cannotTell: null,
  });
  assert.ok(second.data.mounts.filter((m) => m.path !== path).every((m) => m.trimSeen === null));
});

test('crypto.ciphers: null until measured; a measurement is kept for the session and says its source', async (t) => {
  const call = await setup(t);
  assert.deepEqual(await call('crypto.ciphers', {}), { ok: true, data: { ceilings: null } });
  const measured = await call<{ ceilings: { source: string; sourceLabel: string; figures: unknown[] } }>('crypto.ciphers', {
    measure: true,
  });
  if (!measured.ok) {
    // No AF_ALG and no libcrypto: the failure must say what is missing.
    assert.match(measured.error.message, /AF_ALG|libcrypto/);
    return;
  }
  assert.ok(measured.data.ceilings.figures.length > 0);
  if (measured.data.ceilings.source === 'user-space-estimate') assert.match(measured.data.ceilings.sourceLabel, /user-space estimate/);
  const again = await call<{ ceilings: { measuredAt: string } }>('crypto.ciphers', {});
  assert.ok(again.ok);
  assert.deepEqual(again.data.ceilings, measured.data.ceilings);
  const bad = await call('crypto.ciphers', { measure: 'yes' });
  assert.equal(!bad.ok && bad.error.code, 'BAD_INPUT');
});

test('report.render: HTML of reference and library runs; PDF only through a printer that returns a PDF', async (t) => {
  const printed: string[] = [];
  const make = async (printer?: import('../../shared/report/printer.ts').ReportPrinter) => {
    const backend = await openBackend({
      dbPath: ':memory:',
      emit: () => {},
      sample: () => {},
      reportHtml: renderReportHtml,
      ...(printer ? { printer } : {}),
    });
    t.after(() => backend.close());
    const handlers = createHandlers(backend);
    return (input: unknown) =>
      invoke(handlers, 'report.render', input) as Promise<
        | { ok: true; data: { fileName: string; mimeType: string; contentBase64: string } }
        | { ok: false; error: { code: string; message: string } }
      >;
  };
  const noPrinter = await make();
  const listing = await openBackend({ dbPath: ':memory:', emit: () => {}, sample: () => {} });
  t.after(() => listing.close());
  const refs = (await invoke(createHandlers(listing), 'references.list', {})) as { ok: true; data: Array<{ key: string }> };
  const runs = refs.data.slice(0, 3).map((r) => ({ kind: 'reference', key: r.key }));
  const html = await noPrinter({ runs, format: 'html', paper: 'letter', unit: 'KB' });
  assert.ok(html.ok, JSON.stringify(html));
  assert.equal(html.data.mimeType, 'text/html');
  const text = Buffer.from(html.data.contentBase64, 'base64').toString('utf8');
  assert.match(text, /size: letter portrait/);
  assert.match(text, /40,300 KiB\/s/); // the unit asked for, as bonnie++ printed it
  const pdfWithout = await noPrinter({ runs, format: 'pdf', paper: 'a4', unit: 'MB' });
  assert.deepEqual(!pdfWithout.ok && pdfWithout.error.code, 'UNAVAILABLE');

  const liar = await make({
    name: 'liar',
    async print(h) {
      printed.push(h);
      return new TextEncoder().encode('<html>not a pdf');
    },
  });
  const lied = await liar({ runs, format: 'pdf', paper: 'a4', unit: 'MB' });
  assert.ok(!lied.ok && lied.error.code === 'FAILED' && /not a PDF/.test(lied.error.message), JSON.stringify(lied));
  assert.equal(printed.length, 1);
  assert.match(printed[0]!, /×69\.5/);

  const good = await make({
    name: 'fake',
    async print() {
      return new TextEncoder().encode('%PDF-1.4 fake');
    },
  });
  const pdf = await good({ runs, format: 'pdf', paper: 'a4', unit: 'MB' });
  assert.ok(pdf.ok && pdf.data.mimeType === 'application/pdf' && pdf.data.fileName.endsWith('.pdf'), JSON.stringify(pdf));

  const tooMany = await good({ runs: [...runs, ...runs, runs[0]], format: 'html', paper: 'a4', unit: 'MB' });
  assert.equal(!tooMany.ok && tooMany.error.code, 'BAD_INPUT');
  const missing = await good({ runs: [{ kind: 'run', id: 42 }], format: 'html', paper: 'a4', unit: 'MB' });
  assert.equal(!missing.ok && missing.error.code, 'NOT_FOUND');
});

test("runs.start of a tarball tar cannot extract: run.finished carries tar's reason from the worker's stderr (serve, the app)", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-proc-bad-tarball-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'not-a-tarball.tar');
  writeFileSync(bad, Buffer.alloc(64 * 1024, 0x5a));
  let finished: (payload: any) => void = () => {};
  const done = new Promise<any>((resolve) => (finished = resolve));
  const backend = await openBackend({
    dbPath: ':memory:',
    emit: (event, payload) => {
      if (event === 'run.finished') finished(payload);
    },
    sample: () => {},
  });
  t.after(() => backend.close());
  const started = await invoke(createHandlers(backend), 'runs.start', { target: dir, tests: ['tarball'], tarball: bad, runs: 1 });
  assert.equal(started.ok, true, JSON.stringify(started));
  const payload = await done;
  assert.equal(payload.status, 'failed');
  assert.match(payload.error.message, /tar could not extract/);
  assert.match(payload.error.message, /said on stderr:\n {2}tar: This does not look like a tar archive/, payload.error.message);
});

test('assessments: started on a shipped reference (kept in the library once), stepped, reported story first; a deleted run empties its step and says so', async (t) => {
  const backend = await openBackend({ dbPath: ':memory:', emit: () => {}, sample: () => {}, reportHtml: renderReportHtml });
  t.after(() => backend.close());
  const handlers = createHandlers(backend);
  const call = <T = any>(procedure: string, input: unknown) =>
    invoke(handlers, procedure, input) as Promise<{ ok: true; data: T } | { ok: false; error: { code: string; message: string } }>;
  const refs = (await call<Array<{ key: string; record: { label: string } }>>('references.list', {})) as {
    ok: true;
    data: Array<{ key: string; record: { label: string } }>;
  };
  const key = (label: RegExp) => refs.data.find((r) => label.test(r.record.label))!.key;
  const hdd = { kind: 'reference', key: key(/^Laptop hard disk/) };
  const ssd = { kind: 'reference', key: key(/^Intel 320 SSD, /) };

  const started = await call<any>('assessments.start', { label: '  2011 laptop  ', steps: { before: hdd } });
  assert.ok(started.ok, JSON.stringify(started));
  assert.equal(started.data.label, '2011 laptop');
  const hddId = started.data.before as number;
  assert.equal((await call<any>('library.get', { id: hddId })).ok, true, 'the reference is now a run of the library');

  const early = await call('assessments.report', { id: started.data.id, format: 'html', paper: 'a4', unit: 'MB' });
  assert.ok(!early.ok && early.error.code === 'BAD_INPUT' && /no after run yet/.test(early.error.message), JSON.stringify(early));

  const set = await call<any>('assessments.set', { id: started.data.id, steps: { after: ssd, encrypted: null } });
  assert.ok(set.ok, JSON.stringify(set));
  // The same reference picked again is the same run, not a copy.
  const again = await call<any>('assessments.set', { id: started.data.id, steps: { before: hdd } });
  assert.equal(again.ok && again.data.before, hddId);
  assert.equal(((await call<unknown[]>('library.list', {})) as { data: unknown[] }).data.length, 2);

  for (const [input, code, message] of [
    [{ id: started.data.id, steps: {} }, 'BAD_INPUT', /name at least one step/],
    [{ id: started.data.id, steps: { sideways: null } }, 'BAD_INPUT', /steps/],
    [{ id: started.data.id, steps: { after: { kind: 'run', id: 999 } } }, 'BAD_INPUT', /no run 999 in the library for the after step/],
    [{ id: 77, steps: { after: null } }, 'NOT_FOUND', /no assessment 77/],
  ] as const) {
    const bad = await call('assessments.set', input);
    assert.ok(!bad.ok && bad.error.code === code && message.test(bad.error.message), JSON.stringify([input, bad]));
  }
  const noLabel = await call('assessments.start', { label: '   ' });
  assert.ok(
    !noLabel.ok && noLabel.error.code === 'BAD_INPUT' && /name the assessment/.test(noLabel.error.message),
    JSON.stringify(noLabel),
  );

  const report = await call<{ fileName: string; contentBase64: string }>('assessments.report', {
    id: started.data.id,
    format: 'html',
    paper: 'a4',
    unit: 'MB',
  });
  assert.ok(report.ok, JSON.stringify(report));
  assert.equal(report.data.fileName, `diskdelta-assessment-${started.data.id}.html`);
  const html = Buffer.from(report.data.contentBase64, 'base64').toString('utf8');
  const page = html.indexOf('data-testid="report-first-page"');
  assert.ok(page > 0, 'page 1 is there');
  assert.equal(html.lastIndexOf('<section', page), html.indexOf('<section'), 'page 1 comes first');
  assert.match(
    wholeSpansAsText(html.slice(page, html.indexOf('</section>', page))),
    /Sequential read 41\.27 MB\/s → 135\.9 MB\/s, ×3\.29 faster/,
  );

  assert.deepEqual(await call('library.delete', { id: set.data.after }), { ok: true, data: { deleted: true } });
  const listed = await call<any[]>('assessments.list', {});
  assert.ok(listed.ok && listed.data.length === 1);
  assert.equal(listed.data[0].after, null);
  assert.equal(listed.data[0].emptied.after.run, set.data.after);
  assert.match(listed.data[0].emptied.after.label, /^Intel 320 SSD, /);
});
