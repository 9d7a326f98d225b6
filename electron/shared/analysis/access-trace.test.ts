// The recorder's trace read back: sessions, touches (reads and writes; an open alone is none),
// touches without a size, a torn line; the curve's figures through the library and back; the
// verdict in words. The recorder itself on a real filesystem: native/test/access-recorder.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLibrary } from '../../node/store/library.ts';
import { resultWithoutRuns } from '../../node/formats/common.ts';
import type { RunRecord } from '../model/results.ts';
import {
  ACCESS_CURVE_TEST,
  accessCurveFigures,
  curveOfResult,
  curveSizes,
  curveVerdict,
  distinctBytesOverTime,
  parseTrace,
  traceCurve,
} from './access-trace.ts';
import { formatDiskSize } from './working-set.ts';

const KiB = 1024;
const touch = (t: number, f: string, s: number | null, k: string) => JSON.stringify({ t, f, s, k });

/** Two sessions: a, b, a read; b written; c opened only; d unsized; a torn last line of a killed third. */
const TRACE = [
  JSON.stringify({ v: 1, type: 'trace', fsid: 'abcd', fs: 'ext2/3/4', key: '00'.repeat(16), created_ms: 1000 }),
  JSON.stringify({ type: 'session', t: 1000, merge_ms: 1000, group: 'handles' }),
  touch(2000, 'a', 8 * KiB, 'or'),
  touch(3000, 'b', 4 * KiB, 'r'),
  touch(4000, 'c', 16 * KiB, 'o'),
  touch(5000, 'a', 8 * KiB, 'r'),
  JSON.stringify({ type: 'end', t: 11_000, why: 'signal' }),
  JSON.stringify({ type: 'session', t: 100_000, merge_ms: 1000, group: 'handles' }),
  touch(101_000, 'b', 4 * KiB, 'w'),
  touch(102_000, 'd', null, 'r'),
  JSON.stringify({ type: 'lost', t: 103_000 }),
  JSON.stringify({ type: 'end', t: 110_000, why: 'time-limit' }),
  '{"t":111000,"f":"a","s":81',
].join('\n');

describe('the access trace', () => {
  it('reads sessions, touches, unsized and lost; an open alone is no touch; a torn line is counted, not trusted', () => {
    const s = parseTrace(TRACE);
    assert.ok(!('reason' in s));
    assert.equal(s.sessions, 2);
    assert.equal(s.ended, 2);
    assert.equal(s.recordedSeconds, 10 + 10);
    assert.deepEqual(
      s.accesses.map((a) => [a.key, a.bytes]),
      [
        ['a', 8 * KiB],
        ['b', 4 * KiB],
        ['a', 8 * KiB],
        ['b', 4 * KiB],
      ],
    );
    assert.equal(s.unsized, 1);
    assert.equal(s.lost, 1);
    assert.equal(s.damaged, 1);
    assert.deepEqual(distinctBytesOverTime(s.accesses), [
      { tMs: 0, bytes: 8 * KiB },
      { tMs: 1000, bytes: 12 * KiB },
      { tMs: 3000, bytes: 12 * KiB },
      { tMs: 99_000, bytes: 12 * KiB },
    ]);
    // a b a b: the second a and b hit a cache of 12 KiB, not one of 8 KiB (b pushed a out).
    const curve = traceCurve(s);
    const at = (bytes: number) => curve.points.find((p) => p.cacheBytes === bytes)?.hitRatio;
    assert.equal(at(8 * KiB), 0);
    assert.equal(at(16 * KiB), 12 / 24);
    assert.deepEqual(curveSizes(12 * KiB), [4 * KiB, 8 * KiB, 16 * KiB], 'powers of two up to the first that holds every distinct byte');
  });

  it('a file that grew under merged writes counts at the size the recorder saw last ("s" line), not at its first write', () => {
    // w written in one go: the touch caught it at 4 KiB, the merged writes took it to 40 KiB; then
    // x read, then w read again (a hit in a cache that holds 40 + 8 KiB, not in one of 16 KiB).
    const trace = [
      JSON.stringify({ v: 1, type: 'trace', fsid: 'abcd', fs: 'ext2/3/4', key: '00'.repeat(16), created_ms: 1000 }),
      JSON.stringify({ type: 'session', t: 1000, merge_ms: 1000, group: 'descriptors' }),
      touch(2000, 'w', 4 * KiB, 'ow'),
      touch(2500, 'x', 8 * KiB, 'r'),
      touch(9000, 'w', 40 * KiB, 's'),
      touch(10_000, 'w', 40 * KiB, 'r'),
      touch(10_500, 'q', null, 's'),
      JSON.stringify({ type: 'end', t: 11_000, why: 'signal' }),
    ].join('\n');
    const s = parseTrace(trace);
    assert.ok(!('reason' in s));
    assert.equal(s.distinctBytes, 48 * KiB, 'w at its last size, 40 KiB, plus x');
    assert.equal(s.touches, 3, 'the size line is no new touch');
    const curve = traceCurve(s);
    assert.equal(curve.distinctBytes, 48 * KiB);
    assert.equal(curve.accessedBytes, 40 * KiB + 8 * KiB + 40 * KiB, 'the write of 40 KiB, the read of x, the read of w');
    const at = (bytes: number) => curve.points.find((p) => p.cacheBytes === bytes)?.hitRatio;
    assert.equal(at(16 * KiB), 0, 'w, held at 40 KiB, does not fit 16 KiB');
    assert.equal(at(64 * KiB), 40 / 88);
  });

  it('a file that is not a trace says so', () => {
    assert.deepEqual(parseTrace('{"v":1,"type":"hello"}\n'), { reason: 'its first line is not a DiskDelta trace header' });
    assert.deepEqual(parseTrace(''), { reason: 'it is empty' });
  });

  it('the curve kept in the library reads back the same, and is told in words', (t) => {
    const s = parseTrace(TRACE);
    assert.ok(!('reason' in s));
    const curve = traceCurve(s);
    const dir = mkdtempSync(join(tmpdir(), 'dd-curve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const library = openLibrary({ dbPath: join(dir, 'library.sqlite') });
    const record: RunRecord = {
      label: 'accesses',
      notes: '',
      createdAt: '2026-12-01T10:00:00.000Z',
      source: 'measured',
      sourceFormat: 'diskdelta',
      sourceMeta: {},
      target: { path: '/home', kind: 'folder' },
      settings: {},
      engine: { name: 'diskdelta', version: '0' },
      results: [
        resultWithoutRuns({
          test: ACCESS_CURVE_TEST,
          params: null,
          bytesPerSec: null,
          iops: null,
          warnings: [],
          figures: accessCurveFigures(s, curve, 'test trace'),
        }),
      ],
      extras: [],
      warnings: [],
    };
    const id = library.saveRun(record);
    const back = library.getRun(id);
    library.close();
    const kept = curveOfResult(back!.results[0]!);
    assert.ok(kept);
    assert.deepEqual(kept.curve.points, curve.points);
    assert.equal(kept.distinctBytes, 12 * KiB);
    assert.equal(kept.touches, 4);
    assert.equal(kept.unsized, 1);
    assert.equal(
      curveVerdict(kept, formatDiskSize),
      'In these 20 seconds you read or wrote 12.3 kB of distinct files (24.6 kB in all, 4 touches); a cache that holds them all (16.4 kB) would have served 50 % of those bytes: the rest were first touches, which miss at any size. 1 touch kept without a size is not counted.',
    );
  });
});
