import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunManager, type RunBenchmark } from './run-manager.ts';
import { ApiFailure } from './dispatch.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { BenchError } from '../bench/errors.ts';
import { events as contractEvents } from '../../shared/contract/contract.ts';
import { openLibrary } from '../store/library.ts';
import type { MeasuredRunStore } from '../store/save-measured.ts';

/**
 * Waits until the manager has no run going on (a run leaves the list once its run.finished is
 * sent), at most 5 s: a fixed sleep was too short on a loaded machine, now that a save also
 * reads the write counters.
 */
async function settled(manager: RunManager): Promise<void> {
  const deadline = Date.now() + 5000;
  while (manager.list().length > 0) {
    if (Date.now() > deadline) throw new Error('a run did not finish within 5 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A stand-in library whose saves `save` answers (these tests are about bookkeeping). */
function store(save: (record: RunRecord) => number): MeasuredRunStore {
  return { path: join(tmpdir(), 'dd-rm-no-library', 'library.sqlite'), saveRun: save, saveWriteSamples: () => {} };
}

/** What a stand-in orchestrator returns: a measured run with nothing in it (these tests are about bookkeeping). */
function emptyRecord(target: string): RunRecord {
  return {
    label: '',
    notes: '',
    createdAt: new Date().toISOString(),
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: target, kind: 'folder' },
    settings: {},
    engine: { name: 'x', version: '0' },
    results: [],
    extras: [],
    warnings: [],
  };
}

// A stand-in orchestrator that waits until aborted (then rejects like the real one, failure
// 'interrupted') or until released. It measures nothing; these tests are about bookkeeping.
function controllableBenchmark() {
  const releases: Array<() => void> = [];
  const run: RunBenchmark = (spec, { signal, onEvent }) =>
    new Promise<RunRecord>((resolve, reject) => {
      onEvent?.({
        type: 'progress',
        test: 'seq1m-q8t1-read',
        testIndex: 0,
        testCount: 1,
        phase: 'measure',
        run: 1,
        runs: 1,
        fraction: 0.5,
        etaSec: 1,
      });
      signal?.addEventListener('abort', () => reject(new BenchError('interrupted', 'cancelled')));
      releases.push(() => resolve(emptyRecord(spec.target)));
    });
  return { run, releases };
}

test('one run per device; cancel reports cancelled; a finished run is saved with its label', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const events: Array<[string, any]> = [];
  const saved: RunRecord[] = [];
  const bench = controllableBenchmark();
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: bench.run,
    library: store((r) => (saved.push(r), 42)),
    emit: (e, p) => events.push([e, p]),
  });

  const first = await manager.start({ target: dir, label: 'SSD' });
  await assert.rejects(manager.start({ target: dir }), (e: unknown) => e instanceof ApiFailure && e.code === 'BUSY');
  assert.equal(manager.list().length, 1);
  assert.deepEqual(await manager.cancel(first.runId), { cancelled: true });
  assert.equal(manager.list().length, 0);
  assert.deepEqual(events.at(-1)![1].status, 'cancelled');

  const second = await manager.start({ target: dir, label: 'SSD' });
  bench.releases.at(-1)!();
  await settled(manager);
  const finished = events.find(([e, p]) => e === 'run.finished' && p.runId === second.runId);
  assert.deepEqual(finished![1], { runId: second.runId, status: 'done', recordId: 42, error: null });
  assert.equal(saved[0]!.label, 'SSD');
  assert.deepEqual(await manager.cancel('nope'), { cancelled: false });
});

