// KDiskMark's text report ("Save" / "Copy"), written by MainWindow::getTextBenchmarkResult in
// github.com/JonMagon/KDiskMark. Layouts:
//  - 1.4–1.5.1: "KDiskMark: https://…" (no version), "Test: 32 MiB (x5) [Interval: 5 sec]";
//  - 1.6–2.x: "KDiskMark (2.3.0): https://…" and "Flexible I/O Tester (fio-3.28): …";
//  - 3.x: block size and Q padded to 3 ("Sequential   1 MiB (Q=  8, T= 1)"),
//    "Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]", and since 3.1 a "Target:" line
//    ("/ 4% (31.72/748.08 GiB)", with " [model]" once KDiskMark knows the disk's model).
//
// What the numbers are, from src/benchmark.cpp (Benchmark::parseResult) in each version:
//  - "MB/s" is fio's integer "bw" (KiB/s) ÷ 1000 since 1.5.1 (commit 2c6f285, July 2020,
//    "Bandwith conversion to KB, not KiB"): one printed MB/s is 1,024,000 bytes/s. Up to
//    1.5.0 it was bw ÷ 1024, i.e. MiB/s. Reports without a version (1.4–1.5.1) are told apart
//    by their own IOPS × block size, which agrees with only one of the two.
//  - Tests with T > 1 run fio with numjobs=T. Up to 1.5.x only jobs[0] was read (one thread's
//    share); 1.6.0–3.2.x summed jobs with takeAt(i) in a loop, which skips every other job, so
//    ceil(T/2) of T jobs were summed and the mean latency divided by T (fixed in 3.3.0 with
//    --group_reporting, issue #182). The figure is kept as printed, with a warning.
//  - [Mix] lines are p × read + (1 − p) × write of the two sides' figures, not their sum.
//  - Latency is fio's lat_ns mean (submission + completion) up to 3.1.x, clat_ns from 3.2.0.
import type { RunRecord, Warning } from '../../shared/model/results.ts';
import { parseDiskMarkText, volumeTarget, type DiskMarkFlavour, type RateUnit, type ReportLine } from './disk-mark-text.ts';
import { rateAgreesWithIops } from './rate-check.ts';

type Version = [number, number, number];

function versionOf(text: string): Version | null {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

function atLeast(v: Version, min: Version): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return (v[i] as number) > (min[i] as number);
  return true;
}

const KIB_OVER_1000 = 1024 * 1000;
const KIB_OVER_1024 = 1024 * 1024;

function agreeing(lines: ReportLine[], bytesPerMB: number): number {
  return lines.filter(
    (l) =>
      l.iops !== null &&
      l.params !== null &&
      rateAgreesWithIops({
        bytesPerSec: (l.rateMilli * bytesPerMB) / 1000,
        iops: l.iops,
        blockSize: l.params.blockSize,
        rateStep: bytesPerMB / 1000,
        iopsStep: 0.1,
        slackBytesPerSec: 1024,
      }),
  ).length;
}

function rateUnit(version: string, lines: ReportLine[]): RateUnit {
  const v = versionOf(version);
  const kb: RateUnit = {
    bytesPerMB: KIB_OVER_1000,
    slackPerThread: 1024,
    note:
      `KDiskMark ${version} prints fio's bw (KiB/s) ÷ 1000 as "MB/s" (src/benchmark.cpp since 1.5.1), so one MB/s in this ` +
      'report is 1,024,000 bytes/s, not the 1,000,000 its header says; the rates are stored in bytes/s accordingly.',
  };
  const mib: RateUnit = {
    bytesPerMB: KIB_OVER_1024,
    slackPerThread: 1024,
    note:
      `KDiskMark ${version === 'unknown' ? 'before 1.5.1' : version} prints fio's bw (KiB/s) ÷ 1024 as "MB/s": the figures are ` +
      'MiB/s (1,048,576 bytes/s), not the 1,000,000 its header says; the rates are stored in bytes/s accordingly.',
  };
  if (v) return atLeast(v, [1, 5, 1]) ? kb : mib;
  // No version in the header: 1.4–1.5.1. The report's own IOPS × block size decides.
  const unit = agreeing(lines, KIB_OVER_1024) > agreeing(lines, KIB_OVER_1000) ? mib : kb;
  return {
    ...unit,
    note: `${unit.note} This report names no version (KDiskMark 1.4–1.5.1); its IOPS × block size agree with this reading.`,
  };
}

