// DiskDelta's own JSON: export → import gives the same numbers, for every fixture format and
// for a fully populated measured run; newer versions and wrong types are refused with a line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { RunRecord } from '../../shared/model/results.ts';
import { detectFormat, exportJson, ImportError, parseImport } from './index.ts';

const dir = new URL('./fixtures/', import.meta.url);
const NOW = new Date('2026-11-29T12:00:00.000Z');
// Files made here and files other people published (fixtures/foreign/).
const importable = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(json|txt|csv)$/.test(f));

/** Everything but the fields an import is expected to change. */
function numbersOf(run: RunRecord) {
  const { source: _s, sourceFormat: _f, sourceMeta: _m, id: _id, ...rest } = run;
  return rest;
}

/** A measured run with every optional part filled, and numbers that float formatting could break. */
function measuredRun(): RunRecord {
  // max: 15 nines, exact in a double (2^53 − 1 ns, 104 days, is refused as no operation's latency: sanity.ts).
  const latency = { mean: 123456.5, p50: 100000, p90: 200000, p99: 0.1 + 0.2, p999: 1e-7, max: 999_999_999_999_999 };
  return {
    id: 42,
    label: 'SSD "Samsung", after fstrim, 100% = ok',
    notes: 'line one\nline two',
    createdAt: '2026-11-29T10:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: {
      path: '/mnt/data',
      kind: 'folder',
      device: {
        name: 'sda',
        model: 'Samsung SSD 860 EVO 250GB',
        serial: 'S3Y',
        sizeBytes: 250059350016,
        rotational: false,
        class: 'SATA SSD',
        transport: 'sata',
        linkCeilingBytesPerSec: 600e6,
        linkDescription: 'SATA 6.0 Gb/s',
      },
      stack: [
        { kind: 'file', name: '/mnt/data/dd.tmp', details: {} },
        {
          kind: 'dm-crypt',
          name: 'luks-1',
          details: { cipher: 'aes-xts-plain64', keyBits: 512, allowDiscards: true, note: null },
          encrypted: true,
          discardPasses: null,
        },
      ],
    },
    system: { kernel: '6.12.0', cpuModel: 'Intel i3', cores: 2, cryptoFlags: ['aes'], memoryBytes: 8 * 1024 ** 3 },
    settings: { preset: 'standard', sizeBytes: 1024 ** 3, durationSec: 5, warmupSec: 1, runs: 3, buffered: false },
    engine: { name: 'diskdelta-worker', version: '0.1.0', ioEngine: 'io_uring' },
    results: [
      {
        test: 'seq1m-q8t1-read',
        params: { rw: 'read', blockSize: 1048576, queueDepth: 8, threads: 1 },
        bytesPerSec: 550123456.789,
        iops: 524.6,
        latencyNs: latency,
        best: { bytesPerSec: 560000000, iops: null },
        cv: 0.0123,
        runs: [1, 2, 3].map((run) => ({
          run,
          bytesPerSec: 55e7 + run,
          iops: 524.6,
          latencyNs: latency,
          elapsedNs: 5e9,
          ios: 2623,
          bytes: 2750414848,
          cpu: { userNs: 1e6, systemNs: 2e7 },
          samples: [
            { tMs: 100, bytesPerSec: 5.5e8, iops: 524 },
            { tMs: 200, bytesPerSec: 5.6e8, iops: 534 },
          ],
        })),
        histogram: [
          [1000, 5],
          [2000, 17],
          [1e9, 1],
        ],
        cpu: { userNs: 3e6, systemNs: 6e7 },
        underResolved: false,
        warnings: [{ code: 'noisy', message: 'CV above 5 %.' }],
      },
      {
        test: 'mix70-rnd4k-q8t1',
        params: { rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 1, readPercent: 70 },
        bytesPerSec: null,
        iops: null,
        latencyNs: null,
        best: null,
        cv: null,
        runs: [],
        histogram: [],
        cpu: null,
        underResolved: true,
        warnings: [],
      },
    ],
    extras: [
      { name: 'cipher speed', value: 1.5e9, unit: 'B/s', note: 'estimated' },
      { name: 'n/a', value: null, unit: '' },
    ],
    warnings: [{ code: 'buffered-io', message: 'x' }],
  };
}

