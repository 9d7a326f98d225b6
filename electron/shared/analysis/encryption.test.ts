import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cipherRates, encryptionVerdict, fixedCipherRates, forecastRun, forecastTest, rateDrift, writeStandIns } from './encryption.ts';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import type { RunRecord, TestResult } from '../model/results.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';

const KIB_MB = 1024 * 1000; // bonnie++'s "MB/s" in the seed: K/sec / 1000

test("the seed's story: the 2011 SSD (132.7 MB/s) under a ~70 MB/s one-core cipher forecasts ~70 against the published 69.8", async () => {
  const runs = await loadReferenceRuns();
  const ssd = runs.find((r) => /Intel 320 SSD, /.test(r.label))!;
  const encrypted = runs.find((r) => /SSD \+ dm-crypt/.test(r.label))!;
  const read = (r: RunRecord) => r.results.find((t) => t.test === 'seq1m-q1t1-read')!.bytesPerSec!;
  assert.ok(Math.abs(read(ssd) / KIB_MB - 132.7) < 0.1, "the reference SSD figure is the seed's 132.7");
  const [f] = forecastRun(ssd, fixedCipherRates(70 * KIB_MB), { cipherThreads: 1 }).filter((x) => x.test === 'seq1m-q1t1-read');
  assert.ok(f);
  assert.equal(f.provenance, 'estimated');
  assert.equal(f.ceiling, 'cipher');
  assert.ok(f.pipelined, 'bonnie++ block input reads ahead: disk and cipher overlap');
  const ratio = f.estimatedBytesPerSec / read(encrypted);
  assert.ok(
    Math.abs(ratio - 1) < 0.05,
    `forecast ${(f.estimatedBytesPerSec / KIB_MB).toFixed(1)} vs published ${(read(encrypted) / KIB_MB).toFixed(1)}`,
  );
  // And the 2011 hard disk (40.3) is slower than the cipher: almost nothing lost.
  const hdd = runs.find((r) => /hard disk/.test(r.label))!;
  const [h] = forecastRun(hdd, fixedCipherRates(70 * KIB_MB), { cipherThreads: 1 }).filter((x) => x.test === 'seq1m-q1t1-read');
  assert.equal(h?.ceiling, 'disk');
  assert.equal(h?.costPercent, 0);
});

const result = (test: string, rw: 'read' | 'write' | 'randread', bs: number, qd: number, bytesPerSec: number): TestResult => ({
  test,
  params: { rw, blockSize: bs, queueDepth: qd, threads: 1 },
  bytesPerSec,
  iops: bytesPerSec / bs,
  latencyNs: null,
  best: null,
  cv: null,
  runs: [],
  histogram: [],
  cpu: null,
  underResolved: false,
  warnings: [],
});

const rates = {
  cipher: 'aes-xts-plain64',
  keyBits: 512,
  cpus: 4,
  source: 'kernel' as const,
  encrypt1: 1e9,
  decrypt1: 1.2e9,
  encryptAll: 3.6e9,
  decryptAll: 4e9,
};

test('pipelined tests: min(disk, cipher with one CPU per request in flight); QD1: the times add', () => {
  const q8 = forecastTest(result('seq1m-q8t1-read', 'read', 1 << 20, 8, 6e9), rates)!;
  assert.equal(q8.cipherThreads, 4);
  assert.equal(q8.estimatedBytesPerSec, 4e9);
  assert.equal(q8.ceiling, 'cipher');
  const w = forecastTest(result('seq1m-q8t1-write', 'write', 1 << 20, 8, 500e6), rates)!;
  assert.equal(w.estimatedBytesPerSec, 500e6);
  assert.equal(w.ceiling, 'disk');
  const q1 = forecastTest(result('seq1m-q1t1-read', 'read', 1 << 20, 1, 1.2e9), rates)!;
  assert.equal(q1.pipelined, false);
  assert.ok(Math.abs(q1.estimatedBytesPerSec - 0.6e9) < 1, String(q1.estimatedBytesPerSec));
  const q2 = forecastTest(result('rnd4k-q32t1-read', 'randread', 4096, 2, 100e6), { ...rates })!;
  assert.equal(q2.cipherThreads, 2);
  assert.ok(Math.abs(q2.cipherBytesPerSec - (1.2e9 + (4e9 - 1.2e9) / 3)) < 1);
  assert.ok(Math.abs(q2.estimatedIops! - 100e6 / 4096) < 1e-6);
});

test('cipherRates takes the bulk (64 KiB) figure, not the per-sector ones; one thread and all', () => {
  const c = {
    source: 'kernel',
    figures: [
      { cipher: 'aes-xts-plain64', keyBits: 512, kernelName: 'xts(aes)', sectorBytes: 512, threads: 1, encryptBps: 1, decryptBps: 1 },
      { cipher: 'aes-xts-plain64', keyBits: 512, kernelName: 'xts(aes)', sectorBytes: 65536, threads: 1, encryptBps: 10, decryptBps: 11 },
      { cipher: 'aes-xts-plain64', keyBits: 512, kernelName: 'xts(aes)', sectorBytes: 65536, threads: 2, encryptBps: 19, decryptBps: 21 },
    ],
  } as unknown as CipherCeilings;
  assert.deepEqual(cipherRates(c), {
    cipher: 'aes-xts-plain64',
    keyBits: 512,
    cpus: 2,
    source: 'kernel',
    encrypt1: 10,
    decrypt1: 11,
    encryptAll: 19,
    decryptAll: 21,
  });
  assert.equal(cipherRates(c, 'serpent-xts-plain64', 512), null);
});

