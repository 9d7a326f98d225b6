// The forecast beside the measurement once the new disk is in: gains over the same before run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forecastCandidates } from './candidate-forecast.ts';
import { candidateFromSpec } from './candidate.ts';
import {
  forecastBesideMeasured,
  NOISY_GAIN_NOTE,
  NOT_COMPARABLE,
  NOT_MEASURED_ON_NEW_DISK,
  SAME_DISK_WORKLOADS,
  type JudgedCandidate,
} from './candidate-judged.ts';
import { currentDiskRun, workloadRun } from './forecast-fixtures.ts';
import { EXAMPLE_CANDIDATE } from '../model/candidate.ts';
import type { RunRecord } from '../model/results.ts';
import { roundMeasurement } from '../model/result-builders.ts';
import { formatRatio } from './units.ts';
import { judgedTable } from '../report/judged-model.ts';

test('each figure: the forecast gain over the before run beside the measured one, both kept', () => {
  const before = currentDiskRun();
  const forecast = forecastCandidates({
    current: before,
    candidates: [candidateFromSpec(EXAMPLE_CANDIDATE, 'ssd.json')],
    limits: { link: { ceilingBytesPerSec: 300e6, description: 'SATA 3.0 Gb/s, 300 MB/s', transport: 'sata' }, cipher: null },
    workloads: [],
    writeSamples: [],
    workingSet: null,
  });
  // The new disk measured at 2.6 times the old one's sequential read (the bus held the forecast at 279 MB/s).
  const after = { ...before, results: before.results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 2.6 })) };
  const [judged] = forecastBesideMeasured(forecast, after);
  const seq = judged!.figures.find((f) => f.key === 'seqRead')!;
  assert.ok(Math.abs(seq.forecastGain - 279e6 / 100e6) < 1e-9, String(seq.forecastGain));
  assert.ok(Math.abs(seq.measuredGain - 2.6) < 1e-9);
  assert.equal(seq.line, 'sequential read: forecast ×2.79, measured ×2.60');
  assert.equal(judged!.figures.length, 6);
});

/** The new disk: another drive (its own serial) in the same slot. SYNTHETIC, as the fixtures are. */
const NEW_DISK = { name: 'sdb', model: 'New SSD', serial: 'NEW1', sizeBytes: 1e12, rotational: false, class: 'SATA SSD' as const };

/** A run of the fixtures moved to the new disk, each workload pass `faster` times quicker. */
function onNewDisk(run: RunRecord, faster: (pass: number) => number): RunRecord {
  return {
    ...run,
    target: { ...run.target, path: '/mnt/new', device: { ...run.target.device!, ...NEW_DISK } },
    results: run.results.map((r) => ({
      ...r,
      ...(r.bytesPerSec !== null ? { bytesPerSec: r.bytesPerSec * 2.6 } : {}),
      figures: r.figures?.map((f) => {
        const passes = f.passes!.map(faster);
        return { ...f, passes, value: [...passes].sort((a, b) => a - b)[Math.floor(passes.length / 2)]! };
      }),
    })),
  };
}

function judgedOf(workloads: { before: RunRecord[]; after: RunRecord[] }): JudgedCandidate {
  const before = currentDiskRun();
  const forecast = forecastCandidates({
    current: before,
    candidates: [candidateFromSpec(EXAMPLE_CANDIDATE, 'ssd.json')],
    limits: { link: { ceilingBytesPerSec: 300e6, description: 'SATA 3.0 Gb/s, 300 MB/s', transport: 'sata' }, cipher: null },
    workloads: workloads.before,
    writeSamples: [],
    workingSet: null,
  });
  return forecastBesideMeasured(
    forecast,
    onNewDisk(before, (p) => p),
    workloads,
  )[0]!;
}

