// KDiskMark and CrystalDiskMark reports other people published (fixtures/foreign/README.md
// names each source), read as each tool's code computed its figures. Every file: figures
// checked against the file's own text (read here with a plain regex), the date, the target,
// and every rate against IOPS × block size.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunRecord, TestResult } from '../../shared/model/results.ts';
import { decodeImportBytes, detectFormat, ImportError, parseImport } from './index.ts';
import { rateIopsWarning } from './rate-check.ts';

const read = (name: string) => decodeImportBytes(readFileSync(new URL(`./fixtures/foreign/${name}`, import.meta.url)), name);

/** The figures of the file's first line matching `pattern`: [MB/s, IOPS or null, µs or null]. */
function figures(text: string, pattern: RegExp): [number, number | null, number | null] {
  const line = text.split(/\r?\n/).find((l) => pattern.test(l));
  assert.ok(line, `no line ${pattern}`);
  const m = /:\s*([\d.]+) MB\/s(?:\s*\[\s*([\d.]+) IOPS\])?(?:\s*<\s*([\d.]+) us>)?/.exec(line) as RegExpExecArray;
  return [Number(m[1]), m[2] ? Number(m[2]) : null, m[3] ? Number(m[3]) : null];
}

function importOne(name: string): { run: RunRecord; text: string } {
  const text = read(name);
  const runs = parseImport(text, name);
  assert.equal(runs.length, 1);
  return { run: runs[0] as RunRecord, text };
}

function result(run: RunRecord, test: string): TestResult {
  const r = run.results.find((x) => x.test === test);
  assert.ok(r, `${test} in ${run.results.map((x) => x.test).join(', ')}`);
  return r;
}

/** Every result with IOPS agrees with IOPS × block size (the importer would have warned otherwise). */
function assertAllConsistent(run: RunRecord): void {
  for (const r of run.results) {
    assert.ok(!r.warnings.some((w) => w.code === 'rate-iops-mismatch'), `${r.test}: ${JSON.stringify(r.warnings)}`);
    if (r.iops === null || !r.params) continue;
    const fromIops = r.iops * r.params.blockSize;
    // Half a printed digit of each figure, plus fio's whole KiB/s per job for KDiskMark.
    const allowance = 0.0005 * 1.05e6 + 0.05 * r.params.blockSize + 1024 * r.params.threads;
    assert.ok(Math.abs((r.bytesPerSec as number) - fromIops) <= allowance, `${r.test}: ${r.bytesPerSec} vs ${fromIops}`);
  }
}

