// KDiskMark (2.x and 3.x layouts) and CrystalDiskMark 8 text reports: every result line of
// each fixture is checked, with the values written out from the files by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunRecord } from '../../shared/model/results.ts';
import { decodeImportBytes, detectFormat, ImportError, parseImport } from './index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

type Expected = [test: string, bytesPerSec: number, iops: number, meanNs: number];

function checkResults(run: RunRecord, expected: Expected[]): void {
  assert.deepEqual(
    run.results.map((r) => [r.test, r.bytesPerSec, r.iops, r.latencyNs?.mean]),
    expected,
  );
  for (const r of run.results) {
    assert.equal(r.latencyNs?.p99, null, 'the reports give the mean latency only');
    assert.equal(r.underResolved, false);
  }
}

describe('KDiskMark text import', () => {
  it('3.x layout: values, unrun tests skipped, metadata', () => {
    const text = fixture('kdiskmark-3.x.txt');
    assert.equal(detectFormat(text), 'kdiskmark');
    const [run, ...more] = parseImport(text, 'KDM_20261129.txt');
    assert.equal(more.length, 0);
    assert.ok(run);
    // KDiskMark's "MB/s" is fio's bw (KiB/s) ÷ 1000: 765.964 "MB/s" is 765964 KiB/s.
    checkResults(run, [
      ['seq1m-q8t1-read', 765_964 * 1024, 748.0, 10_668_790], //   765.964 MB/s [    748.0 IOPS] < 10668.79 us>
      ['rnd4k-q32t1-read', 195_738 * 1024, 48934.5, 652_890], //  195.738 MB/s [  48934.5 IOPS] <   652.89 us>
      ['seq1m-q1t1-write', 2_294_148 * 1024, 2240.4, 444_200], // 2294.148 MB/s [   2240.4 IOPS] <   444.20 us>
    ]);
    assert.match(run.notes, /1,024,000 bytes\/s/);
    assert.ok(
      run.results.every((r) => r.warnings.length === 0),
      'rates agree with IOPS × block size',
    );
    assert.deepEqual(run.results[0]?.params, { rw: 'read', blockSize: 1048576, queueDepth: 8, threads: 1 });
    assert.equal(run.source, 'imported');
    assert.equal(run.sourceFormat, 'kdiskmark');
    assert.equal(run.engine.version, '3.1.4');
    assert.equal(run.sourceMeta.fio, 'fio-3.33');
    assert.equal(run.sourceMeta.layout, 'KDiskMark 3.x');
    assert.equal(run.sourceMeta.Profile, 'Default');
    assert.equal(run.sourceMeta.OS, 'debian 13 [linux 6.12.0]');
    assert.equal(run.createdAt, '2026-11-29T20:57:35');
    assert.deepEqual(run.settings, { sizeBytes: 64 * 1024 * 1024, runs: 1, durationSec: 2, preset: 'Default' });
    assert.match(run.sourceMeta.notRun ?? '', /Read seq1m-q1t1/);
  });

  it('2.x layout with a [Mix] section', () => {
    const text = fixture('kdiskmark-2.x.txt');
    assert.equal(detectFormat(text), 'kdiskmark');
    const [run] = parseImport(text, 'KDM_old.txt');
    assert.ok(run);
    checkResults(run, [
      ['seq1m-q8t1-read', 847_641 * 1024, 827.8, 9_645_000],
      ['seq1m-q1t1-write', 2_435_390 * 1024, 2378.3, 418_260],
      ['mix70-rnd4k-q8t1', 54_999 * 1024, 13749.9, 334_220],
    ]);
    // KDiskMark's mix figure is 0.7 × read + 0.3 × write, not the total: said, not hidden.
    assert.deepEqual(
      run.results[2]?.warnings.map((w) => w.code),
      ['kdiskmark-mix-weighted'],
    );
    assert.deepEqual(run.results[2]?.params, { rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 1, readPercent: 70 });
    assert.equal(run.engine.version, '2.2.0');
    assert.equal(run.sourceMeta.layout, 'KDiskMark 2.x');
    assert.equal(run.sourceMeta.Profile, 'Default [+Mix]');
    assert.equal(run.settings.durationSec, undefined, '2.x has no measure time');
    assert.match(run.sourceMeta.notRun ?? '', /Read rnd4k-q32t16/);
  });

  it('1.x reports (no version, no fio line, slashes in the date) read the same way', () => {
    const text = fixture('kdiskmark-2.x.txt')
      .replace(/^.*KDiskMark \(2\.2\.0\).*$/m, 'KDiskMark: https://github.com/JonMagon/KDiskMark'.padStart(78))
      .replace(/^.*Flexible I\/O Tester.*\n/m, '')
      .replace('2026-11-29 20:57:45', '2020/08/05 14:34:43');
    assert.equal(detectFormat(text), 'kdiskmark');
    const [run] = parseImport(text, 'KDM_2020.txt');
    assert.equal(run?.engine.version, 'unknown');
    assert.equal(run?.sourceMeta.layout, 'KDiskMark 1.x');
    assert.equal(run?.createdAt, '2020-08-05T14:34:43');
    // No version: 1.4–1.5.1. IOPS × block size says ÷ 1000 (1.5.1) for these figures.
    assert.equal(run?.results[0]?.bytesPerSec, 847_641 * 1024);
    assert.match(run?.notes ?? '', /names no version/);
  });

  it('a mangled result line is an error naming its line', () => {
    const lines = fixture('kdiskmark-3.x.txt').split('\n');
    const at = lines.findIndex((l) => l.includes('765.964'));
    lines[at] = lines[at]!.replace('765.964 MB/s', '765.964 MB/x');
    assert.throws(
      () => parseImport(lines.join('\n'), 'k.txt'),
      (e: unknown) => e instanceof ImportError && e.file === 'k.txt' && e.line === at + 1,
    );
  });

  it('a report cut before its settings is refused as truncated', () => {
    const text = fixture('kdiskmark-3.x.txt');
    const cut = text.slice(0, text.indexOf('Profile:'));
    assert.throws(
      () => parseImport(cut, 'k.txt'),
      (e: unknown) => e instanceof ImportError && /truncated/.test(e.message),
    );
  });
});