const run = (results: TestResult[], link: number | null = null): RunRecord => ({
  label: '',
  notes: '',
  createdAt: '',
  source: 'measured',
  sourceFormat: 'diskdelta',
  sourceMeta: {},
  settings: {},
  target: { path: '/dev/x', kind: 'block-device', ...(link ? { device: { linkCeilingBytesPerSec: link } as never } : {}) },
  engine: { name: 'diskdelta', version: '0' },
  results,
  extras: [],
  warnings: [],
});

test('verdict: cipher-bound, disk-bound and bus-bound pairs, each with the numbers in the sentence', () => {
  const [cipherBound] = encryptionVerdict(
    run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 6e9)]),
    run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 3.9e9)]),
    rates,
  );
  assert.equal(cipherBound?.ceiling, 'cipher');
  assert.equal(Math.round(cipherBound!.costPercent), 35);
  assert.match(
    cipherBound!.sentence,
    /encryption costs you 35 % on sequential read here: the cipher \(4,000\.0 MB\/s\) is the ceiling, not the disk \(6,000\.0 MB\/s\)/,
  );
  const [diskBound] = encryptionVerdict(
    run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 40e6)]),
    run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 39.8e6)]),
    rates,
  );
  assert.equal(diskBound?.ceiling, 'disk');
  assert.match(diskBound!.sentence, /costs nothing measurable|costs you 1 %/);
  const [bus] = encryptionVerdict(
    run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 280e6)], 300e6),
    run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 279e6)]),
    rates,
  );
  assert.equal(bus?.ceiling, 'bus');
});

test('an all-CPU cipher figure below the one-CPU one (contention while measuring) never lowers the forecast under one CPU', () => {
  const contended = { ...rates, cpus: 2, decrypt1: 17e6, decryptAll: 3.7e6 };
  const f = forecastTest(result('seq1m-q8t1-read', 'read', 1 << 20, 8, 117e6), contended)!;
  assert.equal(f.cipherThreads, 2);
  assert.equal(f.cipherBytesPerSec, 17e6);
});

test('rateDrift: the largest relative move of any rate between two measurements of the cipher; null without both', () => {
  const steady = { ...rates, encrypt1: 10e6, decrypt1: 10e6, encryptAll: 20e6, decryptAll: 20e6 };
  assert.equal(rateDrift(steady, steady), 0);
  // One rate of four moved from 20 to 15 MB/s: a third of the smaller figure, in either order.
  const moved = { ...steady, decryptAll: 15e6 };
  assert.equal(rateDrift(steady, moved), 5 / 15);
  assert.equal(rateDrift(moved, steady), 5 / 15);
  assert.equal(rateDrift(null, steady), null);
});

test('a write beneath an existing mapping: the raw read of the same shape stands in, forecast with the encrypt rate, said in the sentence', () => {
  const raw = run([result('seq1m-q8t1-read', 'read', 1 << 20, 8, 6e9), result('rnd4k-q1t1-read', 'randread', 4096, 1, 50e6)]);
  // rnd4k-q32t1-read was not measured raw: its write has nothing to stand in and is left out.
  const standIns = { 'seq1m-q8t1-write': 'seq1m-q8t1-read', 'rnd4k-q32t1-write': 'rnd4k-q32t1-read' };
  const standInRaw = writeStandIns(raw, standIns);
  assert.deepEqual(
    standInRaw.results.map((r) => [r.test, r.params?.rw, r.bytesPerSec]),
    [['seq1m-q8t1-write', 'write', 6e9]],
  );
  assert.equal(raw.results[0]!.test, 'seq1m-q8t1-read', 'the raw run itself is not changed');

  const [forecast] = forecastRun(standInRaw, rates, {}, standIns);
  // A write: the encrypt rate on min(QD8, 4 CPUs) = 4 CPUs (3.6 GB/s), not the decrypt one (4 GB/s).
  assert.equal(forecast?.estimatedBytesPerSec, 3.6e9);
  assert.equal(forecast?.rawStandIn, 'seq1m-q8t1-read');
  assert.equal(forecastRun(raw, rates)[0]?.rawStandIn, undefined, 'a measured raw figure is not marked');

  const [verdict] = encryptionVerdict(standInRaw, run([result('seq1m-q8t1-write', 'write', 1 << 20, 8, 3.5e9)]), rates, {}, standIns);
  assert.equal(verdict?.ceiling, 'cipher');
  assert.equal(verdict?.rawStandIn, 'seq1m-q8t1-read');
  assert.match(
    verdict!.sentence,
    /encryption costs you 42 % on sequential write here: the cipher \(3,600\.0 MB\/s\) is the ceiling, not the disk \(6,000\.0 MB\/s read; the device beneath is never written\)/,
  );
});
