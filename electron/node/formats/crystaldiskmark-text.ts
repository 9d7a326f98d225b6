// CrystalDiskMark text reports ("File → Save (Text)" or "Edit → Copy"). CrystalDiskMark itself
// saves UTF-16LE with a BOM; reposted copies are UTF-8, often with CRLF. Both reach this
// parser as text (decode.ts handles the encodings). The version in the header decides the
// layout: 7 and 8 share the [Read]/[Write] layout with KDiskMark (disk-mark-text.ts); 3 to 6
// print one line per test (crystaldiskmark-legacy.ts). 7/8 look like:
//   ------------------------------------------------------------------------------
//   CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo
//                                     Crystal Dew World: https://crystalmark.info/
//   ------------------------------------------------------------------------------
//   * MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
//   [Read] / [Write] / [Mix] Read 70%/Write 30%  with "  SEQ    1MiB (Q=  8, T= 1): …" lines
//   Profile: Default
//      Test: 1 GiB (x5) [C: 48% (113/237GiB)]
//      Mode: [Admin]
//      Time: Measure 5 sec / Interval 5 sec
//      Date: 2021/05/02 13:43:26
//        OS: Windows 10 Professional [10.0 Build 19042] (x64)
//   Comment: …            (only when the comment box was filled in)
// MB/s is 10^6 bytes/s as the header says: the IOPS column is MB/s × 10^6 ÷ block size in
// CrystalDiskMark's own code (DiskMarkDlg.cpp), which the rate check confirms on real files.
import type { RunRecord } from '../../shared/model/results.ts';
import { driveTarget, parseDiskMarkText, type DiskMarkFlavour } from './disk-mark-text.ts';
import { ImportError } from './import-error.ts';
import { parseCrystalDiskMarkLegacy } from './crystaldiskmark-legacy.ts';

const HEADER = /^\s*CrystalDiskMark\s+((\d+)(?:\.\d+)*[a-z]?)\b[^\n]*$/m;

const flavour: DiskMarkFlavour = {
  format: 'crystaldiskmark',
  tool: 'CrystalDiskMark',
  // It runs each test N times (the "(x5)" of the Test line) and keeps the highest score.
  statistic: 'best',
  header(lines, meta) {
    for (const line of lines) {
      const m = /^\s*CrystalDiskMark\s+(.+?)\s+\(C\)/.exec(line);
      if (m && m[1]) {
        meta.header = line.trim();
        return m[1];
      }
    }
    return 'unknown';
  },
  rateUnit: () => ({ bytesPerMB: 1e6, note: null, slackPerThread: 0 }),
  lineWarnings: () => [],
  notes: () => [],
  target: (meta) => driveTarget(meta.Test ?? ''),
};

export function looksLikeCrystalDiskMark(text: string): boolean {
  return HEADER.test(text.slice(0, 2000));
}

export function parseCrystalDiskMarkText(text: string, fileName: string): RunRecord[] {
  const header = HEADER.exec(text.slice(0, 2000));
  const major = Number(header?.[2] ?? 0);
  if (major >= 7) return parseDiskMarkText(text, fileName, flavour);
  if (major >= 3) return parseCrystalDiskMarkLegacy(text, fileName, header?.[1] ?? 'unknown');
  throw new ImportError(
    fileName,
    null,
    `CrystalDiskMark ${header?.[1] ?? ''} report recognised, but its layout is not supported: DiskDelta reads the text ` +
      'reports of CrystalDiskMark 3 to 8 (save a report from one of those, or enter the figures by hand)',
  );
}