describe('KDiskMark reports published by others', () => {
  it('KDiskMark without a version (README, July 2020): MiB/s, told by its own IOPS × block size', () => {
    const { run, text } = importOne('kdiskmark-1.x-readme-2020-07.txt');
    assert.equal(detectFormat(text), 'kdiskmark');
    const [mb, iops, us] = figures(text, /Sequential 1 MiB \(Q= 8, T= 1\)/);
    const r = result(run, 'seq1m-q8t1-read');
    assert.equal(r.bytesPerSec, mb * 1024 * 1024, 'bw ÷ 1024 before 1.5.1: MiB/s');
    assert.equal(r.iops, iops);
    assert.equal(r.latencyNs?.mean, Math.round((us as number) * 1000));
    assert.equal(run.createdAt, '2020-07-05T13:58:27');
    assert.match(run.notes, /1,048,576/);
    // Q32T16 read only fio's first job before 1.6.0.
    assert.match(result(run, 'rnd4k-q32t16-read').warnings[0]?.message ?? '', /first of the 16 fio jobs/);
    assertAllConsistent(run);
  });

  it('KDiskMark 1.6.0: MB/s is KiB/s ÷ 1000, and its Q32T16 figures are half of the 16 jobs', () => {
    const { run, text } = importOne('kdiskmark-1.6.0-readme.txt');
    const [mb, iops] = figures(text, /Sequential 1 MiB \(Q= 1, T= 1\)/);
    assert.equal(result(run, 'seq1m-q1t1-read').bytesPerSec, mb * 1024 * 1000);
    assert.equal(result(run, 'seq1m-q1t1-read').iops, iops);
    assert.equal(run.engine.version, '1.6.0');
    assert.equal(run.sourceMeta.fio, 'fio-3.16');
    const q32 = result(run, 'rnd4k-q32t16-write');
    assert.equal(q32.warnings[0]?.code, 'kdiskmark-partial-jobs');
    assert.match(q32.warnings[0]?.message ?? '', /8 of the 16/);
    assert.equal(result(run, 'rnd4k-q1t1-write').warnings.length, 0);
    assertAllConsistent(run);
  });

  it("KDiskMark 2.3.0 and 3.0.0: 2.3 % above the header's 10^6 reading, as their IOPS show", () => {
    for (const name of ['kdiskmark-2.3.0-readme.txt', 'kdiskmark-3.0.0-readme.txt']) {
      const { run, text } = importOne(name);
      const [mb, iops, us] = figures(text, /Random\s+4 KiB \(Q=\s*32, T= 1\)/);
      const r = result(run, 'rnd4k-q32t1-read');
      assert.equal(r.bytesPerSec, mb * 1024 * 1000);
      assert.equal(r.iops, iops);
      assert.equal(r.latencyNs?.mean, Math.round((us as number) * 1000));
      // The header's own reading (10^6) contradicts the IOPS column: the check has teeth.
      assert.ok(
        rateIopsWarning('KDiskMark', {
          bytesPerSec: mb * 1e6,
          iops: iops as number,
          blockSize: 4096,
          rateStep: 1000,
          iopsStep: 0.1,
          slackBytesPerSec: 1024,
        }),
      );
      assert.match(run.notes, /lat_ns/);
      assertAllConsistent(run);
    }
  });

  it('KDiskMark 3.2.0: the Target line is a mount point and its volume, not a path', () => {
    const { run, text } = importOne('kdiskmark-3.2.0-cachyos.txt');
    assert.match(text, /Target: \/ 4% \(31\.72\/748\.08 GiB\)/);
    assert.equal(run.target.path, '/');
    assert.equal(run.target.kind, 'folder');
    const mount = run.target.stack?.[0];
    assert.equal(mount?.kind, 'mount');
    assert.equal(mount?.details.usedPercent, 4);
    assert.equal(mount?.details.sizeBytes, Math.round(748.08 * 1024 ** 3));
    const [mb, iops] = figures(text, /Random\s+4 KiB \(Q=\s*1, T= 1\)/);
    assert.equal(result(run, 'rnd4k-q1t1-read').bytesPerSec, mb * 1024 * 1000);
    assert.equal(result(run, 'rnd4k-q1t1-read').iops, iops);
    assert.equal(run.createdAt, '2026-02-26T16:29:06');
    assert.match(run.notes, /clat_ns/);
    assertAllConsistent(run);
    // With the model KDiskMark appends in brackets, the model becomes the device's.
    const withModel = text.replace('748.08 GiB)', '748.08 GiB) [Samsung SSD 970 EVO Plus 1TB]');
    const [run2] = parseImport(withModel, 'model.txt');
    assert.equal(run2?.target.path, '/');
    assert.equal(run2?.target.device?.model, 'Samsung SSD 970 EVO Plus 1TB');
    assert.match(run2?.label ?? '', /Samsung SSD 970 EVO Plus 1TB/);
  });
});

