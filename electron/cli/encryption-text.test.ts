import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatEncryptionReport } from './encryption-text.ts';
import type { EncryptionReport } from '../node/crypto/encryption-run.ts';
import type { RunRecord } from '../shared/model/results.ts';

const record = (id: number, path: string): RunRecord => ({
  id,
  label: '',
  notes: '',
  createdAt: '',
  source: 'measured',
  sourceFormat: 'diskdelta',
  sourceMeta: {},
  settings: {},
  target: { path, kind: 'block-device' },
  engine: { name: 'diskdelta', version: '0' },
  results: [],
  extras: [],
  warnings: [],
});

/** An existing-mapping report with a read measured on both sides and a write whose raw figure is the disk's read. */
function existingReport(withWrites: boolean): EncryptionReport {
  const verdict = (test: string, raw: number, enc: number, standIn?: string) => ({
    test,
    rawBytesPerSec: raw,
    encryptedBytesPerSec: enc,
    cipherBytesPerSec: 70e6,
    linkBytesPerSec: null,
    ceiling: 'cipher' as const,
    costPercent: (1 - enc / raw) * 100,
    sentence: `sentence of ${test}`,
    ...(standIn ? { rawStandIn: standIn } : {}),
  });
  return {
    mode: 'existing',
    setup: { cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 4096, flags: [] },
    ceilings: {
      source: 'kernel',
      sourceLabel: 'kernel',
      backend: 'af_alg',
      cpus: 2,
      cpu: { model: null, aesNi: true, vaes: false, flags: [] },
      figures: [],
      unavailable: [],
      warnings: [],
      measuredAt: '',
      windowSeconds: 0.4,
    },
    rates: null,
    raw: record(1, '/dev/vdb'),
    encrypted: record(2, '/dev/dm-0'),
    encryptedWrites: withWrites ? record(3, '/home/me') : null,
    verdict: [
      verdict('seq1m-q8t1-read', 500e6, 70e6),
      ...(withWrites ? [verdict('seq1m-q8t1-write', 500e6, 65e6, 'seq1m-q8t1-read')] : []),
    ],
    forecast: [],
    cipherDrift: null,
    cleaned: [],
    notes: [],
  };
}

test("a write beneath an existing mapping prints its raw figure as the disk's read, and all three saved runs", () => {
  const text = formatEncryptionReport(existingReport(true));
  const row = (test: string) => text.split('\n').find((l) => l.startsWith(test)) ?? '';
  assert.match(row('seq1m-q8t1-write'), /^seq1m-q8t1-write\s+500 MB\/s \(its read\)\s+65(\.0)? MB\/s/);
  assert.doesNotMatch(row('seq1m-q8t1-read'), /its read/, 'a measured raw figure is printed as it is');
  assert.match(
    text,
    /Saved as runs #1 \(raw\), #2 \(dm-crypt\) and #3 \(dm-crypt, writes through the filesystem\): diskdelta compare 1 2 3/,
  );
});

test('without writes the saved line names the two runs', () => {
  assert.match(formatEncryptionReport(existingReport(false)), /Saved as runs #1 \(raw\) and #2 \(dm-crypt\): diskdelta compare 1 2\n/);
});
