// The fleet view's numbers (issue #26 item 3), checked against figures worked out by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord, TestResult } from '../model/results.ts';
import { resultWithoutRuns } from '../../node/formats/common.ts';
import { compareFleet } from './fleet-compare.ts';
import { percentile } from './statistics.ts';

const result = (test: string, bytesPerSec: number, iops: number): TestResult =>
  resultWithoutRuns({ test, params: null, bytesPerSec, iops });

/** A host's run as fleet run imports it: seq in MB/s, random 4K QD1 read in IOPS. */
export function hostRun(host: string, seqMB: number, rndIops: number, createdAt = '2026-12-01T10:00:00.000Z'): RunRecord {
  return {
    label: `${host} · fio seq1m-q8t1-read +1 more`,
    notes: '',
    createdAt,
    source: 'imported',
    sourceFormat: 'fio',
    sourceMeta: { 'fio.host': host, 'fio.disk': 'sda' },
    target: { path: '/var/tmp', kind: 'folder' },
    settings: { runs: 1 },
    engine: { name: 'fio', version: 'fio-3.33' },
    results: [result('seq1m-q8t1-read', seqMB * 1e6, (seqMB * 1e6) / 2 ** 20), result('rnd4k-q1t1-read', rndIops * 4096, rndIops)],
    extras: [],
    warnings: [],
  };
}

describe('fleet compare', () => {
  it('percentiles interpolate between order statistics: 10 values 100…1000 give 190, 550, 910', () => {
    const v = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];
    assert.deepEqual(
      [0.1, 0.5, 0.9].map((p) => percentile(v, p)),
      [190, 550, 910],
    );
  });

  it('one row per host, the fleet’s median and percentiles, and the HDDs’ verdict against the fleet’s SSDs', () => {
    const fleet = compareFleet([
      hostRun('a:8765', 500, 20_000),
      hostRun('b:8765', 520, 22_000),
      hostRun('c:8765', 480, 18_000),
      hostRun('d:8765', 100, 150),
      hostRun('e:8765', 120, 100),
    ]);
    assert.deepEqual(
      fleet.rows.map((r) => [r.host, r.deviceClass]),
      [
        ['a:8765', 'ssd'],
        ['b:8765', 'ssd'],
        ['c:8765', 'ssd'],
        ['d:8765', 'hdd'],
        ['e:8765', 'hdd'],
      ],
    );
    // seq sorted 100,120,480,500,520 MB/s: p10 at 0.4 → 108; median 480; p90 at 3.6 → 512.
    const seq = fleet.stats.find((s) => s.figure === 'seqRead');
    assert.deepEqual([seq?.p10, seq?.median, seq?.p90], [108e6, 480e6, 512e6]);
    // SSD medians 500 MB/s and 20,000 IOPS: d gets ×5.0 and ×133, e ×4.2 and ×200.
    assert.match(fleet.rows[3]?.verdict ?? '', /×5\.0 sequential and ×133 random/);
    assert.match(fleet.rows[4]?.verdict ?? '', /×4\.2 sequential and ×200 random/);
    assert.match(
      fleet.summary,
      /^2 of 5 hosts are on hard disks: an SSD would give them ×4\.6 sequential and ×167 random reads \(median\)/,
    );
    assert.ok(fleet.rows.every((r) => r.flags.some((f) => /no run-to-run spread/.test(f))));
  });

  it('a gain of a thousand or more is printed with its thousands separator, as every figure is (#43: "×1599")', () => {
    const fleet = compareFleet([
      hostRun('a:8765', 3_000, 240_000),
      hostRun('b:8765', 3_100, 240_000),
      hostRun('c:8765', 2_900, 240_000),
      hostRun('d:8765', 100, 150),
    ]);
    assert.match(fleet.rows[3]?.verdict ?? '', /×30 sequential and ×1,600 random/);
    assert.match(fleet.summary, /×30 sequential and ×1,600 random reads \(median\)/);
  });

  it('names a host far from the rest on a log scale, and only that one', () => {
    const runs = [500, 510, 490, 520, 505, 495].map((mb, i) => hostRun(`ssd${i}`, mb, 20_000 + i * 500));
    runs.push(hostRun('tired', 50, 19_000));
    const fleet = compareFleet(runs);
    assert.deepEqual(
      fleet.rows.flatMap((r) => r.outliers.map((o) => `${r.host} ${o.figure} ${o.side}`)),
      ['tired seqRead low'],
    );
  });

  it('a host measured twice counts once, by its newest run, and is named', () => {
    const fleet = compareFleet([
      hostRun('a', 100, 150, '2026-11-01T00:00:00.000Z'),
      hostRun('a', 500, 20_000, '2026-12-01T00:00:00.000Z'),
      hostRun('b', 480, 18_000),
    ]);
    assert.equal(fleet.rows.length, 2);
    assert.equal(fleet.rows[0]?.deviceClass, 'ssd');
    assert.deepEqual(fleet.superseded, ['a']);
  });

  it('says "not judged" where there is nothing to compare an HDD with', () => {
    const fleet = compareFleet([hostRun('a', 100, 150), hostRun('b', 110, 140)]);
    assert.match(fleet.rows[0]?.verdict ?? '', /not judged: no SSD in the fleet/);
    assert.match(fleet.summary, /^2 of 2 hosts are on hard disks\. /);
  });

  it('counts a host whose disk cannot be told apart, instead of calling it "not a hard disk"', () => {
    const noRandom = hostRun('c', 400, 0); // no random 4K QD1 figure
    const fleet = compareFleet([hostRun('a', 100, 150), noRandom]);
    assert.equal(fleet.rows[1]?.deviceClass, 'unknown');
    assert.match(fleet.summary, /^1 of 1 hosts are on hard disks \(1 more not judged: no random 4K QD1 read/);
  });
});