describe('CrystalDiskMark text import', () => {
  const expected: Expected[] = [
    ['seq1m-q8t1-read', 867_985_000, 827.8, 9_573_310],
    ['rnd4k-q32t1-read', 165_205_000, 40333.3, 779_940],
    ['seq1m-q1t1-write', 2_493_840_000, 2378.3, 289_180],
    ['mix70-rnd4k-q8t1', 97_575_000, 23822.1, 316_510],
  ];

  it('CrystalDiskMark 8, UTF-8 with CRLF: values, comment, metadata', () => {
    const text = fixture('crystaldiskmark-8.txt');
    assert.ok(text.includes('\r\n'), 'the fixture really has CRLF');
    assert.equal(detectFormat(text), 'crystaldiskmark');
    const [run] = parseImport(text, 'CDM.txt');
    assert.ok(run);
    checkResults(run, expected);
    assert.equal(run.engine.name, 'CrystalDiskMark');
    assert.equal(run.engine.version, '8.0.4 x64');
    assert.equal(run.sourceMeta.Comment, 'numbers from fio-3.33-jsonplus.json, Grüße ✓');
    assert.equal(run.notes, run.sourceMeta.Comment);
    assert.equal(run.sourceMeta.Mode, '[Admin]');
    assert.equal(run.sourceMeta.Time, 'Measure 2 sec / Interval 0 sec');
    assert.equal(run.sourceMeta.Test, '64 MiB (x1) [C: 23% (23/252GiB)]');
    assert.equal(run.createdAt, '2026-11-29T20:57:45');
    assert.equal(run.settings.durationSec, 2);
    assert.equal(run.settings.sizeBytes, 64 * 1024 * 1024);
    assert.match(run.label, /Grüße/);
  });

  it('the same report saved as UTF-16LE with BOM (what CrystalDiskMark writes) decodes to the same run', () => {
    const text = fixture('crystaldiskmark-8.txt');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const [run] = parseImport(decodeImportBytes(bytes, 'CDM16.txt'), 'CDM16.txt');
    assert.ok(run);
    checkResults(run, expected);
  });

  it('a UTF-8 BOM is ignored', () => {
    const [run] = parseImport(`\ufeff${fixture('crystaldiskmark-8.txt')}`, 'bom.txt');
    assert.ok(run);
    checkResults(run, expected);
  });

  it('an impossible date is an error on the Date line', () => {
    const text = fixture('crystaldiskmark-8.txt').replace('2026/11/29 20:57:45', '2026/13/29 20:57:45');
    const line = text.split('\r\n').findIndex((l) => l.includes('Date:')) + 1;
    assert.throws(
      () => parseImport(text, 'CDM.txt'),
      (e: unknown) => e instanceof ImportError && e.line === line,
    );
  });
});
