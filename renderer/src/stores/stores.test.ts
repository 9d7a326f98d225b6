import type { RunKind } from '../../../electron/shared/model/run-kind.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiClient } from '../api/client.ts';
import { createRunsStore, MAX_LIVE_SAMPLES } from './runs.ts';
import { cleanFilter, createLibraryStore } from './library.ts';
import { MAX_IMPORT_BYTES } from '../../../electron/node/formats/import-error.ts';
import { createCompareStore, MAX_COMPARED, pickerColumns, runsByKind } from './compare.ts';
import { createWorkingSetStore } from './working-set.ts';
import { createFleetStore } from './fleet.ts';

/** A client whose answers the test scripts, and whose events the test fires. */
function scriptedClient(answers: Record<string, (input: any) => unknown>) {
  const calls: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<(p: any) => void>>();
  const client: ApiClient = {
    kind: 'browser',
    async call(procedure, input) {
      calls.push([procedure, input]);
      const answer = answers[procedure];
      if (!answer) return { ok: false, error: { code: 'UNAVAILABLE', message: `${procedure} not scripted` } };
      return answer(input) as never;
    },
    on(event, listener) {
      (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(listener as never);
      return () => listeners.get(event)!.delete(listener as never);
    },
  };
  const fire = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  return { client, calls, fire };
}

test('runs: start, then events build the live run; finished calls the hook', async () => {
  const finished: string[] = [];
  const { client, fire } = scriptedClient({ 'runs.start': () => ({ ok: true, data: { runId: 'r1' } }) });
  const store = createRunsStore(client, { onFinished: (id) => finished.push(id) });
  assert.equal(await store.getState().start({ target: '/mnt/x', label: 'SSD' }), 'r1');
  assert.equal(store.getState().currentRunId, 'r1');
  fire('run.progress', {
    runId: 'r1',
    test: 'seq1m-q8t1-read',
    testIndex: 0,
    testCount: 2,
    phase: 'measure',
    run: 1,
    runs: 1,
    fraction: 0.25,
    etaSec: 3,
  });
  fire('run.progress', {
    runId: 'r1',
    test: 'seq1m-q8t1-write',
    testIndex: 1,
    testCount: 2,
    phase: 'measure',
    run: 1,
    runs: 1,
    fraction: 0.75,
    etaSec: 1,
  });
  fire('run.samples', { runId: 'r1', samples: [{ test: 'seq1m-q8t1-read', run: 1, tMs: 100, bytesPerSec: 5e8, iops: 500 }] });
  fire('run.warning', { runId: 'r1', code: 'noisy', message: 'spread' });
  let run = store.getState().runs.r1!;
  assert.deepEqual(run.tests, ['seq1m-q8t1-read', 'seq1m-q8t1-write']);
  assert.equal(run.progress?.fraction, 0.75);
  assert.equal(run.samples.length, 1);
  assert.equal(run.warnings[0]?.code, 'noisy');
  fire('run.finished', { runId: 'r1', status: 'done', recordId: 7, error: null });
  run = store.getState().runs.r1!;
  assert.equal(run.status, 'done');
  assert.equal(run.recordId, 7);
  assert.deepEqual(finished, ['r1']);
});

test('runs: a refused start keeps the error and no current run; live samples are capped', async () => {
  const { client, fire } = scriptedClient({ 'runs.start': () => ({ ok: false, error: { code: 'BUSY', message: 'busy' } }) });
  const store = createRunsStore(client);
  assert.equal(await store.getState().start({ target: '/x' }), null);
  assert.equal(store.getState().startError?.code, 'BUSY');
  assert.equal(store.getState().currentRunId, null);
  // Five batches of later and later samples (one sample twice would be a duplicate, dropped: live-follow.test.ts).
  const batch = (k: number) =>
    Array.from({ length: 1000 }, (_, i) => ({ test: 'seq1m-q8t1-read', run: 1, tMs: k * 1000 + i, bytesPerSec: 1, iops: 1 }));
  for (let k = 0; k < 5; k++) fire('run.samples', { runId: 'late', samples: batch(k) });
  assert.equal(store.getState().runs.late!.samples.length, MAX_LIVE_SAMPLES);
  assert.equal(store.getState().runs.late!.samples.at(-1)!.tMs, 4999);
});

/** A library list line as the API sends it. */
const summary = (id: number, label: string) => ({
  id,
  label,
  createdAt: '2026-01-01T00:00:00Z',
  source: 'measured',
  sourceFormat: 'diskdelta',
  targetPath: '/x',
  deviceModel: null,
  deviceClass: null,
  preset: null,
  engine: 'diskdelta',
  resultCount: 1,
  warningCount: 0,
});

test('library: empty filter fields are not sent; relabel and delete update the list', async () => {
  assert.deepEqual(cleanFilter({ label: '', device: 'ssd', source: undefined }), { device: 'ssd' });
  const { client, calls } = scriptedClient({
    'library.list': () => ({ ok: true, data: [summary(1, 'HDD'), summary(2, 'SSD')] }),
    'library.relabel': ({ id, label }) => ({ ok: true, data: { id, label } }),
    'library.delete': () => ({ ok: true, data: { deleted: true } }),
  });
  const store = createLibraryStore(client);
  await store.getState().setFilter({ label: '', device: 'ssd' });
  assert.deepEqual(calls.at(-1), ['library.list', { device: 'ssd', limit: 501 }]);
  store.getState().toggleSelected(2);
  assert.equal(await store.getState().relabel(1, 'old HDD'), true);
  assert.equal(store.getState().runs.find((r) => r.id === 1)!.label, 'old HDD');
  await store.getState().remove(2);
  assert.deepEqual(
    store.getState().runs.map((r) => r.id),
    [1],
  );
  assert.deepEqual(store.getState().selected, []);
});

test('library: the list is asked for one page (plus one to know if more exist); showMore asks for the next', async () => {
  const library = Array.from({ length: 1200 }, (_, i) => summary(i + 1, `r${i + 1}`));
  const { client, calls } = scriptedClient({
    'library.list': ({ limit }: { limit: number }) => ({ ok: true, data: library.slice(-limit) }),
  });
  const store = createLibraryStore(client);
  await store.getState().load();
  assert.deepEqual(calls.at(-1), ['library.list', { limit: 501 }]);
  assert.equal(store.getState().runs.length, 500);
  // Newest first (#29: the Library listed oldest first, the run just made or imported at the bottom of 500).
  assert.deepEqual([store.getState().runs[0]!.id, store.getState().runs.at(-1)!.id], [1200, 701], 'the newest 500, newest first');
  assert.equal(store.getState().more, true);
  await store.getState().showMore();
  await store.getState().showMore();
  assert.equal(store.getState().runs.length, 1200);
  assert.equal(store.getState().more, false);
});

test('library: a file over the import limit is refused before it is read or sent, saying the limit', async () => {
  const { client, calls } = scriptedClient({
    'library.import': () => ({ ok: true, data: { ids: [5], alreadyPresent: [], warnings: [] } }),
    'library.list': () => ({ ok: true, data: [] }),
  });
  const store = createLibraryStore(client);
  let reads = 0;
  const read = async () => (reads++, 'eA==');
  const outcomes = await store.getState().importFiles([
    { name: 'huge.json', sizeBytes: 49 * 2 ** 20 + MAX_IMPORT_BYTES, read },
    { name: 'small.csv', sizeBytes: 1, read },
  ]);
  assert.equal(reads, 1, 'only the small file was read');
  assert.deepEqual(
    calls.filter(([name]) => name === 'library.import').map(([, input]) => (input as { fileName: string }).fileName),
    ['small.csv'],
  );
  assert.equal(outcomes[0]!.error?.code, 'IMPORT_FAILED');
  assert.match(outcomes[0]!.error!.message, /imports are limited to 50 MiB/);
  assert.deepEqual(outcomes[1]!.ids, [5]);
});

test('compare: at most six runs, fewer than two loads nothing, a stale answer is dropped', async () => {
  let release: (() => void) | null = null;
  const { client, calls } = scriptedClient({
    'compare.load': (input) =>
      new Promise((resolve) => {
        const answer = () =>
          resolve({ ok: true, data: { runs: input.runs.map((ref: unknown) => ({ ref, record: { label: JSON.stringify(ref) } })) } });
        if (input.runs.length === 2) release = answer;
        else answer();
      }),
  });
  const store = createCompareStore(client);
  store.getState().toggle({ kind: 'run', id: 1 });
  assert.equal(calls.length, 0, 'one run: nothing to load');
  const slow = store.getState().setRefs([
    { kind: 'run', id: 1 },
    { kind: 'run', id: 2 },
  ]);
  await store.getState().setRefs([
    { kind: 'run', id: 1 },
    { kind: 'run', id: 2 },
    { kind: 'reference', key: 'k' },
  ]);
  release!();
  await slow;
  assert.equal(store.getState().records.length, 3, 'the older two-run answer did not overwrite the newer one');
  for (let id = 3; id <= 10; id++) store.getState().toggle({ kind: 'run', id });
  assert.equal(store.getState().refs.length, MAX_COMPARED);
});

test('compare: ticking one more run fetches only that run; an outside selection fetches all', async () => {
  const { client, calls } = scriptedClient({
    'compare.load': async (input) => ({
      ok: true,
      data: { runs: input.runs.map((ref: unknown) => ({ ref, record: { label: JSON.stringify(ref) } })) },
    }),
  });
  const store = createCompareStore(client);
  await store.getState().setRefs([
    { kind: 'run', id: 1 },
    { kind: 'run', id: 2 },
  ]);
  store.getState().toggle({ kind: 'run', id: 3 });
  await new Promise((r) => setTimeout(r, 0));
  const fetched = (i: number) => (calls[i]![1] as { runs: unknown[] }).runs;
  assert.deepEqual(fetched(1), [{ kind: 'run', id: 3 }], 'only the new run is fetched');
  assert.deepEqual(
    store.getState().records.map((r) => r.label),
    ['{"kind":"run","id":1}', '{"kind":"run","id":2}', '{"kind":"run","id":3}'],
  );
  store.getState().toggle({ kind: 'run', id: 1 });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(calls.length, 2, 'unticking needs no fetch');
  assert.deepEqual(
    store.getState().records.map((r) => r.label),
    ['{"kind":"run","id":2}', '{"kind":"run","id":3}'],
  );
  await store.getState().setRefs([
    { kind: 'run', id: 2 },
    { kind: 'run', id: 3 },
  ]);
  assert.equal(fetched(2).length, 2, 'a selection from elsewhere (the Library) fetches everything again');
});

test('compare picker: a reference imported into the library is listed once, and either copy ticks it', async () => {
  const runs = [
    { id: 1, label: 'my SSD', createdAt: '2026-01-01T00:00:00Z', source: 'measured' as const, kind: 'disk' as const },
    { id: 2, label: 'Laptop hard disk (2011)', createdAt: '2011-01-01T00:00:00.000Z', source: 'reference' as const, kind: 'disk' as const },
    {
      id: 3,
      label: 'a reference no longer shipped',
      createdAt: '2010-01-01T00:00:00Z',
      source: 'reference' as const,
      kind: 'disk' as const,
    },
  ];
  const shipped = [{ key: 'hdd-2011', label: 'Laptop hard disk (2011)', createdAt: '2011-01-01T00:00:00Z' }];
  const columns = pickerColumns(runs, shipped);
  assert.deepEqual(
    columns.own.map((r) => r.id),
    [1],
    'no reference under "Your runs"',
  );
  assert.deepEqual(columns.references, [
    {
      label: 'Laptop hard disk (2011)',
      refs: [
        { kind: 'reference', key: 'hdd-2011' },
        { kind: 'run', id: 2 },
      ],
    },
    { label: 'a reference no longer shipped', refs: [{ kind: 'run', id: 3 }] },
  ]);

  const { client } = scriptedClient({
    'compare.load': async (input) => ({
      ok: true,
      data: { runs: input.runs.map((ref: unknown) => ({ ref, record: { label: JSON.stringify(ref) } })) },
    }),
  });
  const store = createCompareStore(client);
  // The Library's "Compare selected" picked the library copy (run 2): the one box unticks it.
  await store.getState().setRefs([
    { kind: 'run', id: 1 },
    { kind: 'run', id: 2 },
  ]);
  store.getState().toggleChoice(columns.references[0]!.refs);
  assert.deepEqual(store.getState().refs, [{ kind: 'run', id: 1 }]);
  store.getState().toggleChoice(columns.references[0]!.refs);
  assert.deepEqual(
    store.getState().refs,
    [
      { kind: 'run', id: 1 },
      { kind: 'reference', key: 'hdd-2011' },
    ],
    'ticking adds the shipped one',
  );
});

test('a slower, older list answer never overwrites a newer one: the Library and the kept scans show the run that just ended', async () => {
  // The page's own load and the one a finished run triggers overlap; the first is answered last.
  for (const make of ['library', 'workingSet'] as const) {
    const answers: Array<(v: unknown) => void> = [];
    const { client } = scriptedClient({
      'library.list': () => new Promise((resolve) => answers.push(resolve)),
      'library.get': ({ id }: { id: number }) => ({ ok: true, data: { id, label: `run ${id}`, results: [] } }),
    });
    const store = make === 'library' ? createLibraryStore(client) : createWorkingSetStore(client);
    const older = store.getState().load();
    const newer = store.getState().load();
    const summary = (id: number) => ({ id, label: `run ${id}`, createdAt: '2026-12-01T10:00:00.000Z' });
    answers[1]!({ ok: true, data: [summary(7)] });
    await newer;
    answers[0]!({ ok: true, data: [] });
    await older;
    const shown =
      make === 'library'
        ? (store.getState() as { runs: Array<{ id: number }> }).runs
        : (store.getState() as { scans: Array<{ id: number }> }).scans;
    assert.deepEqual(
      shown.map((r) => r.id),
      [7],
      `${make}: the answer of the older call was dropped`,
    );
    assert.equal(store.getState().loading, false, `${make}: not left loading`);
  }
});

test('fleet: the same question asked twice at once is sent once; of two choices, the later one stands whatever the order of answers', async () => {
  const answers: Array<{ input: { runIds?: number[] }; answer: (v: unknown) => void }> = [];
  const { client, calls } = scriptedClient({
    'fleet.compare': (input) => new Promise((answer) => answers.push({ input, answer })),
  });
  const groups = [
    { key: 'a', createdAt: '2026-12-01T10:00:00.000Z', hosts: 2, runIds: [1, 2] },
    { key: 'b', createdAt: '2026-12-02T10:00:00.000Z', hosts: 1, runIds: [3] },
  ];
  const fleetOf = (hosts: string[]) => ({ hosts }) as never;
  const store = createFleetStore(client);
  // The app's early load (route known) and the page's own on mount: one call, both resolved.
  const early = store.getState().load();
  const onMount = store.getState().load();
  assert.equal(calls.length, 1);
  answers[0]!.answer({ ok: true, data: { groups, fleet: fleetOf(['h1', 'h2', 'h3']) } });
  await Promise.all([early, onMount]);
  assert.deepEqual(store.getState().fleet, fleetOf(['h1', 'h2', 'h3']));
  // Unticking b then a: two questions; the first (only a's runs) answered last is dropped.
  const first = store.getState().toggle('b');
  const second = store.getState().toggle('a');
  assert.deepEqual(
    calls.slice(1).map(([, input]) => input),
    [{ runIds: [1, 2] }, {}],
  );
  assert.equal(store.getState().chosen?.length, 0);
  answers[2]!.answer({ ok: true, data: { groups, fleet: fleetOf([]) } });
  await second;
  answers[1]!.answer({ ok: true, data: { groups, fleet: fleetOf(['h1', 'h2']) } });
  await first;
  assert.equal(store.getState().fleet, null, 'nothing chosen: no fleet shown, not the older answer');
  assert.equal(store.getState().loading, false);
  // Asked again once answered: a new call (an import may have changed the library).
  void store.getState().load();
  assert.equal(calls.length, 4);
});

test('a run that ends before its runs.start is answered (a tiny scan) is shown ended, not running forever', async () => {
  let answer: (v: unknown) => void = () => {};
  const finished: string[] = [];
  const { client, fire } = scriptedClient({ 'runs.start': () => new Promise((resolve) => (answer = resolve)) });
  const store = createRunsStore(client, { onFinished: (id) => finished.push(id) });
  const started = store.getState().start({ target: '/home/me', tests: ['working-set'] });
  fire('run.finished', { runId: 'r9', status: 'done', recordId: 6, error: null });
  assert.equal(store.getState().runs['r9'], undefined, 'a run this tab has not started (yet) is not shown');
  answer({ ok: true, data: { runId: 'r9' } });
  assert.equal(await started, 'r9');
  const run = store.getState().runs['r9']!;
  assert.equal(run.status, 'done', 'the end heard before the answer is applied');
  assert.equal(run.recordId, 6);
  assert.equal(run.spec.target, '/home/me');
  assert.deepEqual(finished, ['r9']);
});

test('compare picker: your runs grouped by kind, disks first, so comparable runs sit together (#39)', () => {
  const run = (id: number, kind: RunKind) => ({
    id,
    label: `run ${id}`,
    createdAt: '2026-01-01T00:00:00Z',
    source: 'measured' as const,
    kind,
  });
  const groups = runsByKind([run(1, 'working-set'), run(2, 'disk'), run(3, 'discard-cost'), run(4, 'disk')]);
  assert.deepEqual(
    groups.map((g) => [g.kind, g.title, g.runs.map((r) => r.id)]),
    [
      ['disk', 'Disk measurements', [2, 4]],
      ['discard-cost', 'Discard-cost experiments', [3]],
      ['working-set', 'Working-set scans', [1]],
    ],
  );
});