function lineWarnings(version: string, line: ReportLine): Warning[] {
  const warnings: Warning[] = [];
  const threads = line.params?.threads ?? 1;
  const v = versionOf(version);
  if (threads > 1 && (!v || !atLeast(v, [1, 6, 0]))) {
    warnings.push({
      code: 'kdiskmark-partial-jobs',
      message:
        `KDiskMark before 1.6.0 read only the first of the ${threads} fio jobs of this test: the figure is one thread's ` +
        `share, about 1/${threads} of what the disk did with ${threads} threads.`,
    });
  } else if (threads > 1 && v && !atLeast(v, [3, 3, 0])) {
    const summed = Math.ceil(threads / 2);
    warnings.push({
      code: 'kdiskmark-partial-jobs',
      message:
        `KDiskMark ${version} summed only ${summed} of the ${threads} fio jobs of this test (every other job was skipped; ` +
        `fixed in 3.3.0, KDiskMark issue #182): the figure is about half the disk's total, and the latency about half the mean.`,
    });
  }
  if (line.section === 'Mix' && line.params?.readPercent !== undefined) {
    const p = line.params.readPercent / 100;
    warnings.push({
      code: 'kdiskmark-mix-weighted',
      message:
        `KDiskMark's [Mix] figure is ${p} × the read side + ${(1 - p).toFixed(2)} × the write side, not their sum: it is ` +
        "not the mixed test's total throughput, so it does not compare with one.",
    });
  }
  return warnings;
}

function notes(version: string): string[] {
  const v = versionOf(version);
  const clat = v !== null && atLeast(v, [3, 2, 0]);
  return [
    `Latency is the mean of fio's ${clat ? 'clat_ns (completion latency)' : 'lat_ns (submission + completion)'} as KDiskMark ${version} reports it.`,
  ];
}

const flavour: DiskMarkFlavour = {
  format: 'kdiskmark',
  tool: 'KDiskMark',
  // benchmark.cpp runs fio with --loops and reads its bw: the bytes of every loop over their time.
  statistic: 'mean',
  header(lines, meta) {
    let version = 'unknown';
    for (const line of lines) {
      const k = /KDiskMark(?:\s*\(([^)]*)\))?\s*:\s*https?:\/\/\S+/.exec(line);
      if (k) {
        meta.header = line.trim();
        if (k[1]) version = k[1];
      }
      const f = /Flexible I\/O Tester\s*\(([^)]*)\)/.exec(line);
      if (f && f[1]) meta.fio = f[1];
    }
    return version;
  },
  rateUnit,
  lineWarnings,
  notes,
  target(meta) {
    // "/ 4% (31.72/748.08 GiB)" or "/home 61% (…) [Samsung SSD 970 EVO Plus 1TB]".
    const line = meta.Target ?? '';
    const model = /\s\[([^\]]+)\]\s*$/.exec(line);
    const volume = volumeTarget(model ? line.slice(0, model.index) : line, model?.[1]?.trim() ?? null);
    return volume ?? { path: line, kind: 'unknown' };
  },
};

export function looksLikeKDiskMark(text: string): boolean {
  return /KDiskMark.*https?:\/\/github\.com\/JonMagon\/KDiskMark/i.test(text.slice(0, 2000));
}

export function parseKDiskMarkText(text: string, fileName: string): RunRecord[] {
  const runs = parseDiskMarkText(text, fileName, flavour);
  for (const run of runs) {
    // Which layout this was, from the Test line (only 3.x has "Measure:"); 1.x printed no version.
    const layout = /Measure:/.test(run.sourceMeta.Test ?? '') ? '3.x' : run.engine.version === 'unknown' ? '1.x' : '2.x';
    run.sourceMeta.layout = `KDiskMark ${layout}`;
  }
  return runs;
}