test('a run the library cannot save is kept elsewhere and fails as not-saved, naming the file; if nothing takes it, it says so', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const events: Array<[string, any]> = [];
  const kept: RunRecord[] = [];
  const bench = controllableBenchmark();
  const full = () => {
    throw new Error('database or disk is full');
  };
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: bench.run,
    library: store(full),
    keepUnsaved: async (r) => (kept.push(r), '/data/unsaved/run.json'),
    emit: (e, p) => events.push([e, p]),
  });
  const { runId } = await manager.start({ target: dir, label: 'SSD' });
  bench.releases.at(-1)!();
  await settled(manager);
  const finished = events.find(([e, p]) => e === 'run.finished' && p.runId === runId)![1];
  assert.equal(finished.status, 'failed');
  assert.equal(finished.error.failure, 'not-saved');
  assert.match(
    finished.error.message,
    /measured but the library could not save it \(database or disk is full\); they were written to \/data\/unsaved\/run\.json: import/,
  );
  assert.equal(kept[0]!.label, 'SSD');
  contractEvents['run.finished'].parse(finished);

  const nowhere = new RunManager({
    sample: () => {},
    runBenchmark: bench.run,
    library: store(full),
    keepUnsaved: () => Promise.reject(new Error('no folder would take the results')),
    emit: (e, p) => events.push([e, p]),
  });
  const second = await nowhere.start({ target: dir });
  bench.releases.at(-1)!();
  await settled(nowhere);
  const lost = events.find(([e, p]) => e === 'run.finished' && p.runId === second.runId)![1];
  assert.match(lost.error.message, /could not be kept elsewhere either: no folder would take the results/);
});

test('an encryption pair the library refuses half of: the first is saved, the second is kept, and the failure names its file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const events: Array<[string, any]> = [];
  const saved: RunRecord[] = [];
  const kept: RunRecord[] = [];
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: () => Promise.reject(new Error('not used: the spec asks for encryption')),
    runEncryption: async (spec) => [
      { ...emptyRecord(spec.target), label: 'raw' },
      { ...emptyRecord(spec.target), label: 'dm-crypt' },
      { ...emptyRecord(spec.target), label: 'dm-crypt writes' },
    ],
    library: store((r) => {
      if (saved.length === 1) throw new Error('database or disk is full');
      saved.push(r);
      return 5;
    }),
    keepUnsaved: async (r) => (kept.push(r), `/data/unsaved/${r.label.replace(/ /g, '-')}.json`),
    emit: (e, p) => events.push([e, p]),
  });
  const { runId } = await manager.start({ target: dir, encryption: 'throwaway' });
  await settled(manager);
  const finished = events.find(([e, p]) => e === 'run.finished' && p.runId === runId)![1];
  assert.deepEqual(
    saved.map((r) => r.label),
    ['raw'],
  );
  assert.deepEqual(
    kept.map((r) => r.label),
    ['dm-crypt', 'dm-crypt writes'],
  );
  assert.equal(finished.error.failure, 'not-saved');
  // Both files are named: a kept run whose file nobody is told of is as good as lost.
  assert.match(finished.error.message, /\/data\/unsaved\/dm-crypt\.json and \/data\/unsaved\/dm-crypt-writes\.json: import those files/);
  contractEvents['run.finished'].parse(finished);
});

test('a missing target is a BAD_INPUT, and stopAll aborts every run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bench = controllableBenchmark();
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: bench.run,
    library: store(() => 1),
    emit: () => {},
  });
  await assert.rejects(
    manager.start({ target: join(dir, 'missing') }),
    (e: unknown) => e instanceof ApiFailure && e.code === 'BAD_INPUT' && e.failure === 'target-missing',
  );
  await manager.start({ target: dir });
  await manager.stopAll(1000);
  assert.equal(manager.list().length, 0);
});

test('an event outside the contract is dropped and logged; the run goes on and is saved', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const errors: string[] = [];
  const events: string[] = [];
  const manager = new RunManager({
    sample: () => {},
    // The operator's log (serve passes its escaping writer): core writes to no terminal itself.
    log: (line) => errors.push(line),
    runBenchmark: async (spec, { onEvent }) => {
      onEvent?.({
        type: 'progress',
        test: 'no-such-test' as never,
        testIndex: 0,
        testCount: 1,
        phase: 'measure',
        run: 1,
        runs: 1,
        fraction: 0.5,
        etaSec: null,
      });
      return emptyRecord(spec.target);
    },
    library: store(() => 9),
    emit: (e, p) => {
      if (e === 'run.progress') throw new Error('refused by the contract');
      events.push(`${e}:${(p as { status?: string }).status ?? ''}`);
    },
  });
  const { runId } = await manager.start({ target: dir });
  await settled(manager);
  assert.deepEqual(events, ['run.finished:done']);
  assert.match(errors[0] ?? '', new RegExp(`dropped a progress event of run ${runId}`));
});

