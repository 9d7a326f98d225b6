import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleWireMessage, invoke, type Handlers } from './dispatch.ts';
import { PROCEDURE_NAMES, procedures } from '../../shared/contract/contract.ts';
import { createHandlers } from './handlers.ts';

/** Handlers that record every call: a call reaching one of them when it should not fails the test. */
function spyHandlers() {
  const calls: string[] = [];
  const handlers = Object.fromEntries(
    PROCEDURE_NAMES.map((name) => [
      name,
      async (input: unknown) => {
        calls.push(name);
        if (name === 'runs.active') return [];
        if (name === 'library.delete') return { deleted: true };
        if (name === 'library.relabel') return input;
        return { bogus: true };
      },
    ]),
  ) as unknown as Handlers;
  return { calls, handlers };
}

test('an unknown procedure is refused before any handler runs', async () => {
  const { calls, handlers } = spyHandlers();
  const result = await invoke(handlers, 'library.dropAll', {});
  assert.deepEqual(result.ok, false);
  assert.equal(!result.ok && result.error.code, 'UNKNOWN_PROCEDURE');
  const proto = await invoke(handlers, '__proto__', {});
  assert.equal(!proto.ok && proto.error.code, 'UNKNOWN_PROCEDURE');
  assert.deepEqual(calls, []);
});

test('input failing the schema is refused before the handler, naming the field', async () => {
  const { calls, handlers } = spyHandlers();
  const bad = await invoke(handlers, 'library.relabel', { id: -3, label: 'x' });
  assert.equal(!bad.ok && bad.error.code, 'BAD_INPUT');
  assert.match(!bad.ok ? bad.error.message : '', /id/);
  const extra = await invoke(handlers, 'library.delete', { id: 1, path: '/etc/passwd' });
  assert.equal(!extra.ok && extra.error.code, 'BAD_INPUT');
  const spec = await invoke(handlers, 'runs.start', { target: '/tmp', sizeBytes: 1, argv: ['rm'] });
  assert.equal(!spec.ok && spec.error.code, 'BAD_INPUT');
  assert.deepEqual(calls, []);
  const good = await invoke(handlers, 'library.relabel', { id: 3, label: '  SSD  ' });
  assert.deepEqual(good, { ok: true, data: { id: 3, label: 'SSD' } });
  assert.deepEqual(calls, ['library.relabel']);
});

test('labels with control characters (terminal escapes) are refused by relabel and runs.start', async () => {
  const { calls, handlers } = spyHandlers();
  for (const label of ['\u001b]52;c;cm0gLXJmIH4=\u0007', 'a\u001b[2Jb', 'x\u009by', 'evil\u202egnp.exe', 'two\nlines']) {
    const relabel = await invoke(handlers, 'library.relabel', { id: 3, label });
    assert.equal(!relabel.ok && relabel.error.code, 'BAD_INPUT', JSON.stringify(label));
    assert.match(!relabel.ok ? relabel.error.message : '', /control characters are not allowed in a label/);
    const start = await invoke(handlers, 'runs.start', { target: '/tmp', label });
    assert.equal(!start.ok && start.error.code, 'BAD_INPUT');
  }
  assert.deepEqual(calls, []);
});

test('runs.start refuses a test named twice', async () => {
  const { calls, handlers } = spyHandlers();
  const twice = await invoke(handlers, 'runs.start', { target: '/tmp', tests: ['seeks', 'seeks'] });
  assert.equal(!twice.ok && twice.error.code, 'BAD_INPUT');
  assert.match(!twice.ok ? twice.error.message : '', /named twice/);
  assert.deepEqual(calls, []);
});

test('a handler output outside the contract becomes BAD_OUTPUT, not data', async () => {
  const { handlers } = spyHandlers();
  const result = await invoke(handlers, 'runs.cancel', { runId: 'abc' });
  assert.equal(!result.ok && result.error.code, 'BAD_OUTPUT');
});

test('wire messages: not JSON, not an envelope, unknown procedure → errors, no handler', async () => {
  const { calls, handlers } = spyHandlers();
  assert.deepEqual(await handleWireMessage(handlers, '{nope'), {
    type: 'error',
    id: null,
    error: { code: 'BAD_MESSAGE', message: 'message is not JSON' },
  });
  const noType = await handleWireMessage(handlers, JSON.stringify({ id: 1, procedure: 'runs.active', input: {} }));
  assert.equal(noType.type, 'error');
  const extraKey = await handleWireMessage(handlers, JSON.stringify({ type: 'invoke', id: 1, procedure: 'runs.active', input: {}, x: 1 }));
  assert.equal(extraKey.type, 'error');
  const unknown = await handleWireMessage(handlers, JSON.stringify({ type: 'invoke', id: 7, procedure: 'shell.exec', input: {} }));
  assert.equal(unknown.type === 'result' && unknown.id, 7);
  assert.equal(unknown.type === 'result' && !unknown.result.ok && unknown.result.error.code, 'UNKNOWN_PROCEDURE');
  assert.deepEqual(calls, []);
  const ok = await handleWireMessage(handlers, JSON.stringify({ type: 'invoke', id: 8, procedure: 'runs.active', input: {} }));
  assert.deepEqual(ok, { type: 'result', id: 8, result: { ok: true, data: [] } });
});

test('a missing backend module answers UNAVAILABLE with the reason', async () => {
  const handlers = createHandlers({
    library: null,
    formats: null,
    system: null,
    runs: null,
    missing: { library: 'the results library is not built yet' },
  });
  const result = await invoke(handlers, 'library.list', {});
  assert.deepEqual(result, { ok: false, error: { code: 'UNAVAILABLE', message: 'the results library is not built yet' } });
  const system = await invoke(handlers, 'system.overview', {});
  assert.equal(!system.ok && system.error.code, 'UNAVAILABLE');
});

test('every procedure has an input and an output schema', () => {
  for (const name of PROCEDURE_NAMES) {
    assert.equal(typeof procedures[name].input.safeParse, 'function', name);
    assert.equal(typeof procedures[name].output.safeParse, 'function', name);
  }
});