describe('DiskDelta JSON export → import', () => {
  for (const name of importable) {
    it(`round trip of ${name}: the same numbers`, () => {
      const original = parseImport(readFileSync(new URL(name, dir), 'utf8'), name, { now: NOW });
      const json = exportJson(original);
      assert.equal(detectFormat(json), 'diskdelta');
      const back = parseImport(json, 'export.json');
      assert.equal(back.length, original.length);
      back.forEach((run, i) => {
        const before = original[i] as RunRecord;
        assert.deepEqual(numbersOf(run), numbersOf(before));
        assert.equal(run.source, 'imported');
        assert.equal(run.sourceFormat, 'diskdelta');
        assert.equal(run.sourceMeta['diskdelta.sourceFormat'], before.sourceFormat);
        for (const [k, v] of Object.entries(before.sourceMeta)) assert.equal(run.sourceMeta[k], v);
      });
    });
  }

  it('a fully populated measured run survives exactly, without its library id', () => {
    const run = measuredRun();
    const json = exportJson([run]);
    assert.doesNotMatch(json, /"id"/);
    const [back] = parseImport(json, 'm.json');
    assert.deepEqual(numbersOf(back as RunRecord), numbersOf(run));
    assert.equal(back?.sourceMeta['diskdelta.source'], 'measured');
    assert.equal(exportJson([run]), json, 'the same runs give the same text');
  });

  it('a newer format version is refused, naming the line of "version"', () => {
    const json = exportJson([measuredRun()]).replace('"version": 1', '"version": 2');
    assert.throws(
      () => parseImport(json, 'new.json'),
      (e: unknown) => e instanceof ImportError && e.line === 3 && /newer DiskDelta/.test(e.message),
    );
  });

  it('a wrong type is refused with the line of the value and its path', () => {
    const lines = exportJson([measuredRun()]).split('\n');
    const at = lines.findIndex((l) => l.includes('"iops": 524.6'));
    lines[at] = lines[at]!.replace('524.6', '"524.6"');
    assert.throws(
      () => parseImport(lines.join('\n'), 'typed.json'),
      (e: unknown) => e instanceof ImportError && e.file === 'typed.json' && e.line === at + 1 && /results\[0\]\.iops/.test(e.message),
    );
    const negative = exportJson([measuredRun()]).replace('"cv": 0.0123', '"cv": -1');
    assert.throws(
      () => parseImport(negative, 'neg.json'),
      (e: unknown) => e instanceof ImportError && /cv/.test(e.message),
    );
    const unknownKey = exportJson([measuredRun()]).replace('"notes":', '"evil": 1, "notes":');
    assert.throws(
      () => parseImport(unknownKey, 'key.json'),
      (e: unknown) => e instanceof ImportError && /evil/.test(e.message),
    );
  });
});

describe('an export with tens of thousands of malformed entries (#38)', () => {
  // zod hands a container's issues up with push(...issues): ~50,000 of them overflowed the call
  // stack, and the import said "Maximum call stack size exceeded" instead of what is wrong. Each
  // entry here has two or three problems, so every case holds well over 100,000 issues.
  const run = measuredRun();
  const [result] = run.results;
  const [measurement] = result!.runs;
  const many = <T>(item: T, length = 60_000) => Array.from({ length }, () => item);
  const cases: Array<[string, unknown, RegExp]> = [
    ['results', { ...run, results: many({ test: 5 }, 30_000) }, /expected string, received number \(at \.runs\[0\]\.results\[0\]\.test\)/],
    ['warnings', { ...run, warnings: many({ code: 7, message: 8, extra: true }) }, /\(at \.runs\[0\]\.warnings\[0\]\.code\)/],
    ['extras', { ...run, extras: many({ name: 1, value: 'NaN', unit: 2 }) }, /\(at \.runs\[0\]\.extras\[0\]\.name\)/],
    [
      'samples of a measurement',
      { ...run, results: [{ ...result, runs: [{ ...measurement, samples: many({ tMs: -1, bytesPerSec: 'fast', iops: null }) }] }] },
      /\(at \.runs\[0\]\.results\[0\]\.runs\[0\]\.samples\[0\]\.tMs\)/,
    ],
    [
      'histogram',
      { ...run, results: [{ ...result, histogram: many(['a', 'b'], 150_000) }] },
      /\(at \.runs\[0\]\.results\[0\]\.histogram\[0\]/,
    ],
    [
      'source details',
      { ...run, sourceMeta: Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`k${i}`, i])) },
      /\(at \.runs\[0\]\.sourceMeta\.k0\)/,
    ],
  ];
  for (const [what, bad, said] of cases) {
    it(`refuses ${what} with the schema's first error, not a stack overflow`, () => {
      const text = JSON.stringify({ format: 'diskdelta-results', version: 1, runs: [bad] });
      assert.throws(
        () => parseImport(text, 'huge.json', { now: NOW }),
        (e: unknown) => e instanceof ImportError && said.test(e.message) && !/call stack/i.test(e.message),
      );
    });
  }
});
