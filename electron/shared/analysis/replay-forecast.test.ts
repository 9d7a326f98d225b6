// The recorded day replayed (issue #42 scope 3) on a curve whose answers are computed by hand:
// 100 GB read or written in 200,000 touches over 2 days, 20 GB distinct, the curve told at 8, 16
// and 32 GB. SYNTHETIC figures, chosen so each expected time is arithmetic in the comments.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curveOfResult } from './access-trace.ts';
import type { DriveFigures } from './candidate.ts';
import { forecastReplay, hitAt, RECORD_HINT, REPLAY_ACCURACY, type DiskReplay, type RecordedDay } from './replay-forecast.ts';
import { currentDiskRun, RECORDING_POINTS as POINTS, recordingRun as recording } from './forecast-fixtures.ts';

const GB = 1e9;

const figures = (seqRead: number, rnd4kQ1Read: number): DriveFigures => ({
  seqRead,
  seqWrite: null,
  rnd4kQ1Read,
  rnd4kQ1Write: null,
  rnd4kQ32Read: null,
  rnd4kQ32Write: null,
});
/** Today: 100 MB/s, 4K QD1 read 0.4 MB/s (an access 10.24 ms). A candidate: 500 MB/s, 10,000 IOPS (an access 0.1 ms). */
const TODAY = figures(100e6, 0.4e6);
const SSD = figures(500e6, 10_000 * 4096);

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} ≠ ${expected}`);

describe('a recorded day replayed', () => {
  it('the disk’s share of a day at this RAM, and its time on today’s disk and a candidate, by hand', () => {
    const f = forecastReplay(recording(), currentDiskRun(), TODAY, [SSD]);
    const day = f.recorded as RecordedDay;
    assert.equal(day.runId, 7);
    assert.equal(day.ramBytes, 24 * GB);
    assert.equal(day.days, 2);
    // RAM 24 GB: halfway between 16 and 32 GB, hit 0.75 (0.7–0.8); half the RAM, 12 GB, at least 0.5.
    close(day.diskBytesPerDay.value, (100 * GB * 0.25) / 2, 'bytes');
    close(day.diskBytesPerDay.low, (100 * GB * 0.2) / 2, 'bytes low');
    close(day.diskBytesPerDay.high, (100 * GB * 0.5) / 2, 'bytes high');
    // Touches served at 24 GB: halfway, 165,000 (150,000–180,000); at 12 GB at least 100,000.
    close(day.diskTouchesPerDay.value, 35_000 / 2, 'touches');
    close(day.diskTouchesPerDay.low, 20_000 / 2, 'touches low');
    close(day.diskTouchesPerDay.high, 100_000 / 2, 'touches high');
    assert.equal(day.touchesEstimated, false);
    assert.match(day.sentence, /^run 7 "SYNTHETIC file accesses on \/home", 2026-12-01 to 2026-12-03, 2\.0 days recorded/);
    assert.match(day.sentence, /24 GB of RAM \(from the recording\)/);
    assert.ok(day.notes.some((n) => /writes are counted as reads would be/.test(n)));

    // Today (the two add): 12.5 GB at 100 MB/s = 125 s, plus 17,500 accesses × 10.24 ms = 179.2 s: 304.2 s.
    const today = f.today as DiskReplay;
    close(today.value, 304.2, 'today');
    close(today.streamSeconds, 125, 'today stream');
    close(today.accessSeconds, 179.2, 'today accesses');
    close(today.low, 102.4, 'today low: overlapping, fewest misses: max(100, 102.4)');
    close(today.high, 762, 'today high: adding, most misses: 250 + 512');
    // The candidate (the two overlap): max(25 s, 1.75 s) = 25 s; 20 s (max(20, 1)) to 55 s (50 + 5).
    const ssd = f.candidates[0] as DiskReplay & { gain: { value: number; low: number; high: number } };
    close(ssd.value, 25, 'candidate');
    close(ssd.low, 20, 'candidate low');
    close(ssd.high, 55, 'candidate high');
    // The gain: 304.2 / 25; its range every pair with the same misses: fewest, today overlapping
    // over the candidate adding, 102.4 / 21; most, today adding over the candidate overlapping, 762 / 50.
    close(ssd.gain.value, 304.2 / 25, 'gain');
    close(ssd.gain.low, 102.4 / 21, 'gain low');
    close(ssd.gain.high, 762 / 50, 'gain high');
    assert.equal(f.provenance, 'estimated');
    assert.equal(f.accuracy, REPLAY_ACCURACY);
    // Its disk half is the lab's; its cache half is said not measured in the lab.
    assert.match(
      f.accuracy,
      /^the replay's disk half measured in the lab \(2026-12-06\): forecast ÷ measured 0\.873 to 0\.894 over 5 runs/,
    );
    assert.match(f.accuracy, /not measured in the lab: the page cache at this machine's RAM/);
  });

  it('a RAM larger than every point of a curve that holds every distinct byte: flat, no range from the cache', () => {
    const f = forecastReplay(recording({ ram: 64 * GB }), null, TODAY, [SSD]);
    const day = f.recorded as RecordedDay;
    // 64 GB and its half, 32 GB, both at or past the 32 GB point, which holds the 20 GB distinct: hit 0.8.
    close(day.diskBytesPerDay.value, 10 * GB, 'bytes');
    assert.equal(day.diskBytesPerDay.low, day.diskBytesPerDay.high);
    close(day.diskTouchesPerDay.value, 10_000, 'touches');
    // hitAt alone at 64 GB says why the curve is flat there.
    const kept = curveOfResult(recording().results[0]!)!;
    assert.match(hitAt(kept, 64 * GB).how, /holds every distinct byte recorded \(20 GB\): only first touches miss/);
  });

  it('past the largest point of a curve that does not hold every distinct byte: that point, up to all but first touches', () => {
    const kept = curveOfResult(recording({ distinct: 40 * GB }).results[0]!)!;
    const at = hitAt(kept, 64 * GB);
    assert.equal(at.ratio.value, 0.8);
    assert.equal(at.ratio.low, 0.8);
    // First touches of 40 GB of 100 GB miss at any size: at most 0.6 served; 0.8 already, so 0.8.
    assert.equal(at.ratio.high, 0.8);
    const wider = curveOfResult(recording({ distinct: 10 * GB, points: POINTS.slice(0, 1) }).results[0]!)!;
    // 8 GB is the largest point and 10 GB distinct: a larger cache serves up to 1 - 10/100 = 0.9.
    const w = hitAt(wider, 24 * GB);
    assert.deepEqual([w.ratio.value, w.ratio.low, w.ratio.high], [0.5, 0.5, 0.9]);
    assert.match(w.how, /nearest point not larger is taken/);
  });

  it('a recording under one day is not judged, and says how to record a day', () => {
    const f = forecastReplay(recording({ seconds: 20 * 3600 }), null, TODAY, [SSD, SSD]);
    assert.ok(!('runId' in f.recorded));
    assert.equal(
      f.recorded.sentence,
      `not judged: run 7 "SYNTHETIC file accesses on /home" recorded 20.0 hours, under one day (record a day or more: ${RECORD_HINT})`,
    );
    assert.equal(f.today, null);
    assert.deepEqual(f.candidates, [{ why: f.recorded.sentence }, { why: f.recorded.sentence }]);
  });

  it('zero touches: nothing to replay, said', () => {
    const f = forecastReplay(recording({ touches: 0 }), null, TODAY, [SSD]);
    assert.ok(!('runId' in f.recorded));
    assert.match(
      f.recorded.sentence,
      /^not judged: run 7 .* recorded no file read or written that the recorder could size, so there is nothing to replay$/,
    );
  });

  it('an old run kept without the touches served: the accesses in the bytes’ share, and said', () => {
    const old = recording();
    old.results[0]!.figures = old.results[0]!.figures!.filter((x) => x.metric !== 'cacheServedTouches');
    assert.equal(curveOfResult(old.results[0]!)!.curve.points[0]!.hitTouches, undefined, 'an old run reads back without them');
    const f = forecastReplay(old, null, TODAY, [SSD]);
    const day = f.recorded as RecordedDay;
    assert.equal(day.touchesEstimated, true);
    close(day.diskTouchesPerDay.value, (200_000 * 0.25) / 2, 'touches in the bytes’ share');
    assert.ok(day.notes.some((n) => /estimated in the bytes’ share: this run was kept by an older DiskDelta/.test(n)));
  });

  it('no recording in the library, no RAM size, or no read figures: one sentence, never an error', () => {
    const none = forecastReplay(null, null, TODAY, [SSD]);
    assert.equal(
      (none.recorded as { sentence: string }).sentence,
      `not judged: no recorded day of file accesses in the library (record one: ${RECORD_HINT})`,
    );
    const noRam = forecastReplay(recording({ ram: null }), currentDiskRun(), TODAY, [SSD]);
    assert.match((noRam.recorded as { sentence: string }).sentence, /RAM size of this machine is not kept/);
    // The RAM of the current disk's run serves when the recording has none, and says where from.
    const fromCurrent = forecastReplay(
      recording({ ram: null }),
      currentDiskRun({ system: { kernel: null, cpuModel: null, cores: 2, cryptoFlags: [], memoryBytes: 24 * GB } }),
      TODAY,
      [SSD],
    );
    assert.equal((fromCurrent.recorded as RecordedDay).ramFrom, 'the current disk run');
    const noFigure = forecastReplay(recording(), null, figures(100e6, null as unknown as number), [SSD]);
    assert.deepEqual(noFigure.today, { why: "today's disk has no sequential read or 4K random read at QD1 figure" });
    assert.equal((noFigure.candidates[0] as { gain: unknown }).gain, null);
  });
});