test('a workload timed on the new disk: its measured gain, with its passes’ spread, beside the forecast gain', () => {
  const was = workloadRun({ id: 2 });
  // Four times quicker, pass for pass: bigfile write 11.5/12/12.5 s → 2.875/3/3.125 s.
  const now = onNewDisk(workloadRun({ id: 5 }), (p) => p / 4);
  const judged = judgedOf({ before: [was], after: [now] });
  const write = judged.workloads.find((w) => w.test === 'bigfile' && w.phase === 'write')!;
  assert.ok(write.forecastGain! > 1, 'the forecast gain is the forecast’s own');
  const m = write.measured!;
  assert.equal(m.gain, 4);
  assert.equal(m.beforeSeconds, 12);
  assert.equal(m.afterSeconds, 3);
  assert.deepEqual([m.beforeRun, m.afterRun], [2, 5]);
  // The fastest pass before over the slowest after, and the other way round.
  assert.ok(Math.abs(m.low - 11.5 / 3.125) < 1e-12 && Math.abs(m.high - 12.5 / 2.875) < 1e-12);
  // Three passes 11.5–12.5 s: their median is known within ±13 % (95 %), past the rates' ±10 %.
  assert.equal(m.noisy, true);
  assert.equal(write.measuredText, '×4.00 (×3.68–×4.35) ⚑');
  assert.equal(write.line, `bigfile write: forecast ${formatRatio(write.forecastGain!)}, measured ×4.00 (×3.68–×4.35) ⚑`);
  const tree = judged.workloads.find((w) => w.test === 'tree')!;
  assert.equal(tree.measured!.noisy, false);
  assert.equal(tree.measuredText, '×4.00 (×4.00–×4.00)');
  assert.equal(write.why, null);
  // Three phases forecast, three judged; the six rates still judged as before.
  assert.deepEqual(
    judged.workloads.map((w) => `${w.test} ${w.phase}`),
    ['bigfile write', 'bigfile delete', 'tree write'],
  );
  assert.equal(judged.figures.length, 6);
});

test('noisy passes on the new disk put ⚑ on the measured gain, and the table says what it means once', () => {
  const was = workloadRun({ id: 2 });
  // The tree's passes on the new disk 5, 5, 9 s: they differ by far more than 10 %.
  const now = onNewDisk(workloadRun({ id: 5 }), (p) => (p === 25 ? 5 : p / 4));
  now.results[1]!.figures![0]!.passes = [5, 5, 9];
  const judged = judgedOf({ before: [was], after: [now] });
  const tree = judged.workloads.find((w) => w.test === 'tree')!;
  assert.equal(tree.measured!.noisy, true);
  assert.equal(tree.measuredText, '×5.00 (×2.78–×5.00) ⚑');
  const table = judgedTable([judged]);
  const row = table.rows.find((r) => r.key === 'tree write')!;
  assert.equal(row.measured, '×5.00 (×2.78–×5.00) ⚑');
  assert.equal(row.noisy, true);
  assert.equal(table.noisyNote, NOISY_GAIN_NOTE);
  assert.equal(table.rows.find((r) => r.key === 'bigfile delete')!.noisy, false);
});

test('no workload timed on the new disk: the forecast gain kept, and the command that would time it said, never an error', () => {
  const judged = judgedOf({ before: [workloadRun({ id: 2 })], after: [] });
  assert.equal(judged.workloads.length, 3);
  for (const w of judged.workloads) {
    assert.equal(w.measured, null);
    assert.equal(w.measuredText, NOT_MEASURED_ON_NEW_DISK);
    assert.ok(w.forecastGain! > 0);
  }
  const table = judgedTable([judged]);
  assert.deepEqual(table.unmeasured, [
    'bigfile: not measured on the new disk; diskdelta run --tests bigfile --target /mnt/new times it there',
    'tree: not measured on the new disk; diskdelta run --tests tree --target /mnt/new times it there',
  ]);
  assert.equal(table.rows.find((r) => r.key === 'tree write')!.measured, 'not measured on the new disk');
  assert.equal(table.noisyNote, null);
});

test('a workload timed on the new disk but not on the before disk is not judged: the forecast has no such phase', () => {
  const now = onNewDisk(workloadRun({ id: 5 }), (p) => p / 4);
  const judged = judgedOf({ before: [], after: [now] });
  assert.deepEqual(judged.workloads, []);
  assert.equal(judgedTable([judged]).rows.length, 6);
});