describe('CrystalDiskMark reports published by others', () => {
  it('CrystalDiskMark 8.0.1 and 8.0.2: 10^6 bytes/s, the drive letter and volume as the target', () => {
    for (const [name, drive, used, sizeGiB] of [
      ['crystaldiskmark-8.0.1-wd-blue.txt', 'E:', 96, 932],
      ['crystaldiskmark-8.0.1-840-evo.txt', 'C:', 98, 111],
      ['crystaldiskmark-8.0.1-x86-no-comment.txt', 'F:', 78, 233],
      ['crystaldiskmark-8.0.2-crucial-p2.txt', 'D:', 48, 1863],
    ] as const) {
      const { run, text } = importOne(name);
      assert.equal(detectFormat(text), 'crystaldiskmark');
      const [mb, iops, us] = figures(text, /RND\s+4KiB \(Q=\s*1, T= 1\)/);
      const r = result(run, 'rnd4k-q1t1-read');
      assert.equal(r.bytesPerSec, mb * 1e6);
      assert.equal(r.iops, iops);
      assert.equal(r.latencyNs?.mean, Math.round((us as number) * 1000));
      assert.equal(run.target.path, drive);
      assert.equal(run.target.stack?.[0]?.details.usedPercent, used);
      assert.equal(run.target.stack?.[0]?.details.sizeBytes, sizeGiB * 1024 ** 3);
      assertAllConsistent(run);
    }
    const { run } = importOne('crystaldiskmark-8.0.2-crucial-p2.txt');
    assert.deepEqual(run.results.map((r) => r.test).slice(0, 4), [
      'seq1m-q8t1-read',
      'seq128k-q32t1-read',
      'rnd4k-q32t16-read',
      'rnd4k-q1t1-read',
    ]);
    assert.equal(run.notes, 'Crucial P2 2TB @ PCIe 3.0 x4');
  });

  it('CrystalDiskMark 6.0.2 (one line per test): 128 KiB sequential at Q32, 4 KiB random, drive C:', () => {
    const { run, text } = importOne('crystaldiskmark-6.0.2-linustechtips.txt');
    assert.equal(detectFormat(text), 'crystaldiskmark');
    assert.equal(run.engine.version, '6.0.2');
    assert.equal(run.results.length, 8);
    const [seq] = figures(text, /Sequential Read \(Q= 32,T= 1\)/);
    const s = result(run, 'seq128k-q32t1-read');
    assert.equal(s.bytesPerSec, seq * 1e6);
    assert.equal(s.iops, null, 'CrystalDiskMark 6 prints no IOPS for sequential tests');
    const [mb, iops] = figures(text, /Random Read 4KiB \(Q= {2}8,T= 8\)/);
    assert.equal(result(run, 'rnd4k-q8t8-read').bytesPerSec, mb * 1e6);
    assert.equal(result(run, 'rnd4k-q8t8-read').iops, iops);
    assert.equal(run.createdAt, '2018-12-15T00:48:36');
    assert.equal(run.target.path, 'C:');
    assert.equal(run.target.stack?.[0]?.details.usedPercent, 26.4);
    assert.equal(run.target.stack?.[0]?.details.sizeBytes, Math.round(465.2 * 1024 ** 3));
    assert.deepEqual({ size: run.settings.sizeBytes, runs: run.settings.runs }, { size: 1024 ** 3, runs: 5 });
    assertAllConsistent(run);
  });

  it('CrystalDiskMark 5.2.0: the unqueued "Sequential Read (T= 1)" is 1 MiB Q1T1', () => {
    const { run, text } = importOne('crystaldiskmark-5.2.0-superuser.txt');
    const [mb] = figures(text, /Sequential Read \(T= 1\)/);
    assert.equal(result(run, 'seq1m-q1t1-read').bytesPerSec, mb * 1e6);
    const [mb32, iops32] = figures(text, /Random Read 4KiB \(Q= 32,T= 1\)/);
    assert.equal(result(run, 'rnd4k-q32t1-read').bytesPerSec, mb32 * 1e6);
    assert.equal(result(run, 'rnd4k-q32t1-read').iops, iops32);
    assert.equal(run.createdAt, '2016-11-15T21:52:26');
    assert.equal(run.target.path, 'E:');
    assert.equal(run.target.stack?.[0]?.details.sizeBytes, Math.round(7167.0 * 1024 ** 2));
    assertAllConsistent(run);
  });

  it('CrystalDiskMark 3 layout ("Random Read 4KB (QD=32)") reads; an older version says it is not supported', () => {
    // CrystalDiskMark 3's lines, as CrystalDiskMark 3.0.2 prints them (same figures as the 5.2.0 file).
    const v3 = read('crystaldiskmark-5.2.0-superuser.txt')
      .replace('CrystalDiskMark 5.2.0 x64 (C) 2007-2016', 'CrystalDiskMark 3.0.2 x64 (C) 2007-2013')
      .replace(/^.*Sequential Read \(Q= 32,T= 1\).*$/m, '           Sequential Read :   140.647 MB/s')
      .replace(/^.*Random Read 4KiB \(Q= 32,T= 1\).*$/m, '   Random Read 4KB (QD=32) :    33.730 MB/s [  8234.9 IOPS]')
      .replace(/^.*Random Read 4KiB \(Q= 1,T= 1\).*$/m, '    Random Read 4KB (QD=1) :    10.380 MB/s [  2534.2 IOPS]')
      .replace(/^.*Sequential Read \(T= 1\).*$/m, '         Random Read 512KB :   156.034 MB/s');
    const [run] = parseImport(v3, 'cdm3.txt');
    assert.equal(run?.engine.version, '3.0.2');
    assert.equal(result(run as RunRecord, 'seq1m-q1t1-read').bytesPerSec, 140_647_000);
    assert.equal(result(run as RunRecord, 'rnd4k-q32t1-read').iops, 8234.9);
    assert.equal(result(run as RunRecord, 'rnd512k-q1t1-read').bytesPerSec, 156_034_000);
    const v2 = v3.replace('CrystalDiskMark 3.0.2', 'CrystalDiskMark 2.2.0');
    assert.throws(
      () => parseImport(v2, 'cdm2.txt'),
      (e: unknown) =>
        e instanceof ImportError && /CrystalDiskMark 2\.2\.0 report recognised, but its layout is not supported/.test(e.message),
    );
  });
});
