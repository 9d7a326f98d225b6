// The forecast beside the measurement once the new disk is in: gains over the same before run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forecastCandidates } from './candidate-forecast.ts';
import { candidateFromSpec } from './candidate.ts';
import { forecastBesideMeasured } from './candidate-judged.ts';
import { currentDiskRun } from './forecast-fixtures.ts';
import { EXAMPLE_CANDIDATE } from '../model/candidate.ts';

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
