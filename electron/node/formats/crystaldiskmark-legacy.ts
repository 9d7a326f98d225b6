// CrystalDiskMark 3 to 6 text reports: one line per test, no [Read]/[Write] sections.
//   6.x: "   Sequential Read (Q= 32,T= 1) :   471.231 MB/s"
//        "  Random Read 4KiB (Q=  8,T= 8) :   393.900 MB/s [  96167.0 IOPS]"
//   5.x: the same, plus "         Sequential Read (T= 1) :   156.034 MB/s"
//   3/4: "           Sequential Read :    46.012 MB/s", "         Random Read 512KB :    26.367 MB/s",
//        "    Random Read 4KB (QD=1) :     0.487 MB/s [   118.8 IOPS]", "   … 4KB (QD=32) : …"
//   footer: "  Test : 1024 MiB [C: 26.4% (122.8/465.2 GiB)] (x5)  [Interval=5 sec]",
//           "  Date : 2018/12/15 0:48:36", "    OS : …", then the comment as a bare line.
// Block sizes, from CrystalDiskMark's DiskBench.cpp (5.1.2 and 6.0.0 sources): the queued
// sequential test ("Sequential (Q=…,T=…)") is diskspd -b128K, the unqueued one ("(T= 1)", 5.x)
// -b1M, random tests -b4K. CrystalDiskMark 3/4's sequential test is 1 MiB per its manual (no
// source of those versions is published), and "Random 512KB" is 512 KiB at queue depth 1.
// MB/s is 10^6 bytes/s; the IOPS column is that × 10^6 ÷ 4096, which the rate check confirms.
import type { AccessPattern, RunRecord, TestParams } from '../../shared/model/results.ts';
import { scaleDecimal, splitLines, testIdFor, UniqueNames } from './common.ts';
import { buildResults, driveTarget, isoLocal, lineOfMeta, type ReportLine } from './disk-mark-text.ts';
import { refuseImpossible } from './sanity.ts';
import { ImportError } from './import-error.ts';

const LINE =
  /^\s*(Sequential|Random)\s+(Read|Write)(?:\s+(\d+)\s*(KiB|KB))?\s*(?:\(\s*(?:Q=\s*(\d+)\s*,\s*)?T=\s*(\d+)\s*\)|\(\s*QD=\s*(\d+)\s*\))?\s*:\s*(\d+(?:\.\d+)?)\s*MB\/s(?:\s*\[\s*(\d+(?:\.\d+)?)\s*IOPS\s*\])?\s*$/;
const FOOTER = /^\s*(Test|Date|OS)\s*:\s?(.*)$/;

export function parseCrystalDiskMarkLegacy(text: string, fileName: string, version: string): RunRecord[] {
  const lines = splitLines(text, fileName);
  const meta: Record<string, string> = { layout: `CrystalDiskMark ${version} (one line per test)` };
  const rows: ReportLine[] = [];
  const names = new UniqueNames();
  const comment: string[] = [];
  let header = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fail = (problem: string): never => {
      throw new ImportError(fileName, i + 1, problem);
    };
    if (line.trim() === '') continue;
    const m = LINE.exec(line);
    if (m && !('Date' in meta)) {
      header = false;
      const random = m[1] === 'Random';
      const write = m[2] === 'Write';
      const queued = m[5] !== undefined;
      const blockSize = random ? Number(m[3] ?? 4) * 1024 : queued ? 128 * 1024 : 1024 * 1024;
      const queueDepth = Number(m[5] ?? m[7] ?? 1);
      const threads = Number(m[6] ?? 1);
      const rateMilli = scaleDecimal(m[8] as string, 3);
      const iops = m[9] === undefined ? null : scaleDecimal(m[9], 0);
      if (rateMilli === null || blockSize <= 0 || queueDepth <= 0 || threads <= 0) fail('a result line has a number out of range');
      if (rateMilli === 0) continue; // a test that was not run
      const rw: AccessPattern = random ? (write ? 'randwrite' : 'randread') : write ? 'write' : 'read';
      const params: TestParams = { rw, blockSize, queueDepth, threads };
      rows.push({
        name: names.take(testIdFor(params), `line ${i + 1}`),
        params,
        rateMilli: rateMilli as number,
        iops,
        meanNs: null,
        lineNo: i + 1,
        section: write ? 'Write' : 'Read',
      });
      continue;
    }
    if (header) {
      if (/CrystalDiskMark/.test(line)) meta.header = line.trim();
      continue; // the banner, the unit lines and rules before the first result
    }
    const f = FOOTER.exec(line);
    if (f && !('OS' in meta)) {
      meta[f[1] as string] = (f[2] as string).trim();
      continue;
    }
    if ('OS' in meta) {
      comment.push(line.trim()); // CrystalDiskMark 3–6 print the comment as a bare line after OS
      continue;
    }
    fail(`not a CrystalDiskMark ${version} result line (expected e.g. "Sequential Read (Q= 32,T= 1) :   471.231 MB/s")`);
  }
  for (const key of ['Test', 'Date']) {
    if (!(key in meta))
      throw new ImportError(fileName, lines.length, `no "${key} :" line: the CrystalDiskMark ${version} report looks truncated`);
  }
  if (rows.length === 0) throw new ImportError(fileName, null, `no result lines in the CrystalDiskMark ${version} report`);
  const createdAt = isoLocal(meta.Date ?? '');
  if (!createdAt) {
    const at = lines.findIndex((l) => /^\s*Date\s*:/.test(l));
    throw new ImportError(fileName, at + 1, `"Date :" is not a date like 2018/12/15 0:48:36`);
  }
  if (comment.length > 0) meta.Comment = comment.join('\n');
  const settings: RunRecord['settings'] = {};
  // "1024 MiB […] (x5)" (5/6) or "1000 MB […] (x5)" (3/4): CrystalDiskMark's MB here is MiB.
  const size = /^(\d+)\s*(MiB|MB|GiB|GB)\b/.exec(meta.Test ?? '');
  if (size) {
    settings.sizeBytes = Number(size[1]) * (/^G/.test(size[2] as string) ? 1024 ** 3 : 1024 ** 2);
    refuseImpossible(fileName, lineOfMeta(lines, 'Test'), `"Test : ${meta.Test ?? ''}"`, [['size', settings.sizeBytes, 'the test size']]);
  }
  const runs = /\(x(\d+)\)/.exec(meta.Test ?? '');
  if (runs) settings.runs = Number(runs[1]);
  const target = driveTarget(meta.Test ?? '');
  return [
    {
      label: ['CrystalDiskMark', meta.Comment, target.path].filter(Boolean).join(' – '),
      notes: meta.Comment ?? '',
      createdAt,
      source: 'imported',
      sourceFormat: 'crystaldiskmark',
      sourceMeta: meta,
      target,
      settings,
      engine: { name: 'CrystalDiskMark', version },
      results: buildResults('CrystalDiskMark', rows, { bytesPerMB: 1e6, note: null, slackPerThread: 0 }, 'best', () => [], fileName),
      extras: [],
      warnings: [],
    },
  ];
}
