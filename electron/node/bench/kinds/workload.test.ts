// The workload kind: planned one step per test (each its own worker verb), argv from enums and
// numbers, phases aggregated into medians (warm-ups left out) and a real run end to end.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRuns } from '../../../shared/analysis/compare.ts';
import { loadReferenceRuns } from '../../formats/reference.ts';
import { planRun, runBenchmark } from '../orchestrator.ts';
import type { WorkerMessage } from '../worker-protocol.ts';
import { phaseFigures, phaseTrustWarnings, workloadArgv, workloadKind, type WorkloadPlan } from './workload.ts';
import { resultWithoutRuns } from '../../formats/common.ts';
import type { RunRecord } from '../../../shared/model/results.ts';

type Phase = Extract<WorkerMessage, { type: 'phase' }>;
const pass = (phase: Phase['phase'], run: number, seconds: number, spread?: number): Phase => ({
  v: 1,
  type: 'phase',
  workload: phase === 'start' ? 'app-start' : 'tree',
  phase,
  run,
  warmup: run === 0,
  seconds,
  sync_seconds: 0.01,
  files: 10,
  bytes: 1000,
  ...(spread === undefined ? {} : { spread_seconds: spread }),
});

describe('the workload kind', () => {
  it('plans one step per workload test, each validated, with the seed’s three passes by default', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-workload-kind-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const { steps } = await planRun({ target: dir, tests: ['tree-3.9.1', 'bigfile', 'seq1m-q8t1-read'] });
    assert.deepEqual(
      steps.map((s) => [s.kind.id, s.tests]),
      [
        ['workload', ['tree-3.9.1']],
        ['workload', ['bigfile']],
        ['rate', ['seq1m-q8t1-read']],
      ],
    );
    const tree = steps[0]?.plan as WorkloadPlan;
    assert.deepEqual(tree, { target: dir, test: 'tree-3.9.1', runs: 3, warmupPasses: 1, sizeBytes: 3e9, readers: 4 });
    assert.deepEqual(workloadArgv(tree), [
      'tree',
      '--target',
      dir,
      '--runs',
      '3',
      '--warmup-passes',
      '1',
      '--tree-files',
      '45168',
      '--tree-bytes',
      '592000000',
    ]);
    assert.deepEqual(workloadArgv({ ...tree, test: 'app-start' }).slice(-2), ['--readers', '4']);
    assert.deepEqual(workloadArgv({ ...tree, test: 'bigfile', sizeBytes: 2 ** 30 }).slice(-2), ['--size', String(2 ** 30)]);
  });

  it('app-start, and only app-start, hands the worker the cache-dropping helper when the run has one', () => {
    const plan: WorkloadPlan = { target: '/srv', test: 'app-start', runs: 1, warmupPasses: 0, sizeBytes: 2 ** 24, readers: 4 };
    const context = { cacheHelper: '/usr/libexec/diskdelta/diskdelta-helper' } as Parameters<typeof workloadKind.start>[1];
    assert.deepEqual(workloadKind.start(plan, context).argv?.slice(-2), ['--helper', '/usr/libexec/diskdelta/diskdelta-helper']);
    assert.ok(!workloadKind.start({ ...plan, test: 'tree' }, context).argv?.includes('--helper'));
    assert.ok(!workloadKind.start(plan, { ...context, cacheHelper: undefined }).argv?.includes('--helper'));
  });

  it("the tarball workload: the worker's tree verb with --tarball; planned only with a file to extract", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-workload-tarball-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const { steps } = await planRun({ target: dir, tests: ['tarball'], tarball: '/srv/linux-3.9.1.tar.xz' });
    const plan = steps[0]?.plan as WorkloadPlan;
    assert.deepEqual(workloadArgv(plan).slice(0, 1).concat(workloadArgv(plan).slice(-2)), ['tree', '--tarball', '/srv/linux-3.9.1.tar.xz']);
    await assert.rejects(planRun({ target: dir, tests: ['tarball'] }), /the tarball workload needs a tarball to extract: give the path/);
  });

  it("the workloads preset: the tree at the seed's size, the 3 GB file and programs starting, three timed passes each", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-workload-preset-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const { steps } = await planRun({ target: dir, preset: 'workloads' });
    assert.deepEqual(
      steps.map((s) => [s.kind.id, s.tests, (s.plan as WorkloadPlan).runs, (s.plan as WorkloadPlan).sizeBytes]),
      [
        ['workload', ['tree-3.9.1'], 3, 3e9],
        ['workload', ['bigfile'], 3, 3e9],
        ['workload', ['app-start'], 3, 3e9],
      ],
    );
  });

  it('figures: the median of the timed passes per phase (warm-ups out), with the range and the spread in the basis', () => {
    const figures = phaseFigures(
      [pass('write', 0, 99), pass('write', 1, 3), pass('delete', 1, 1), pass('write', 2, 5), pass('write', 3, 4), pass('delete', 2, 2)],
      {
        v: 1,
        type: 'workload',
        workload: 'tree',
        shape: 'linux-6.1.192',
        scaled: true,
        files: 45168,
        bytes: 592e6,
      },
    );
    assert.deepEqual(
      figures.map((f) => [f.subject, f.value, f.unit, f.metric, f.provenance]),
      [
        ['write', 4, 's', 'phaseSeconds', 'measured'],
        ['delete', 1.5, 's', 'phaseSeconds', 'measured'],
      ],
    );
    assert.match(
      figures[0]!.basis!,
      /^median of 3 runs \(3\.00 s–5\.00 s\), syncfs included; scaled linux-6\.1\.192 tree: 45,168 files, 592 MB$/,
    );
    const start = phaseFigures([pass('start', 1, 2, 0.5), pass('start', 2, 4, 0.7)], null);
    assert.match(start[0]!.basis!, /first to last program 0\.60 s/);
    // Milliseconds keep their digits: two fast deletes do not read as one range "0.01 s–0.01 s".
    const fast = phaseFigures([pass('delete', 1, 0.0079), pass('delete', 2, 0.0121)], null);
    assert.match(fast[0]!.basis!, /^median of 2 runs \(0\.0079 s–0\.012 s\)/);
  });

  it('a real run: big file and programs starting, figures in seconds, nothing left behind', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-workload-run-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const record = await runBenchmark({ target: dir, tests: ['bigfile', 'app-start'], runs: 2, sizeBytes: 32 * 2 ** 20 });
    assert.deepEqual(
      record.results.map((r) => [r.test, r.bytesPerSec, (r.figures ?? []).map((f) => f.subject)]),
      [
        ['bigfile', null, ['write', 'delete']],
        ['app-start', null, ['start']],
      ],
    );
    for (const f of record.results.flatMap((r) => r.figures ?? [])) {
      assert.ok(f.value !== null && f.value >= 0 && f.unit === 's' && f.provenance === 'measured');
      assert.match(f.basis ?? '', /^median of 2 runs/);
    }
    assert.match(record.results[0]?.figures?.[0]?.basis ?? '', /one file of 34 MB/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("passes are judged by the rates' trust rules: the issue's delete of 4.77 s–26.4 s is flagged noisy, steady passes are not", () => {
    const wild = phaseFigures([pass('delete', 0, 9), pass('delete', 1, 4.77), pass('delete', 2, 21.69), pass('delete', 3, 26.4)], null);
    assert.deepEqual(wild[0]!.passes, [4.77, 21.69, 26.4], 'the timed passes are kept (warm-up out)');
    const flagged = phaseTrustWarnings(wild);
    assert.equal(flagged.length, 1);
    assert.equal(flagged[0]!.code, 'noisy');
    assert.match(
      flagged[0]!.message,
      /^delete: the 3 passes differ by \d+ % \(4\.77 s–26\.4 s; coefficient of variation\), so the median 21\.7 s is known within ±\d+ % \(95 %\): something else is using the disk or the CPU; measure again with more runs, or on a quiet machine$/,
    );
    const steady = phaseFigures([pass('write', 1, 1.0), pass('write', 2, 1.02), pass('write', 3, 0.99)], null);
    assert.deepEqual(phaseTrustWarnings(steady), []);
    // Two passes 30 % apart: no interval from two, but the coefficient of variation says it.
    assert.equal(phaseTrustWarnings(phaseFigures([pass('delete', 1, 1.0), pass('delete', 2, 1.4)], null))[0]?.code, 'noisy');
    // One pass has no spread to judge: nothing said about it here (compare says "a single value").
    assert.deepEqual(phaseTrustWarnings(phaseFigures([pass('delete', 1, 3)], null)), []);
  });

  it('two workload runs are judged beyond or within their passes’ spread by the one rule of compare', () => {
    const run = (label: string, deletes: number[]): RunRecord => ({
      label,
      notes: '',
      createdAt: '2026-12-01T00:00:00.000Z',
      source: 'measured',
      sourceFormat: 'diskdelta',
      sourceMeta: {},
      target: { path: '/x', kind: 'folder' },
      settings: {},
      engine: { name: 'diskdelta-worker tree', version: '1' },
      results: [
        resultWithoutRuns({
          test: 'tree',
          params: null,
          bytesPerSec: null,
          iops: null,
          figures: phaseFigures(
            deletes.map((s, i) => pass('delete', i + 1, s)),
            null,
          ),
        }),
      ],
      extras: [],
      warnings: [],
    });
    const rowOf = (a: number[], b: number[]) =>
      compareRuns([run('old', a), run('new', b)]).rows.find((r) => r.metric === 'phaseSeconds:delete')!.cells[1]!.vsBaseline!;
    const halved = rowOf([2.0, 2.1, 1.9], [1.0, 1.05, 0.95]);
    assert.deepEqual([halved.verdict, halved.beyondSpread], ['better', 'yes']);
    const wild = rowOf([4.77, 21.69, 26.4], [3.64, 18.65, 25.0]);
    assert.deepEqual([wild.verdict, wild.beyondSpread], ['better', 'no']);
    assert.match(wild.spreadReason, /is within 2× the runs' combined spread on a log scale/);
  });

  it("the seed's Intel 525 reference and a measured tree-3.9.1 run, in one comparison: write and delete side by side, lower is better", async (t) => {
    // 592 MB written twice: in memory (tmpfs) where there is one, so the test checks the view, not this disk.
    const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'dd-workload-seed-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const measured = await runBenchmark({ target: dir, tests: ['tree-3.9.1'], runs: 1, label: 'this machine' });
    const seed = (await loadReferenceRuns()).filter((r) => /Intel 525/.test(r.label));
    assert.equal(seed.length, 2);
    const c = compareRuns([...seed, measured]);
    for (const phase of ['write', 'delete']) {
      const row = c.rows.find((r) => r.test === 'tree-3.9.1' && r.metric === `phaseSeconds:${phase}`);
      assert.ok(row, `a tree-3.9.1 ${phase} row`);
      assert.equal(row.direction, 'lower');
      assert.deepEqual(
        row.cells.map((cell) => cell.inRun && cell.value !== null),
        [true, true, true],
        'both seed runs and the measured run have the figure',
      );
      assert.ok(row.cells[2]!.vsBaseline?.verdict, 'the measured run is judged against the seed');
    }
    assert.ok(
      c.notes.some((n) => /reference/i.test(n)),
      'the comparison says reference figures are in it',
    );
  });
});
