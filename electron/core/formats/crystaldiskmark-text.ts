// CrystalDiskMark 7/8 text report ("File → Save (Text)" or "Edit → Copy"). CrystalDiskMark
// itself saves UTF-16LE with a BOM; reposted copies are UTF-8 with CRLF line ends. Both reach
// this parser as text (decode.ts handles the encodings). Layout:
//   ------------------------------------------------------------------------------
//   CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo
//                                     Crystal Dew World: https://crystalmark.info/
//   ------------------------------------------------------------------------------
//   * MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
//   * KB = 1000 bytes, KiB = 1024 bytes
//   [Read] / [Write] / [Mix] Read 70%/Write 30%  with "  SEQ    1MiB (Q=  8, T= 1): …" lines
//   Profile: Default
//      Test: 1 GiB (x5) [C: 48% (113/237GiB)]
//      Mode: [Admin]
//      Time: Measure 5 sec / Interval 5 sec
//      Date: 2021/05/02 13:43:26
//        OS: Windows 10 Professional [10.0 Build 19042] (x64)
//   Comment: …            (only when the comment box was filled in)
import type { RunRecord } from '../model/results.ts';
import { parseDiskMarkText, type DiskMarkFlavour } from './disk-mark-text.ts';

const flavour: DiskMarkFlavour = {
  format: 'crystaldiskmark',
  tool: 'CrystalDiskMark',
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
};

export function looksLikeCrystalDiskMark(text: string): boolean {
  return /^\s*CrystalDiskMark\s+\S+/m.test(text.slice(0, 2000)) && /\[(Read|Write)\]/.test(text);
}

export function parseCrystalDiskMarkText(text: string, fileName: string): RunRecord[] {
  return parseDiskMarkText(text, fileName, flavour);
}
