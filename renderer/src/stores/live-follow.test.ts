// A Live run followed from a tab that did not start it: one opened before the run hears of it by
// its events, one opened during it asks runs.active; both end up with the run whole (its spec,
// the tests before, their samples once each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiClient } from '../api/client.ts';
import { appendSamples, createRunsStore } from './runs.ts';

const SPEC = { target: '/mnt/ssd', preset: 'standard' as const, label: 'followed' };
const progress = (test: string, testIndex: number) => ({
  test,
  testIndex,
  testCount: 8,
  phase: 'measure' as const,
  run: 1,
  runs: 1,
  fraction: testIndex / 8,
  etaSec: 30,
});
const sample = (test: string, tMs: number) => ({ test, run: 1, tMs, bytesPerSec: 1e8, iops: 100 });

/** A client whose runs.active answers what the backend's run manager holds; events are fired by the test. */
function backend(active: unknown[]) {
  const listeners = new Map<string, Set<(p: any) => void>>();
  let asked = 0;
  const client: ApiClient = {
    kind: 'browser',
    async call(procedure) {
      if (procedure !== 'runs.active') return { ok: false, error: { code: 'UNAVAILABLE', message: procedure } } as never;
      asked++;
      return { ok: true, data: active } as never;
    },
    on(event, listener) {
      (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(listener as never);
      return () => listeners.get(event)!.delete(listener as never);
    },
  };
  return { client, asked: () => asked, fire: (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload)) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

test('a tab opened before the run: its first event shows the run, and runs.active brings its spec and the tests before', async () => {
  const so = {
    runId: 'r1',
    spec: SPEC,
    device: 'dev:1',
    startedAt: '2026-12-01T18:00:00.000Z',
    progress: progress('seq1m-q8t1-write', 1),
    tests: ['seq1m-q8t1-read', 'seq1m-q8t1-write'],
    samples: [sample('seq1m-q8t1-read', 100), sample('seq1m-q8t1-read', 200), sample('seq1m-q8t1-write', 100)],
    warnings: [{ code: 'machine-busy', message: 'busy' }],
  };
  const { client, fire, asked } = backend([so]);
  const store = createRunsStore(client);
  assert.equal(store.getState().currentRunId, null);
  // A sample already in the snapshot arrives as an event too (it crossed the answer in flight).
  fire('run.samples', { runId: 'r1', samples: [sample('seq1m-q8t1-write', 100), sample('seq1m-q8t1-write', 200)] });
  assert.equal(store.getState().currentRunId, 'r1', 'the run is shown at its first event');
  await settle();
  assert.equal(asked(), 1);
  const run = store.getState().runs.r1!;
  assert.deepEqual(run.spec, SPEC);
  assert.equal(run.startedAt, so.startedAt);
  assert.deepEqual(run.tests, ['seq1m-q8t1-read', 'seq1m-q8t1-write']);
  assert.deepEqual(
    run.samples.map((s) => `${s.test}@${s.tMs}`),
    ['seq1m-q8t1-read@100', 'seq1m-q8t1-read@200', 'seq1m-q8t1-write@100', 'seq1m-q8t1-write@200'],
  );
  assert.deepEqual(run.warnings, so.warnings);
  // Later events add to it, once each.
  fire('run.samples', { runId: 'r1', samples: [sample('seq1m-q8t1-write', 200), sample('seq1m-q8t1-write', 300)] });
  assert.equal(store.getState().runs.r1!.samples.length, 5);
  fire('run.warning', { runId: 'r1', code: 'machine-busy', message: 'busy' });
  assert.equal(store.getState().runs.r1!.warnings.length, 1);
});

test('a tab opened during the run (or reloaded): runs.active alone gives it the spec, the tests so far and their samples', async () => {
  const { client } = backend([
    {
      runId: 'r2',
      spec: SPEC,
      device: 'dev:1',
      startedAt: '2026-12-01T18:00:00.000Z',
      progress: progress('seq1m-q1t1-read', 2),
      tests: ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'seq1m-q1t1-read'],
      samples: [sample('seq1m-q8t1-read', 100)],
      warnings: [],
    },
  ]);
  const store = createRunsStore(client);
  await store.getState().loadActive();
  const run = store.getState().runs.r2!;
  assert.equal(store.getState().currentRunId, 'r2');
  assert.equal(run.spec.label, 'followed');
  assert.equal(run.progress?.testIndex, 2);
  assert.deepEqual(run.tests, ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'seq1m-q1t1-read']);
  assert.equal(run.samples.length, 1);
});

test('the end of a run this tab never saw is not shown; a new run replaces an ended one on the page', async () => {
  const { client, fire } = backend([]);
  const store = createRunsStore(client);
  fire('run.finished', { runId: 'gone', status: 'done', recordId: 3, error: null });
  assert.equal(store.getState().currentRunId, null);
  assert.deepEqual(store.getState().runs, {});
  fire('run.progress', { runId: 'a', ...progress('seq1m-q8t1-read', 0) });
  fire('run.finished', { runId: 'a', status: 'cancelled', recordId: null, error: null });
  fire('run.progress', { runId: 'b', ...progress('seq1m-q8t1-read', 0) });
  assert.equal(store.getState().currentRunId, 'b');
});

test('appendSamples: a sample held already (same test and run, no later time) is dropped; other runs of a test are kept', () => {
  const held = [sample('t', 100), sample('t', 200)];
  assert.deepEqual(
    appendSamples(held, [sample('t', 200), sample('t', 300), { ...sample('t', 100), run: 2 }]).map((s) => `${s.run}:${s.tMs}`),
    ['1:100', '1:200', '1:300', '2:100'],
  );
});
