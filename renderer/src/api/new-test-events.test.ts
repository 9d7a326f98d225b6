// A test id the catalog (and the API's old `z.enum(TEST_IDS)`) does not know must still reach
// the renderer: new kinds of measurement bring new test ids. The path is the real one:
// run manager → coalescer (checks the contract) → WebSocket server → browser-mode client →
// runs store → Live run view. Only the benchmark itself is scripted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket as NodeWebSocket } from 'ws';
import { createCoalescer, type EventSink } from '../../../electron/node/api/events.ts';
import { createHandlers } from '../../../electron/node/api/handlers.ts';
import { RunManager, type RunBenchmark } from '../../../electron/node/api/run-manager.ts';
import { isCatalogTest } from '../../../electron/shared/model/catalog.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import { startServer, type RunningServer } from '../../../electron/server/server.ts';
import { createRunsStore } from '../stores/runs.ts';
import { liveSeries, testStates } from '../view/live-view.ts';
import { createWsClient } from './ws-transport.ts';

/** The ten ids the contract's enum accepted before the catalog. */
const OLD_ENUM = [
  'seq1m-q8t1-read',
  'seq1m-q8t1-write',
  'seq1m-q1t1-read',
  'seq1m-q1t1-write',
  'rnd4k-q32t1-read',
  'rnd4k-q32t1-write',
  'rnd4k-q1t1-read',
  'rnd4k-q1t1-write',
  'seeks',
  'mix70-rnd4k-q8t1',
];
const NEW_TEST = 'cipher-aes-xts-plain64';

test('progress and samples of a test id the old enum did not know reach the Live run view', async (t) => {
  assert.ok(!OLD_ENUM.includes(NEW_TEST) && !isCatalogTest(NEW_TEST), 'the id is unknown to the old enum and to the catalog');
  const target = mkdtempSync(join(tmpdir(), 'dd-new-test-'));
  t.after(() => rmSync(target, { recursive: true, force: true }));

  let server: RunningServer | null = null;
  const sink: EventSink = (event, payload) => server?.broadcast(event, payload);
  const coalescer = createCoalescer(sink, 20);
  const runBenchmark: RunBenchmark = async (spec, { onEvent }) => {
    onEvent?.({
      type: 'progress',
      test: NEW_TEST,
      testIndex: 0,
      testCount: 1,
      phase: 'measure',
      run: 1,
      runs: 1,
      fraction: 0.5,
      etaSec: 1,
    });
    onEvent?.({ type: 'sample', test: NEW_TEST, run: 1, tMs: 100, bytesPerSec: 2.5e9, iops: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { label: spec.label ?? '' } as RunRecord;
  };
  // A stand-in library: the run is saved as id 41 (the write-volume sample is dropped).
  const library = { path: join(target, 'library.sqlite'), saveRun: () => 41, saveWriteSamples: () => {} };
  const runs = new RunManager({ runBenchmark, library, emit: coalescer.emit, sample: coalescer.sample });
  server = await startServer({
    handlers: createHandlers({ library: null, formats: null, system: null, runs, missing: {} }),
    distDir: target,
  });
  const running = server;
  t.after(async () => {
    coalescer.close();
    await running.close();
  });

  // The browser's WebSocket sends the page's Origin; Node's does not, so give it one.
  const origin = `http://127.0.0.1:${running.port}`;
  const globals = globalThis as { WebSocket: unknown };
  const previous = globals.WebSocket;
  globals.WebSocket = class extends NodeWebSocket {
    constructor(url: string) {
      super(url, { headers: { origin } });
    }
  };
  t.after(() => {
    globals.WebSocket = previous;
  });
  const client = createWsClient({ url: `ws://127.0.0.1:${running.port}/api?token=${running.token}` });
  // The client reconnects to a server that went away (ws-transport.ts): closed here, or its retry timer keeps the test alive.
  t.after(() => client.close());
  const finished = new Promise<string>((resolve) => client.on('run.finished', ({ status }) => resolve(status)));
  const store = createRunsStore(client);

  const runId = await store.getState().start({ target, label: 'cipher' });
  assert.ok(runId, `runs.start answered: ${JSON.stringify(store.getState().startError)}`);
  assert.equal(await finished, 'done');
  const run = store.getState().runs[runId]!;
  assert.deepEqual(run.tests, [NEW_TEST], 'the progress event was not dropped');
  assert.equal(run.samples.length, 1, 'the sample event was not dropped');
  assert.equal(run.samples[0]?.test, NEW_TEST);
  assert.deepEqual(
    testStates(run).map((s) => s.title),
    [NEW_TEST],
    'a test the catalog does not list is titled by its id',
  );
  assert.equal(liveSeries(run.samples)[0]?.points[0]?.mbps, 2500);
  assert.equal(run.recordId, 41);
});
