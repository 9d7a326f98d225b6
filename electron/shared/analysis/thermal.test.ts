// When a drive's temperature flags a run: `drive-hot` at its warning temperature, and a test's
// `thermal-throttling` only when its figure fell while the drive warmed near that mark (a fall
// at 45 °C is the SLC cache filling, not heat).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DriveTemperature, RunMeasurement, TestResult } from '../model/results.ts';
import { ASSUMED_HOT_C, thermalWarnings } from './thermal.ts';

function result(testId: string, mbps: number[]): TestResult {
  const runs = mbps.map((m, i): RunMeasurement => ({
    run: i + 1,
    bytesPerSec: m * 1e6,
    iops: (m * 1e6) / 2 ** 20,
    latencyNs: { mean: null, p50: null, p90: null, p99: null, p999: null, max: null },
    elapsedNs: 5e9,
    ios: 1000,
    bytes: m * 5e6,
    cpu: { userNs: 0, systemNs: 0 },
    samples: [],
  }));
  return {
    test: testId,
    params: null,
    bytesPerSec: mbps[0]! * 1e6,
    iops: null,
    latencyNs: null,
    best: null,
    cv: null,
    runs,
    histogram: [],
    cpu: null,
    underResolved: false,
    warnings: [],
  };
}

/** A PM981 (warning 81.85 °C, critical 84.85 °C) read every 5 s during one test of 5 runs of 5 s. */
function pm981(testId: string, celsius: number[], maxC: number | null = 81.85): DriveTemperature {
  const readings = celsius.map((c, i) => ({ tSec: i * 5, celsius: c, test: testId }));
  return {
    disk: 'nvme0n1',
    sensor: 'nvme',
    label: 'Composite',
    beforeC: celsius[0]!,
    afterC: celsius.at(-1)!,
    peakC: Math.max(...celsius),
    maxC,
    critC: maxC === null ? null : 84.85,
    readings,
  };
}

test('SEQ1M Q8T1 write falling from 3000 to 1400 MB/s while the PM981 goes 72 → 82 °C: thermal-throttling on the test, drive-hot on the run', () => {
  const w = thermalWarnings([result('seq1m-q8t1-write', [3000, 2900, 2400, 1800, 1400])], pm981('seq1m-q8t1-write', [72, 76, 79, 81, 82]));
  const flag = w.byTest.get('seq1m-q8t1-write');
  assert.equal(flag?.code, 'thermal-throttling');
  assert.match(
    flag!.message,
    /fell from 3,000 MB\/s to 1,400 MB\/s while nvme0n1 warmed from 72 °C to 82 °C, near its warning temperature, 81\.85 °C/,
  );
  assert.deepEqual(
    w.run.map((x) => x.code),
    ['drive-hot'],
  );
  assert.match(w.run[0]!.message, /^nvme0n1 reached 82 °C, at or above its warning temperature, 81\.85 °C/);
});

test('the same fall at 40 → 45 °C (a filled SLC cache) is not put down to heat, and nothing is hot', () => {
  const w = thermalWarnings([result('seq1m-q8t1-write', [3000, 2900, 2400, 1800, 1400])], pm981('seq1m-q8t1-write', [40, 41, 43, 44, 45]));
  assert.equal(w.byTest.size, 0);
  assert.deepEqual(w.run, []);
});

test('a hot drive whose figure held steady is hot, not throttled; a figure that fell while the temperature stayed flat is not throttling', () => {
  const steady = thermalWarnings(
    [result('seq1m-q8t1-read', [3400, 3390, 3410, 3400, 3395])],
    pm981('seq1m-q8t1-read', [78, 80, 81, 82, 83]),
  );
  assert.equal(steady.byTest.size, 0);
  assert.equal(steady.run[0]?.code, 'drive-hot');
  const flat = thermalWarnings([result('seq1m-q8t1-read', [3400, 3000, 2600, 2400, 2000])], pm981('seq1m-q8t1-read', [80, 80, 80, 80, 80]));
  assert.equal(flat.byTest.size, 0);
});

test('past the critical temperature the warning says so; with no warning temperature reported, the assumed 70 °C is said to be assumed', () => {
  const critical = thermalWarnings([], pm981('x', [80, 86]));
  assert.match(critical.run[0]!.message, /reached 86 °C, its critical temperature \(84\.85 °C\) or above/);
  const unknown = thermalWarnings([], pm981('x', [66, ASSUMED_HOT_C + 1], null));
  assert.match(unknown.run[0]!.message, /at or above 70 °C \(the drive reports no warning temperature; DiskDelta assumes the usual one\)/);
});

test('no sensor, or a sensor that gave no reading: no warning', () => {
  assert.deepEqual(thermalWarnings([result('a', [1, 2])], { disk: 'loop0', sensor: null, reason: 'none' }).run, []);
  const base = pm981('a', [50]);
  assert.ok(base.sensor !== null);
  const empty: DriveTemperature = { ...base, peakC: null, readings: [] };
  assert.deepEqual(thermalWarnings([result('a', [2, 1])], empty).run, []);
});
