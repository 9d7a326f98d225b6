// The parameter tables (test-params.ts) against the worker's own (job.c PATTERNS and JOB_KEYS,
// as its --help prints them), and the id scheme that lets a test the catalog never listed be
// named, run, stored and imported.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TESTS, testIdFor, testTitle } from './catalog.ts';
import { ACCESS_PATTERN_NAMES } from './access-patterns.ts';
import { JOB_MAX_BUFFER_BYTES, PARAM_KEYS, paramsFromId, paramsId, paramsProblem, type TestParams } from './test-params.ts';

const WORKER = process.env.DISKDELTA_WORKER ?? fileURLToPath(new URL('../../../native/build/diskdelta-worker', import.meta.url));

describe('one list of access patterns and job keys, for TypeScript and the worker', () => {
  const help = spawnSync(WORKER, ['--help'], { encoding: 'utf8' }).stdout;

  test("the patterns are the worker's rw= patterns, in its order", () => {
    const line = /rw=PATTERN\s+one of:(.*)$/m.exec(help);
    assert.ok(line, 'the worker lists its patterns');
    assert.deepEqual(line[1]!.trim().split(/\s+/), [...ACCESS_PATTERN_NAMES]);
  });

  test("each key's range is the worker's, and so is the buffer limit", () => {
    const worker = [...help.matchAll(/^\s+([a-z]+)=N\s.*\((\d+)\.\.(\d+)\)$/gm)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
    assert.deepEqual(
      worker,
      PARAM_KEYS.map((k) => [k.job, k.min, k.max]),
    );
    assert.match(help, new RegExp(`at most ${JOB_MAX_BUFFER_BYTES / 2 ** 20} MiB`));
  });
});

describe('test ids from parameters', () => {
  test("every catalog rate test keeps its id, and an id of the scheme parses back to the catalog's parameters", () => {
    for (const t of TESTS.filter((t) => t.params && t.id !== 'seeks')) {
      assert.equal(paramsId(t.params!), t.id);
      assert.deepEqual(paramsFromId(t.id), t.params, t.id);
    }
  });

  test('parameters the catalog never listed get a stable id and title of their own, never a catalog test of other parameters', () => {
    const p: TestParams = { rw: 'read', blockSize: 128 * 1024, queueDepth: 32, threads: 1 };
    assert.equal(testIdFor(p), 'seq128k-q32t1-read');
    assert.deepEqual(paramsFromId('seq128k-q32t1-read'), p);
    assert.equal(testTitle('seq128k-q32t1-read'), 'sequential read 128K Q32T1');
    const rnd8k = testIdFor({ rw: 'randread', blockSize: 8192, queueDepth: 1, threads: 1 });
    assert.equal(rnd8k, 'rnd8k-q1t1-read');
    assert.notEqual(rnd8k, 'rnd4k-q1t1-read');
    assert.deepEqual(paramsFromId('mix50-rnd4k-q8t2'), { rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 2, readPercent: 50 });
  });

  test('a span (fio size=) is a parameter of its own: its id, title and parameters round-trip, and it is never the whole-target test', () => {
    const hot: TestParams = { rw: 'randread', blockSize: 4096, queueDepth: 1, threads: 1, spanMiB: 256 };
    assert.equal(testIdFor(hot), 'rnd4k-q1t1-read-span256m');
    assert.deepEqual(paramsFromId('rnd4k-q1t1-read-span256m'), hot);
    assert.equal(testTitle('rnd4k-q1t1-read-span256m'), 'random read 4K Q1T1 over the first 256 MiB');
    assert.equal(testIdFor({ ...hot, spanMiB: 2048 }), 'rnd4k-q1t1-read-span2g');
    assert.deepEqual(paramsFromId('mix70-rnd4k-q8t1-span1g'), {
      rw: 'randrw',
      blockSize: 4096,
      queueDepth: 8,
      threads: 1,
      readPercent: 70,
      spanMiB: 1024,
    });
    // Only the canonical spelling (1g, not 1024m) of a span the worker takes.
    for (const id of ['rnd4k-q1t1-read-span1024m', 'rnd4k-q1t1-read-span0m', 'rnd4k-q1t1-read-span256k', 'rnd4k-q1t1-read-span20000g'])
      assert.equal(paramsFromId(id), null, id);
    assert.equal(paramsProblem({ ...hot, spanMiB: 0 }), 'span=0: expected a whole number from 1 to 16777216');
  });

  test('only canonical ids of parameters the worker takes parse', () => {
    for (const id of [
      'seq1024k-q1t1-read',
      'seq1000-q1t1-read',
      'rnd4k-q0t1-read',
      'rnd4k-q1t65-read',
      'seq1m-q1024t64-read',
      'tree',
      'rnd4k-q1t1-trim',
    ])
      assert.equal(paramsFromId(id), null, id);
    assert.match(
      String(paramsProblem({ rw: 'read', blockSize: 64 * 2 ** 20, queueDepth: 1024, threads: 1 })),
      /over the limit of 1024 MiB/,
    );
  });
});
