// The encryption section draws the cipher's ceiling as a line beside forecast bars: the line must
// be the model's own ceiling, so a contended all-CPU measurement (below the one-CPU figure) never
// draws a line under the bars the forecast computed from the one-CPU figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CipherCeilings } from '../../../electron/shared/model/cipher-types.ts';
import { loadReferenceRuns } from '../../../electron/node/formats/reference.ts';
import { buildEncryptionView } from './encryption-view.ts';

function ceilings(oneCpu: number, allCpus: number): CipherCeilings {
  const figure = (threads: number, bps: number) => ({
    cipher: 'aes-xts-plain64',
    keyBits: 512,
    kernelName: 'xts(aes)',
    sectorBytes: 65536,
    threads,
    encryptBps: bps,
    decryptBps: bps,
  });
  return {
    source: 'kernel',
    sourceLabel: 'kernel',
    backend: 'af_alg',
    cpus: 2,
    cpu: { model: null, aesNi: true, vaes: false, flags: [] },
    figures: [figure(1, oneCpu), figure(2, allCpus)],
    unavailable: [],
    warnings: [],
    measuredAt: '2026-11-30T00:00:00Z',
    windowSeconds: 1,
  };
}

test('the ceiling line is the all-CPU rate, but never below the one-CPU rate (contention), like the forecast', async () => {
  const runs = (await loadReferenceRuns()).filter((r) => r.results.some((x) => x.test === 'seq1m-q1t1-read'));
  assert.ok(runs.length >= 2, 'the 2011 reference runs carry a sequential read');
  const mb = 1e6;
  const scaling = buildEncryptionView(runs, ceilings(100 * mb, 180 * mb), 'MB')!;
  assert.equal(scaling.cipherLine, 180);
  assert.equal(scaling.cipherLineOneCore, 100);
  const contended = buildEncryptionView(runs, ceilings(100 * mb, 60 * mb), 'MB')!;
  assert.equal(contended.cipherLine, 100, 'a contended all-CPU figure does not lower the line');
  // The SSD (135.9 MB/s raw) is forecast at the ceiling, never above the line.
  for (const row of contended.rows) if (row.forecast !== null) assert.ok(row.forecast <= contended.cipherLine + 1e-9);
  assert.ok(contended.rows.some((row) => row.forecast !== null && Math.abs(row.forecast - 100) < 1e-6));
});
