// KDiskMark's text report ("Save" / "Copy"), written by MainWindow::getTextBenchmarkResult in
// github.com/JonMagon/KDiskMark. Two layouts are read:
//  - 2.x: "Sequential 1 MiB (Q= 8, T= 1): …", "Test: 1 GiB (x5) [Interval: 5 sec]";
//  - current (3.x): block size padded to 3 and Q to 3 ("Sequential   1 MiB (Q=  8, T= 1)"),
//    "Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]", profiles incl. "Demo".
// 1.x reports ("KDiskMark: https://…" without a version, "Date: 2020/08/05 …") read the same way.
// Both start with "KDiskMark (VERSION): https://github.com/JonMagon/KDiskMark" and, since 2.0, "Flexible I/O Tester (fio-X): https://github.com/axboe/fio".
import type { RunRecord } from '../model/results.ts';
import { parseDiskMarkText, type DiskMarkFlavour } from './disk-mark-text.ts';

const flavour: DiskMarkFlavour = {
  format: 'kdiskmark',
  tool: 'KDiskMark',
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
};

export function looksLikeKDiskMark(text: string): boolean {
  return /KDiskMark.*https?:\/\/github\.com\/JonMagon\/KDiskMark/i.test(text.slice(0, 2000));
}

export function parseKDiskMarkText(text: string, fileName: string): RunRecord[] {
  const runs = parseDiskMarkText(text, fileName, flavour);
  for (const run of runs) {
    // Which of the two layouts this was, from the Test line (only 3.x has "Measure:").
    // 1.x printed no version in its first line.
    const layout = /Measure:/.test(run.sourceMeta.Test ?? '') ? '3.x' : run.engine.version === 'unknown' ? '1.x' : '2.x';
    run.sourceMeta.layout = `KDiskMark ${layout}`;
  }
  return runs;
}