test('an after run of the same disk as the workloads: none judged, and why said', () => {
  const before = currentDiskRun();
  const forecast = forecastCandidates({
    current: before,
    candidates: [candidateFromSpec(EXAMPLE_CANDIDATE, 'ssd.json')],
    limits: { link: null, cipher: null },
    workloads: [workloadRun({ id: 2 })],
    writeSamples: [],
    workingSet: null,
  });
  // The disk re-measured after a change: its own workload run would be taken for both sides.
  const [judged] = forecastBesideMeasured(forecast, currentDiskRun({ id: 3 }), {
    before: [workloadRun({ id: 2 })],
    after: [workloadRun({ id: 2 })],
  });
  assert.deepEqual(
    judged!.workloads.map((w) => [w.measured, w.why]),
    Array(3).fill([null, SAME_DISK_WORKLOADS]),
  );
  assert.deepEqual(judgedTable([judged!]).unmeasured, [SAME_DISK_WORKLOADS]);
});

test('a rate measured in runs carries its runs’ spread, and ⚑ when either result is flagged noisy, as a workload does', () => {
  const before = currentDiskRun({ id: 1 });
  const seqRead = (run: RunRecord, rates: number[], noisy: boolean): RunRecord => ({
    ...run,
    results: run.results.map((r) =>
      r.test === 'seq1m-q8t1-read'
        ? {
            ...r,
            runs: rates.map((b, i) => roundMeasurement(i + 1, b, 2)),
            warnings: noisy ? [{ code: 'noisy', message: 'the runs differ' }] : [],
          }
        : r,
    ),
  });
  const forecast = forecastCandidates({
    current: before,
    candidates: [candidateFromSpec(EXAMPLE_CANDIDATE, 'ssd.json')],
    limits: { link: null, cipher: null },
    workloads: [],
    writeSamples: [],
    workingSet: null,
  });
  // Before: 90–110 MB/s (median 100); after: 240–280 (median 260): ×2.60, spread 240/110 to 280/90.
  const was = seqRead(before, [90e6, 100e6, 110e6], false);
  const after = seqRead(
    { ...before, id: 2, results: before.results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 2.6 })) },
    [240e6, 260e6, 280e6],
    true,
  );
  const [judged] = forecastBesideMeasured(forecast, after, { before: [], after: [] }, was);
  const seq = judged!.figures.find((f) => f.key === 'seqRead')!;
  assert.ok(Math.abs(seq.low! - 240 / 110) < 1e-12 && Math.abs(seq.high! - 280 / 90) < 1e-12);
  assert.equal(seq.runs, 3);
  assert.equal(seq.noisy, true);
  assert.equal(seq.measuredText, '×2.60 (×2.18–×3.11) ⚑');
  // A figure without runs kept (an import, these fixtures' other figures) is said bare, as before.
  const write = judged!.figures.find((f) => f.key === 'seqWrite')!;
  assert.deepEqual([write.low, write.runs, write.noisy, write.measuredText], [null, 0, false, '×2.60']);
  const table = judgedTable([judged!]);
  assert.equal(table.rows.find((r) => r.key === 'seqRead')!.measured, '×2.60 (×2.18–×3.11) ⚑');
  assert.equal(table.noisyNote, NOISY_GAIN_NOTE);
});

test('a phase the new disk timed over another size is not set beside the before disk’s, and why is said', () => {
  const was = workloadRun({ id: 2 });
  const now = onNewDisk(workloadRun({ id: 5 }), (p) => p / 4);
  // The big file written at 3000 MB on the new disk, 800 MB on the before disk.
  now.results[0]!.figures = now.results[0]!.figures!.map((f) => ({
    ...f,
    basis: 'median of 3 runs, syncfs included; one file of 3000 MB',
  }));
  const judged = judgedOf({ before: [was], after: [now] });
  const write = judged.workloads.find((w) => w.test === 'bigfile' && w.phase === 'write')!;
  assert.equal(write.measured, null);
  assert.equal(write.measuredText, NOT_COMPARABLE);
  assert.equal(write.line, `bigfile write: forecast ${formatRatio(write.forecastGain!)}, ${NOT_COMPARABLE}`);
  assert.equal(
    write.why,
    "bigfile write: it moved 3000 MB on the new disk and 800 MB on the before disk, so their times are not comparable; diskdelta run --tests bigfile --target /mnt/new times it there, with the before disk's size",
  );
  // The tree moved the same 400 MB on both: set beside.
  assert.equal(judged.workloads.find((w) => w.test === 'tree')!.measured?.gain, 4);
});
