// The forecast per candidate: each workload phase from today's measured time and the two disks'
// rates (the model of workload-forecast.ts, checked against figures computed by hand), a write
// burst past the fast cache, endurance at the user's write pace, and whether the working set fits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forecastWorkloads, phaseBytes } from './workload-forecast.ts';
import { forecastCandidates } from './candidate-forecast.ts';
import { candidateFromSpec, driveFiguresOfRun, type DriveFigures } from './candidate.ts';
import { EXAMPLE_CANDIDATE } from '../model/candidate.ts';
import { currentDiskRun, workloadRun } from './forecast-fixtures.ts';
import type { WriteSample } from './write-volume.ts';
import type { RunRecord } from '../model/results.ts';
import { workingSetFigures, WORKING_SET_TEST } from './working-set.ts';

const today = driveFiguresOfRun(currentDiskRun()).figures;
const close = (a: number | null, b: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-9 * Math.max(1, b), `${what}: ${a} ≠ ${b}`);
const flat = (mbps: number): DriveFigures => ({
  seqRead: mbps * 1e6,
  seqWrite: mbps * 1e6,
  rnd4kQ1Read: mbps * 1e6,
  rnd4kQ1Write: mbps * 1e6,
  rnd4kQ32Read: mbps * 1e6,
  rnd4kQ32Write: mbps * 1e6,
});

