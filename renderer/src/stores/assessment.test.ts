// The assessment slice against a scripted client: a run started from a step becomes that step's
// run when it finishes (even with another assessment open by then), a cancelled or failed one
// leaves the step as it was and says why, and a refused step change is kept per step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiClient } from '../api/client.ts';
import type { AssessmentData } from '../../../electron/shared/contract/contract.ts';
import { createRunsStore } from './runs.ts';
import { createAssessmentStore } from './assessment.ts';

function assessment(id: number, steps: Partial<AssessmentData> = {}): AssessmentData {
  return {
    id,
    label: `A${id}`,
    createdAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
    before: null,
    after: null,
    encrypted: null,
    discardOff: null,
    discardOn: null,
    workingSet: null,
    emptied: {},
    notes: '',
    ...steps,
  };
}

function scripted() {
  const calls: Array<[string, any]> = [];
  const listeners = new Map<string, Set<(p: any) => void>>();
  const kept = new Map<number, AssessmentData>([
    [1, assessment(1)],
    [2, assessment(2)],
  ]);
  let runs = 0;
  const client: ApiClient = {
    kind: 'browser',
    async call(procedure, input: any) {
      calls.push([procedure, input]);
      if (procedure === 'assessments.get') return { ok: true, data: kept.get(input.id)! } as never;
      if (procedure === 'runs.start') return { ok: true, data: { runId: `r${++runs}` } } as never;
      if (procedure === 'assessments.set') {
        if (input.steps.after?.id === 404)
          return { ok: false, error: { code: 'BAD_INPUT', message: 'no run 404 in the library for the after step' } } as never;
        const ids = Object.fromEntries(Object.entries(input.steps).map(([f, ref]: [string, any]) => [f, ref?.id ?? null]));
        const next = { ...kept.get(input.id)!, ...ids };
        kept.set(input.id, next);
        return { ok: true, data: next } as never;
      }
      return { ok: false, error: { code: 'UNAVAILABLE', message: `${procedure} not scripted` } } as never;
    },
    on(event, listener) {
      (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(listener as never);
      return () => listeners.get(event)!.delete(listener as never);
    },
  };
  const fire = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  return { client, calls, fire, kept };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a run measured for a step is attached to that assessment when it is done, even with another one open by then', async () => {
  const { client, calls, fire, kept } = scripted();
  const runs = createRunsStore(client);
  const store = createAssessmentStore(client, runs);
  await store.getState().open(1);
  assert.equal(await store.getState().measure('before', { target: '/mnt/old', preset: 'quick' }), 'r1');
  assert.deepEqual(store.getState().pending.before, { assessmentId: 1, runId: 'r1' });
  assert.equal(runs.getState().currentRunId, 'r1', 'Live run shows it');
  await store.getState().open(2);
  fire('run.finished', { runId: 'r1', status: 'done', recordId: 42, error: null });
  await settle();
  assert.deepEqual(
    calls.filter(([p]) => p === 'assessments.set'),
    [['assessments.set', { id: 1, steps: { before: { kind: 'run', id: 42 } } }]],
  );
  assert.equal(kept.get(1)!.before, 42);
  assert.equal(store.getState().current?.id, 2, 'the open assessment stays open');
  assert.equal(store.getState().current?.before, null);
  assert.deepEqual(store.getState().pending, {});
});

test('a cancelled step run leaves the step as it was and says so; a refused pick is that step’s error, cleared by the next success', async () => {
  const { client, fire, kept } = scripted();
  const store = createAssessmentStore(client, createRunsStore(client));
  await store.getState().open(1);
  await store.getState().measure('workingSet', { target: '/home/me', tests: ['working-set'] });
  fire('run.finished', { runId: 'r1', status: 'cancelled', recordId: null, error: null });
  await settle();
  assert.equal(kept.get(1)!.workingSet, null);
  assert.match(store.getState().stepErrors.workingSet!.message, /cancelled: nothing was added to the step/);

  assert.equal(await store.getState().setSteps('after', { after: { kind: 'run', id: 404 } }), false);
  assert.match(store.getState().stepErrors.after!.message, /no run 404/);
  assert.equal(store.getState().busy, null);
  assert.equal(await store.getState().setSteps('after', { after: { kind: 'run', id: 7 } }), true);
  assert.equal(store.getState().stepErrors.after, undefined);
  assert.equal(store.getState().current?.after, 7);
  assert.equal(store.getState().list[0]?.id, 1);
});

test("a failed forecast of the kept candidates is the forecast's error, not a refusal; a change asks for it once", async () => {
  const { client, calls } = scripted();
  const withSet: ApiClient = {
    ...client,
    async call(procedure, input: any) {
      if (procedure === 'assessments.setCandidates') {
        calls.push([procedure, input]);
        return { ok: true, data: assessment(1, { updatedAt: '2026-12-02T00:00:00.000Z', candidates: input.candidates }) } as never;
      }
      // assessments.candidates is not scripted: it fails, as a forecast whose before run cannot be read does.
      return client.call(procedure, input);
    },
  };
  const store = createAssessmentStore(withSet, createRunsStore(withSet));
  await store.getState().open(1);
  await store.getState().loadCandidates();
  assert.equal(store.getState().candidatesError, null, 'nothing was refused');
  assert.match(store.getState().candidatesLoadError?.message ?? '', /assessments\.candidates not scripted/);

  // setCandidates asks for the new forecast, and so does the card's effect as the assessment changes: one call.
  const before = calls.filter(([p]) => p === 'assessments.candidates').length;
  // The card's effect: on each new version of the open assessment, load its candidates.
  const effects: Array<Promise<void>> = [];
  const stop = store.subscribe((s, prev) => {
    if (s.current?.updatedAt !== prev.current?.updatedAt) effects.push(store.getState().loadCandidates());
  });
  assert.equal(await store.getState().setCandidates([{ kind: 'run', id: 3 }]), true);
  await Promise.all(effects);
  stop();
  assert.equal(effects.length, 1);
  assert.equal(calls.filter(([p]) => p === 'assessments.candidates').length - before, 1);
});
