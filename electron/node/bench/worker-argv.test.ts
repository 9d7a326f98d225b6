import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { kindOfTest, testsOfKind } from '../../shared/model/catalog.ts';
import { PRESETS } from '../../shared/catalog/presets.ts';
import { TRUST } from '../../shared/analysis/statistics.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_VERBS } from '../../shared/model/worker-options.ts';
import { appStartArgv, bigfileArgv, jobSpec, runArgv, treeArgv, workerCommand, type WorkerPlan } from './worker-argv.ts';

const plan = (over: Partial<WorkerPlan> = {}): WorkerPlan => ({
  target: '/mnt/disk',
  tests: ['seq1m-q8t1-read', 'rnd4k-q1t1-write'],
  sizeBytes: 256 * 2 ** 20,
  durationSec: 1.5,
  warmupSec: 0.5,
  runs: 3,
  precision: 0,
  maxTimeSec: 2,
  buffered: false,
  sampleMs: 100,
  pauseSec: 0,
  readOnly: false,
  statistic: 'median',
  ...over,
});

// Every --job value the orchestrator may send: only fixed keys, enum patterns and numbers.
const JOB_SHAPE = /^name=[a-z0-9-]+,rw=(read|write|randread|randwrite|randrw|seeks),bs=\d+,qd=\d+,threads=\d+(,read=\d+)?$/;

describe('jobSpec', () => {
  test('the grid tests, seeks and mixed, as the worker spells them', () => {
    assert.equal(jobSpec('seq1m-q8t1-read'), 'name=seq1m-q8t1-read,rw=read,bs=1048576,qd=8,threads=1');
    assert.equal(jobSpec('seq1m-q1t1-write'), 'name=seq1m-q1t1-write,rw=write,bs=1048576,qd=1,threads=1');
    assert.equal(jobSpec('rnd4k-q32t1-read'), 'name=rnd4k-q32t1-read,rw=randread,bs=4096,qd=32,threads=1');
    assert.equal(jobSpec('rnd4k-q1t1-write'), 'name=rnd4k-q1t1-write,rw=randwrite,bs=4096,qd=1,threads=1');
    assert.equal(jobSpec('seeks'), 'name=seeks,rw=seeks,bs=8192,qd=1,threads=3');
    assert.equal(jobSpec('mix70-rnd4k-q8t1'), 'name=mix70-rnd4k-q8t1,rw=randrw,bs=4096,qd=8,threads=1,read=70');
  });

  test('every known test yields a job of enums and numbers only', () => {
    const rate = testsOfKind('rate');
    assert.ok(rate.length >= 10, 'the grid, seeks and the mix are rate tests');
    for (const t of rate) assert.match(jobSpec(t.id), JOB_SHAPE, t.id);
  });
});