test('two targets on one disk (as system/ sees it) are one device: the second run is BUSY', async (t) => {
  const a = mkdtempSync(join(tmpdir(), 'dd-rm-a-'));
  const b = mkdtempSync(join(tmpdir(), 'dd-rm-b-'));
  t.after(() => [a, b].forEach((d) => rmSync(d, { recursive: true, force: true })));
  const bench = controllableBenchmark();
  const disks: Record<string, string> = { [a]: 'sda', [b]: 'sda' };
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: bench.run,
    library: store(() => 1),
    emit: () => {},
    diskOf: async (target) => disks[target] ?? null,
  });
  await manager.start({ target: a });
  await assert.rejects(manager.start({ target: b }), (e: unknown) => e instanceof ApiFailure && e.code === 'BUSY');
  disks[b] = 'nvme0n1';
  await manager.start({ target: b });
  assert.equal(manager.list().length, 2);
  await manager.stopAll(1000);
});

test('a working-set scan is no obstacle to a benchmark on its disk, nor held up by one (issue #40, item 5)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bench = controllableBenchmark();
  const manager = new RunManager({ sample: () => {}, runBenchmark: bench.run, library: store(() => 1), emit: () => {} });
  await manager.start({ target: dir, label: 'SSD' });
  // The scan reads no file data: it starts beside the measuring run …
  await manager.start({ target: dir, tests: ['working-set'] });
  // … and a second measuring run is still refused while the first measures.
  await assert.rejects(manager.start({ target: dir }), (e: unknown) => e instanceof ApiFailure && e.code === 'BUSY');
  assert.equal(manager.list().length, 2);
  await manager.stopAll(1000);
});

test("a spec with encryption runs the encryption assessment: both records saved, the last id reported; its failure is the run's", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const events: Array<[string, any]> = [];
  const saved: string[] = [];
  const record = (label: string): RunRecord => ({ ...emptyRecord(dir), label });
  let fail = false;
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: () => Promise.reject(new Error('the plain benchmark must not run')),
    runEncryption: async () => {
      if (fail) throw new Error('this kernel has no device-mapper (dm-mod), so dm-crypt cannot run here');
      return [record('raw'), record('dm-crypt')];
    },
    library: store((r) => (saved.push(r.label), saved.length)),
    emit: (e, p) => events.push([e, p]),
  });
  const ok = await manager.start({ target: dir, encryption: 'auto' });
  await settled(manager);
  assert.deepEqual(saved, ['raw', 'dm-crypt']);
  assert.deepEqual(events.find(([e, p]) => e === 'run.finished' && p.runId === ok.runId)![1], {
    runId: ok.runId,
    status: 'done',
    recordId: 2,
    error: null,
  });
  fail = true;
  const bad = await manager.start({ target: dir, encryption: 'throwaway' });
  await settled(manager);
  const finished = events.find(([e, p]) => e === 'run.finished' && p.runId === bad.runId)![1];
  assert.equal(finished.status, 'failed');
  assert.match(finished.error.message, /device-mapper/);
});

test("a failed run's finished event carries its failure code, so the page can offer the right action", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const finished: unknown[] = [];
  const outcomes: Array<[Error, string]> = [
    [new BenchError('no-space', 'not enough free space in /x'), 'no-space'],
    [new BenchError('permission', 'cannot open /dev/sdb'), 'permission'],
    [new Error('a bug'), 'internal'],
  ];
  for (const [error, expected] of outcomes) {
    const manager = new RunManager({
      sample: () => {},
      runBenchmark: async () => {
        throw error;
      },
      library: store(() => 1),
      emit: (e, p) => {
        if (e === 'run.finished') finished.push(contractEvents['run.finished'].parse(p));
      },
    });
    await manager.start({ target: dir });
    await settled(manager);
    assert.deepEqual(finished.at(-1), {
      runId: (finished.at(-1) as { runId: string }).runId,
      status: 'failed',
      recordId: null,
      error: { code: 'FAILED', message: error.message, failure: expected },
    });
  }
});

