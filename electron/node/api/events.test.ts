import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCoalescer } from './events.ts';

const progress = (runId: string, fraction: number) => ({
  runId,
  test: 'seq1m-q8t1-read' as const,
  testIndex: 0,
  testCount: 1,
  phase: 'measure' as const,
  run: 1,
  runs: 1,
  fraction,
  etaSec: 1,
});

test('a burst of progress becomes one event per interval carrying the latest figures', async () => {
  const sent: Array<[string, unknown]> = [];
  const c = createCoalescer((event, payload) => sent.push([event, payload]), 50);
  for (let i = 0; i <= 100; i++) c.emit('run.progress', progress('r1', i / 100));
  assert.equal(sent.length, 0, 'nothing is sent synchronously');
  await sleep(80);
  assert.equal(sent.length, 1);
  assert.equal((sent[0]![1] as { fraction: number }).fraction, 1);
  c.close();
});

test('samples are batched, and finished flushes what is pending first', async () => {
  const sent: Array<[string, unknown]> = [];
  const c = createCoalescer((event, payload) => sent.push([event, payload]), 1000);
  for (let i = 0; i < 5; i++) {
    c.sample('r', { test: 'seq1m-q8t1-write', run: 1, tMs: i * 10, bytesPerSec: 1e6, iops: 1 });
  }
  c.emit('run.progress', progress('r', 0.9));
  c.emit('run.finished', { runId: 'r', status: 'done', recordId: 4, error: null });
  assert.deepEqual(
    sent.map(([e]) => e),
    ['run.samples', 'run.progress', 'run.finished'],
  );
  assert.equal((sent[0]![1] as { samples: unknown[] }).samples.length, 5);
  c.close();
});

test('over one second of continuous progress at most ~10 events reach the renderer', (t) => {
  // Mocked clock: the count depends on the coalescer's interval, never on how busy this
  // machine's event loop is.
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let count = 0;
  const c = createCoalescer(() => count++, 100);
  for (let ms = 0; ms < 1000; ms += 2) {
    c.emit('run.progress', progress('r', 0.5));
    t.mock.timers.tick(2);
  }
  c.close();
  assert.equal(count, 10, `sent ${count} events`);
});

test('a payload outside the contract throws at the emitter', () => {
  const c = createCoalescer(() => {}, 100);
  assert.throws(() => c.emit('run.warning', { runId: 'r', code: 1 } as never));
  c.close();
});

test("samples are batched in one place: the coalescer's sample(); a 'run.samples' handed to emit is refused, and a bad sample throws", () => {
  const sent: Array<[string, unknown]> = [];
  const c = createCoalescer((event, payload) => sent.push([event, payload]), 1000);
  assert.throws(() => c.emit('run.samples', { runId: 'r', samples: [] }), /sent by the coalescer alone: hand each sample to sample\(\)/);
  assert.throws(() => c.sample('r', { test: 'seq1m-q8t1-write', run: 1, tMs: 'soon', bytesPerSec: 1, iops: 1 } as never));
  c.sample('a', { test: 'seq1m-q8t1-write', run: 1, tMs: 0, bytesPerSec: 1, iops: 1 });
  c.sample('b', { test: 'seq1m-q8t1-read', run: 1, tMs: 0, bytesPerSec: 2, iops: 2 });
  c.sample('a', { test: 'seq1m-q8t1-write', run: 1, tMs: 100, bytesPerSec: 3, iops: 3 });
  c.flush();
  assert.deepEqual(
    sent.map(([e, p]) => [e, (p as { runId: string }).runId, (p as { samples: unknown[] }).samples.length]),
    [
      ['run.samples', 'a', 2],
      ['run.samples', 'b', 1],
    ],
  );
  c.close();
});
