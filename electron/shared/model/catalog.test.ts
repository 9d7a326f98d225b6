import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GRID_TEST_IDS,
  METRICS,
  TESTS,
  metricById,
  readCounterpart,
  testById,
  testByForeignName,
  testIdFor,
  testTitle,
  testWrites,
  titleForParams,
} from './catalog.ts';

describe('the catalog of tests', () => {
  test('a write test has the read of its shape as counterpart; reads, workloads and unknown ids have none', () => {
    assert.equal(readCounterpart('seq1m-q8t1-write'), 'seq1m-q8t1-read');
    assert.equal(readCounterpart('rnd4k-q32t1-write'), 'rnd4k-q32t1-read');
    assert.equal(readCounterpart('seq1m-q8t1-read'), null);
    assert.equal(readCounterpart('tree'), null);
    assert.equal(readCounterpart('no-such-test'), null);
    for (const t of TESTS) {
      const read = readCounterpart(t.id);
      if (read) assert.equal(testById(read)?.params?.blockSize, t.params?.blockSize, `${t.id} → ${read}: same block size`);
    }
  });

  test('ids are unique, and each id is the one its parameters name', () => {
    assert.equal(new Set(TESTS.map((t) => t.id)).size, TESTS.length);
    for (const t of TESTS) if (t.params) assert.equal(testIdFor(t.params), t.id, t.id);
  });

  test('the grid is the eight CrystalDiskMark cells, in the grid order', () => {
    assert.deepEqual(GRID_TEST_IDS, [
      'seq1m-q8t1-read',
      'seq1m-q8t1-write',
      'seq1m-q1t1-read',
      'seq1m-q1t1-write',
      'rnd4k-q32t1-read',
      'rnd4k-q32t1-write',
      'rnd4k-q1t1-read',
      'rnd4k-q1t1-write',
    ]);
  });

  test('titles come from the catalog, from parameters for other ids, else the id itself', () => {
    assert.equal(testTitle('seq1m-q8t1-read'), 'sequential read 1M Q8T1');
    assert.equal(testTitle('rnd4k-q32t1-write'), 'random write 4K Q32T1');
    assert.equal(testTitle('mix70-rnd4k-q8t1'), 'random 70 % read mix 4K Q8T1');
    assert.equal(testTitle('seeks'), 'random seeks');
    assert.equal(testTitle('rnd4k-q32t16-read', { rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 16 }), 'random read 4K Q32T16');
    assert.equal(testTitle('fio job "x"'), 'fio job "x"');
    assert.equal(titleForParams({ rw: 'write', blockSize: 128 * 1024, queueDepth: 2, threads: 4 }), 'sequential write 128K Q2T4');
  });

  test('ids for parameters outside the catalog follow the same scheme', () => {
    assert.equal(testIdFor({ rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 16 }), 'rnd4k-q32t16-read');
    assert.equal(testIdFor({ rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 1, readPercent: 50 }), 'mix50-rnd4k-q8t1');
    assert.equal(testIdFor({ rw: 'read', blockSize: 512, queueDepth: 1, threads: 1 }), 'seq512-q1t1-read');
  });

  test("other tools' names map to catalog tests", () => {
    assert.equal(testByForeignName('bonnie', 'get_block')?.id, 'seq1m-q1t1-read');
    assert.equal(testByForeignName('bonnie', 'put_block')?.id, 'seq1m-q1t1-write');
    assert.equal(testByForeignName('bonnie', 'seeks')?.id, 'seeks');
    assert.equal(testByForeignName('grid', 'RND4K Q1T1')?.id, 'rnd4k-q1t1-read');
    assert.equal(testByForeignName('bonnie', 'putc'), undefined);
  });

  test('writes: write, random write and mixed tests, every workload (they write their files) and the sustained write; seeks only read on a device', () => {
    assert.deepEqual(
      TESTS.filter((t) => t.writes).map((t) => t.id),
      [
        'seq1m-q8t1-write',
        'seq1m-q1t1-write',
        'rnd4k-q32t1-write',
        'rnd4k-q1t1-write',
        'seq128k-q32t1-write',
        'rnd4k-q32t16-write',
        'mix70-rnd4k-q8t1',
        'tree',
        'tree-3.9.1',
        'bigfile',
        'app-start',
        'tarball',
        'sustained-write',
      ],
    );
    assert.equal(testWrites('seq4m-q1t1-write', { rw: 'write', blockSize: 4 << 20, queueDepth: 1, threads: 1 }), true);
    assert.equal(testWrites('not-in-catalog'), false);
  });

  test("every test's primary metric is in the catalog, with a direction", () => {
    for (const t of TESTS) assert.ok(metricById(t.primary), t.id);
    assert.equal(METRICS.phaseSeconds.direction, 'lower');
    assert.equal(METRICS.cipherBytesPerSec.direction, 'higher');
    assert.equal(metricById('toString'), undefined, 'no prototype keys');
    assert.equal(testById('constructor'), undefined);
  });
});