test("a run saved through the app's run manager takes a write-volume sample, as a run the CLI saves does", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-sample-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The write counters of a machine with one disk, sda, at 100 GB written since boot.
  const root = join(dir, 'root');
  mkdirSync(join(root, 'proc/sys/kernel/random'), { recursive: true });
  mkdirSync(join(root, 'sys/block/sda'), { recursive: true });
  writeFileSync(join(root, 'proc/diskstats'), `   8       0 sda 100 0 800 10 200 0 ${100e9 / 512} 20 0 30 30 0 0 0 0 0 0\n`);
  writeFileSync(join(root, 'proc/uptime'), '86400.00 1000.00\n');
  writeFileSync(join(root, 'proc/sys/kernel/random/boot_id'), 'boot-a\n');
  const library = openLibrary({ dbPath: join(dir, 'library.sqlite') });
  t.after(() => library.close());

  let finished: (payload: { status: string; recordId: number | null }) => void = () => {};
  const done = new Promise<{ status: string; recordId: number | null }>((resolve, reject) => {
    finished = resolve;
    setTimeout(() => reject(new Error('no run.finished within 10 s')), 10_000).unref();
  });
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: async (spec) => emptyRecord(spec.target),
    library,
    writeCounters: { root },
    emit: (event, payload) => {
      if (event === 'run.finished') finished(payload as { status: string; recordId: number | null });
    },
  });
  await manager.start({ target: dir, label: 'SSD' });
  const payload = await done;
  assert.equal(payload.status, 'done');
  assert.equal(library.getRun(payload.recordId!)?.label, 'SSD');
  assert.deepEqual(
    library.writeSamples().map(({ bootId, uptimeSeconds, disk, bytesWritten }) => ({ bootId, uptimeSeconds, disk, bytesWritten })),
    [{ bootId: 'boot-a', uptimeSeconds: 86_400, disk: 'sda', bytesWritten: 100e9 }],
  );
});

test('Stop, keep finished tests: the choice made at the stop reaches the orchestrator, and the cut-short run is saved (#40 item 6)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-rm-keep-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const events: Array<[string, any]> = [];
  const saved: RunRecord[] = [];
  // As the real orchestrator: it reads keepFinished when the stop arrives, not when the run starts.
  const run: RunBenchmark = (spec, options) =>
    new Promise<RunRecord>((resolve, reject) => {
      options.signal?.addEventListener('abort', () => {
        if (!options.keepFinished) return reject(new BenchError('interrupted', 'cancelled'));
        resolve({ ...emptyRecord(spec.target), warnings: [{ code: 'cut-short', message: 'cut short: kept 1 test' }] });
      });
    });
  const manager = new RunManager({
    sample: () => {},
    runBenchmark: run,
    library: store((r) => (saved.push(r), 7)),
    emit: (e, p) => events.push([e, p]),
  });

  const kept = await manager.start({ target: dir, label: 'kept' });
  assert.deepEqual(await manager.cancel(kept.runId, true), { cancelled: true });
  await settled(manager);
  assert.deepEqual(events.find(([e, p]) => e === 'run.finished' && p.runId === kept.runId)![1], {
    runId: kept.runId,
    status: 'done',
    recordId: 7,
    error: null,
  });
  assert.deepEqual(
    saved.map((r) => r.warnings.map((w) => w.code)),
    [['cut-short']],
  );

  const dropped = await manager.start({ target: dir, label: 'dropped' });
  await manager.cancel(dropped.runId);
  await settled(manager);
  assert.equal(events.find(([e, p]) => e === 'run.finished' && p.runId === dropped.runId)![1].status, 'cancelled');
  assert.equal(saved.length, 1, 'a plain Cancel keeps nothing');
});