describe('runArgv', () => {
  test('the full argv, in order', () => {
    assert.deepEqual(runArgv(plan()), [
      'run',
      '--target',
      '/mnt/disk',
      '--size',
      '268435456',
      '--duration',
      '1.5',
      '--warmup',
      '0.5',
      '--rest',
      '0',
      '--runs',
      '3',
      '--sample-ms',
      '100',
      '--job',
      'name=seq1m-q8t1-read,rw=read,bs=1048576,qd=8,threads=1',
      '--job',
      'name=rnd4k-q1t1-write,rw=randwrite,bs=4096,qd=1,threads=1',
    ]);
  });

  test('adaptive stopping: the interval, the time limit and the resolution rule from TRUST; none for a fixed count', () => {
    assert.ok(!runArgv(plan()).includes('--precision'));
    const argv = runArgv(plan({ precision: 0.02, maxTimeSec: 2 }));
    const value = (flag: string) => argv[argv.indexOf(flag) + 1];
    assert.deepEqual(
      [value('--precision'), value('--max-time'), value('--min-ios'), value('--min-time'), value('--min-window-ios')],
      ['0.02', '2', String(TRUST.minTotalIos), String(TRUST.minWindowSec), String(TRUST.minWindowIos)],
    );
  });

  test('--buffered and --file only when asked', () => {
    assert.ok(!runArgv(plan()).includes('--buffered'));
    assert.ok(!runArgv(plan()).includes('--file'));
    const argv = runArgv(plan({ buffered: true, reuseFile: '/mnt/disk/.diskdelta-1-ab.tmp' }));
    assert.ok(argv.includes('--buffered'));
    assert.equal(argv[argv.indexOf('--file') + 1], '/mnt/disk/.diskdelta-1-ab.tmp');
  });

  test('sizes are whole bytes (the worker refuses fractions)', () => {
    const argv = runArgv(plan({ sizeBytes: 1.5 * 2 ** 30 + 0.7 }));
    assert.equal(argv[argv.indexOf('--size') + 1], String(1.5 * 2 ** 30));
  });

  test('a hostile target path stays one argv element and never becomes a flag or a job', () => {
    const target = '/tmp/x --job name=evil,rw=write; rm -rf / $(reboot)';
    const argv = runArgv(plan({ target }));
    assert.equal(argv[1], '--target');
    assert.equal(argv[2], target);
    assert.equal(argv.filter((a) => a === '--job').length, 2);
    // Apart from the target, every element is a fixed flag, a number, or a job from the table.
    argv.forEach((a, i) => {
      if (i === 2) return;
      assert.ok(/^(run|--[a-z-]+|\d+(\.\d+)?)$/.test(a) || JOB_SHAPE.test(a), `argv[${i}] = ${a}`);
    });
  });

  test('every preset of rate tests turns into a valid argv (the workloads preset: kinds/workload.test.ts; sustained: kinds/sustained-write.test.ts; surface: kinds/surface.test.ts)', () => {
    const ratePresets = Object.values(PRESETS).filter((p) => p.tests.every((t) => kindOfTest(t) === 'rate'));
    assert.deepEqual(
      Object.values(PRESETS)
        .filter((p) => !ratePresets.includes(p))
        .map((p) => p.name),
      ['workloads', 'sustained', 'surface'],
    );
    for (const preset of ratePresets) {
      const { tests, sizeBytes, durationSec, warmupSec, runs, precision, maxTimeSec } = preset;
      const argv = runArgv(plan({ tests, sizeBytes, durationSec, warmupSec, runs, precision, maxTimeSec }));
      assert.equal(argv.filter((a) => a === '--job').length, preset.tests.length, preset.name);
      assert.equal(argv[argv.indexOf('--runs') + 1], String(preset.runs));
    }
  });
});

describe('one argv builder per worker verb', () => {
  test('tree, bigfile and app-start argv from their builders, as the worker takes them', () => {
    assert.deepEqual(treeArgv({ target: '/t', runs: 3, warmupPasses: 1, files: 45168, bytes: 592000000 }), [
      'tree',
      '--target',
      '/t',
      '--runs',
      '3',
      '--warmup-passes',
      '1',
      '--tree-files',
      '45168',
      '--tree-bytes',
      '592000000',
    ]);
    assert.deepEqual(bigfileArgv({ target: '/t', sizeBytes: 64 * 2 ** 20 + 0.5, runs: 1, warmupPasses: 0 }), [
      'bigfile',
      '--target',
      '/t',
      '--runs',
      '1',
      '--warmup-passes',
      '0',
      '--size',
      String(64 * 2 ** 20),
    ]);
    assert.deepEqual(appStartArgv({ target: '/t', runs: 1, warmupPasses: 0, readers: 4 }).slice(-2), ['--readers', '4']);
  });

  test('an option the verb does not take is refused here, as the worker refuses it (hold --readers)', () => {
    assert.throws(() => workerCommand('hold', { target: '/dev/sdb', readers: 4 }), /--readers is not an option of the worker's hold verb/);
    assert.throws(() => workerCommand('run', { target: '/t', colour: 'red' }), /the worker has no option --colour/);
  });

  test('no module of node/ or shared/ spells a worker verb argv by hand: each goes through worker-argv.ts', () => {
    const verbs = WORKER_VERBS.map((v) => v.name).join('|');
    const literal = new RegExp(`\\[\\s*'(${verbs})',\\s*'--`);
    // A walk of the engine's own sources (fixtures hold sysfs trees whose symlinks loop).
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() && e.name !== 'fixtures'
          ? sources(join(dir, e.name))
          : e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
            ? [join(dir, e.name)]
            : [],
      );
    const offenders = [new URL('../', import.meta.url), new URL('../../shared/', import.meta.url)]
      .flatMap((dir) => sources(fileURLToPath(dir)))
      .filter((f) => literal.test(readFileSync(f, 'utf8')));
    assert.ok(offenders.length === 0 && sources(fileURLToPath(new URL('../', import.meta.url))).length > 50);
    assert.deepEqual(offenders, []);
  });
});