describe('workload forecast model', () => {
  it('reads the bytes a phase moved from its basis', () => {
    assert.equal(phaseBytes('median of 3 runs; scaled release tree: 45,168 files, 592 MB'), 592e6);
    assert.equal(phaseBytes('median of 3 runs, syncfs included; one file of 3000 MB'), 3000e6);
    assert.equal(phaseBytes('median of 3 runs'), null);
  });

  it('streams the bytes at the sequential rate, overlapped with the rest scaled by the 4K figure; the range adds them or takes the rest as CPU', () => {
    // Today: 800 MB at 80 MB/s = 10 s of the 12 s; the 2 s rest at 1 MB/s 4K QD32 write.
    const [write, del] = forecastWorkloads([workloadRun()], today, { figures: flat(200), cacheBytes: null, pastCacheBytesPerSec: null });
    close(write!.seconds, Math.max(800e6 / 200e6, (2 * 1e6) / 200e6), 'bigfile write');
    close(write!.gain, 12 / 4, 'gain');
    // Range: the fastest pass (11.5 s) overlapped; the slowest (12.5 s) with its 2.5 s rest as CPU.
    close(write!.low, 4, 'low');
    close(write!.high, 4 + 2.5, 'high');
    // Small I/O that outweighs the stream sets the pace: 4K write 100 times slower than sequential.
    const slowSmall = { ...flat(200), rnd4kQ32Write: 0.5e6 };
    const [paced] = forecastWorkloads([workloadRun()], today, { figures: slowSmall, cacheBytes: null, pastCacheBytesPerSec: null });
    close(paced!.seconds, (2 * 1e6) / 0.5e6, 'small I/O sets the pace');
    // A delete moves no bulk data: all of it scales by the 4K write.
    close(del!.seconds, 0.5 / 200, 'delete');
    close(del!.high, 0.5, 'delete as CPU');
    // A range past ×3 is flagged rough: the delete's spans ×200 (all disk, or all CPU), the write's ×1.6.
    assert.equal(write!.rough, false);
    assert.equal(del!.rough, true);
  });

  it('a write larger than the fast cache: the cache at the sequential write, the rest at the speed past it', () => {
    const [write] = forecastWorkloads([workloadRun()], today, { figures: flat(200), cacheBytes: 500e6, pastCacheBytesPerSec: 100e6 });
    assert.deepEqual(write!.overrun, { bytes: 800e6, cacheBytes: 500e6, pastSeconds: 3 });
    close(write!.seconds, 2.5 + 3, 'bigfile write past the cache');
    const [fits] = forecastWorkloads([workloadRun()], today, { figures: flat(200), cacheBytes: 1e9, pastCacheBytesPerSec: 100e6 });
    assert.equal(fits!.overrun, null);
  });

  it('a figure missing on either side gives no forecast, and says which', () => {
    const noWrite = { ...today, rnd4kQ32Write: null };
    const [write] = forecastWorkloads([workloadRun()], noWrite, { figures: flat(200), cacheBytes: null, pastCacheBytesPerSec: null });
    assert.equal(write!.seconds, null);
    assert.match(write!.why!, /today's disk has no 4K write at QD32/);
  });
});

const day = 86_400_000;
const samples = (disk: string, gbPerDay: number, days: number): WriteSample[] =>
  Array.from({ length: days + 1 }, (_, i) => ({
    at: new Date(Date.UTC(2026, 10, 1) + i * day).toISOString(),
    bootId: 'b1',
    uptimeSeconds: 3600 + i * 86_400,
    disk,
    bytesWritten: i * gbPerDay * 1e9,
  }));

function workingSetRun(touchedBytes: number): RunRecord {
  const figures = workingSetFigures(
    {
      totalBytes: touchedBytes * 2,
      files: 10,
      readsSeen: true,
      windows: [90, 365].map((days) => ({ days, touchedBytes, writtenBytes: 0 })),
      folders: [],
    },
    'test',
  );
  return {
    ...currentDiskRun(),
    results: [{ ...currentDiskRun().results[0]!, test: WORKING_SET_TEST, params: null, bytesPerSec: null, figures }],
  };
}

describe('a candidate against this person', () => {
  const candidate = candidateFromSpec(EXAMPLE_CANDIDATE, 'ssd.json');
  const link = { ceilingBytesPerSec: 300e6, description: 'SATA 3.0 Gb/s, 300 MB/s', transport: 'sata' };

  it('years of rated endurance at the kept write pace; bursts against the cache; the working set against the capacity', () => {
    // 20 GB a day for 30 days; one day (boot b1) wrote 50 GB, more than the 42 GB cache.
    const writes = samples('sda', 20, 30);
    for (let i = 10; i < writes.length; i++) writes[i]!.bytesWritten += 30e9;
    const f = forecastCandidates({
      current: currentDiskRun({ id: 1 }),
      candidates: [candidate],
      limits: { link, cipher: null },
      workloads: [workloadRun()],
      writeSamples: writes,
      workingSet: workingSetRun(300e9),
    });
    const c = f.candidates[0]!;
    assert.equal(f.provenance, 'estimated');
    assert.match(
      f.accuracyText,
      /measured in the lab .*0\.821 to 1\.036 over 5 runs for programs starting.*0\.980 to 1\.045 over 10 runs for a big file and a tree written, on the same devices mounted -o sync.*not measured for delete phases and writes left to the kernel’s writeback/,
    );
    assert.ok('years' in c.endurance);
    // 630 GB over 30 days and the hour before the first sample.
    const perDay = 630e9 / (30 + 1 / 24);
    close(c.endurance.bytesPerDay, perDay, 'pace');
    close(c.endurance.years, 600e12 / (perDay * 365), 'years');
    assert.ok('overrunning' in c.bursts);
    assert.equal(c.bursts.intervals, 30);
    assert.equal(c.bursts.overrunning, 1);
    assert.match(c.bursts.sentence, /^1 of 30 intervals .* wrote more than the 42 GB fast cache/);
    assert.equal(c.fits.fits, true);
    assert.match(c.fits.sentence, /300 GB, fits with 700 GB to spare$/);
    assert.equal(c.workloads.length, 3);
  });

  it("a burst past a small cache is said in seconds a person can read, not rounded to '0 s'", () => {
    const small = candidateFromSpec({ ...EXAMPLE_CANDIDATE, fastCache: { sizeGB: 0.064, writeMBpsPastCache: 100 } }, 'small.json');
    const f = forecastCandidates({
      current: currentDiskRun({ id: 1 }),
      candidates: [small],
      limits: { link, cipher: null },
      workloads: [],
      writeSamples: samples('sda', 0.1, 3),
      workingSet: null,
    });
    const bursts = f.candidates[0]!.bursts;
    assert.ok('overrunning' in bursts);
    // 100 MB a day past a 64 MB cache: its last 36 MB at 100 MB/s.
    assert.match(bursts.sentence, /would write its last 36 MB at 100 MB\/s, 0\.36 s, if written at once$/);
  });

  it('too few days of counters: endurance not judged; no scan: fits unknown; a bigger set does not fit', () => {
    const f = forecastCandidates({
      current: currentDiskRun({ id: 1 }),
      candidates: [candidate],
      limits: { link, cipher: null },
      workloads: [],
      writeSamples: [],
      workingSet: null,
    });
    assert.match(f.candidates[0]!.endurance.sentence, /^not judged/);
    assert.equal(f.candidates[0]!.fits.fits, null);
    const big = forecastCandidates({
      current: currentDiskRun({ id: 1 }),
      candidates: [candidate],
      limits: { link, cipher: null },
      workloads: [],
      writeSamples: [],
      workingSet: workingSetRun(1.2e12),
    });
    assert.equal(big.candidates[0]!.fits.fits, false);
  });
});
