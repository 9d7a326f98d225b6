// The text report shared, with small differences, by CrystalDiskMark 7/8 ("Save as text",
// "Copy") and KDiskMark, which copies its layout:
//
//   [Read]
//     SEQ    1MiB (Q=  8, T= 1):   560.472 MB/s [    534.5 IOPS] < 14933.18 us>     (CrystalDiskMark)
//   Sequential   1 MiB (Q=  8, T= 1):  3497.845 MB/s [   3335.9 IOPS] <  2389.89 us>  (KDiskMark)
//   [Write] …   [Mix] Read 70%/Write 30% …
//   Profile: Default
//      Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]
//      Date: 2023-05-12 14:34:43
//        OS: …
//   Comment: …                                                               (CrystalDiskMark)
//    Target: / 4% (31.72/748.08 GiB) [model]                                  (KDiskMark 3.x)
//
// Both headers say "MB/s = 1,000,000 bytes/s", but what the figure is depends on the tool and
// its version (the flavour's rateUnit, read from each tool's code); every rate is then checked
// against IOPS × block size. Latency is a mean in µs. A line of zeros is a test that was not
// run (the tools print 0.000), so it is skipped.
import type { AccessPattern, RunRecord, Statistic, TargetInfo, TestParams, TestResult, Warning } from '../../shared/model/results.ts';
import type { StackLayer } from '../../shared/model/machine.ts';
import {
  blockSizeLabel,
  emptyLatency,
  resultWithoutRuns,
  parseToolSize,
  scaleDecimal,
  splitLines,
  testIdFor,
  UniqueNames,
} from './common.ts';
import { ImportError } from './import-error.ts';
import { checkResultRate } from './rate-check.ts';
import { refuseImpossible } from './sanity.ts';

const RESULT_LINE =
  /^\s*(SEQ|RND|Sequential|Random)\s+(\d+)\s*(MiB|KiB)\s*\(\s*Q=\s*(\d+)\s*,\s*T=\s*(\d+)\s*\)\s*:\s*(\d+(?:\.\d+)?)\s*MB\/s\s*\[\s*(\d+(?:\.\d+)?)\s*IOPS\s*\]\s*<\s*(\d+(?:\.\d+)?)\s*us\s*>\s*$/;
const SECTION = /^\s*\[(Read|Write|Mix)\](?:\s*Read\s+(\d+)%\s*\/\s*Write\s+(\d+)%)?\s*$/;
const META_LINE = /^\s*([A-Za-z][A-Za-z ]*?)\s*:\s?(.*)$/;

/** One result line as printed: the rate still in the tool's "MB/s", thousandths as an integer. */
export interface ReportLine {
  name: string;
  params: TestParams | null;
  /** The printed "MB/s" × 1000 (exact: both tools print three decimals). */
  rateMilli: number;
  iops: number | null;
  meanNs: number | null;
  lineNo: number;
  section: 'Read' | 'Write' | 'Mix';
}

/** What one printed "MB/s" is in bytes/s, and why. */
export interface RateUnit {
  bytesPerMB: number;
  /** For the run's notes; null when the figure is what the header says (10^6 bytes/s). */
  note: string | null;
  /** Rounding the tool adds before printing, per thread, in bytes/s (KDiskMark: fio's whole KiB/s per job). */
  slackPerThread: number;
}

export interface DiskMarkFlavour {
  format: 'kdiskmark' | 'crystaldiskmark';
  tool: string;
  /**
   * How the tool combines its N runs into the printed figure (each tool's code decides):
   * CrystalDiskMark keeps the best, KDiskMark fio's mean over its loops.
   */
  statistic: Statistic;
  /** Reads the tool's version (and fio's, for KDiskMark) from the header lines. */
  header(lines: string[], meta: Record<string, string>): string;
  /** What the "MB/s" column is for this version (KDiskMark: fio's KiB/s ÷ 1000, or ÷ 1024 before 1.5.1). */
  rateUnit(version: string, lines: ReportLine[]): RateUnit;
  /** Warnings the tool's own code makes necessary for one result (e.g. KDiskMark's partial multi-job sums). */
  lineWarnings(version: string, line: ReportLine): Warning[];
  /** Notes about the whole report (e.g. which latency the tool printed). */
  notes(version: string): string[];
  /** The target, from the footer (KDiskMark's Target line, CrystalDiskMark's drive in the Test line). */
  target(meta: Record<string, string>): TargetInfo;
}

/** "2024/01/06 5:41:48" or "2023-05-12 14:34:43" → "2024-01-06T05:41:48" (local time, as written). */
export function isoLocal(date: string): string | null {
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})$/.exec(date.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${y}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}`;
}

/**
 * A volume as the tools describe it: "/ 4% (31.72/748.08 GiB)" (KDiskMark) or "E: 96% (894/932GiB)"
 * (CrystalDiskMark). The target is the mount point or drive, and the stack's mount layer keeps
 * the used share and capacity. Windows and both tools count these units in 1024s.
 */
export function volumeTarget(description: string, model: string | null): TargetInfo | null {
  const m = /^(.*?)\s+(\d+(?:\.\d+)?)%\s*\(\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*([KMGTP]i?B|B)\s*\)\s*$/.exec(description.trim());
  if (!m) return null;
  const [, path = '', percent = '', used = '', size = '', unit = ''] = m;
  const bytes = (n: string) => parseToolSize(`${n} ${unit}`);
  const layer: StackLayer = {
    kind: 'mount',
    name: path,
    details: {
      mountPoint: path,
      usedPercent: Number(percent),
      usedBytes: bytes(used),
      sizeBytes: bytes(size),
      describedAs: description.trim(),
    },
  };
  const target: TargetInfo = { path, kind: 'folder', stack: [layer] };
  if (model) {
    target.device = {
      name: model,
      model,
      serial: null,
      sizeBytes: null,
      rotational: null,
      class: 'unknown',
      transport: null,
      linkCeilingBytesPerSec: null,
      linkDescription: null,
      reasons: { serial: 'not in the report', sizeBytes: 'the report gives the volume, not the disk', transport: 'not in the report' },
    };
  }
  return target;
}

/** CrystalDiskMark's drive and its use, from the Test line: "1 GiB (x5) [E: 96% (894/932GiB)]". */
export function driveTarget(test: string): TargetInfo {
  const drive = /\[([A-Za-z]:[^\]]*)\]/.exec(test);
  return (drive && volumeTarget(drive[1] as string, null)) ?? { path: '', kind: 'unknown' };
}

/** The 1-based line of a "Key:" line of the report's footer, or null. */
export function lineOfMeta(lines: readonly string[], key: string): number | null {
  const at = lines.findIndex((l) => new RegExp(`^\\s*${key}\\s*:`).test(l));
  return at === -1 ? null : at + 1;
}

/** The results of report lines, in bytes/s as the unit says, each checked against IOPS × block size. */
export function buildResults(
  tool: string,
  lines: ReportLine[],
  unit: RateUnit,
  statistic: Statistic,
  warningsOf: (line: ReportLine) => Warning[],
  fileName: string,
): TestResult[] {
  return lines.map((line) => {
    const bytesPerSec = (line.rateMilli * unit.bytesPerMB) / 1000;
    refuseImpossible(fileName, line.lineNo, `${tool} test ${line.name}`, [
      ['rate', bytesPerSec, 'the rate'],
      ['iops', line.iops, 'the IOPS'],
      ['latency', line.meanNs, 'the mean latency'],
    ]);
    const result = resultWithoutRuns({
      test: line.name,
      params: line.params,
      bytesPerSec,
      iops: line.iops,
      latencyNs: line.meanNs === null ? null : { ...emptyLatency(), mean: line.meanNs },
      statistic,
      warnings: warningsOf(line),
    });
    checkResultRate(tool, result, {
      rateStep: unit.bytesPerMB / 1000,
      iopsStep: 0.1,
      slackBytesPerSec: unit.slackPerThread * (line.params?.threads ?? 1),
    });
    return result;
  });
}

export function parseDiskMarkText(text: string, fileName: string, flavour: DiskMarkFlavour): RunRecord[] {
  const lines = splitLines(text, fileName);
  const meta: Record<string, string> = {};
  const rows: ReportLine[] = [];
  const names = new UniqueNames();
  const notRun: string[] = [];
  let section: { kind: 'Read' | 'Write' | 'Mix'; readPercent: number } | null = null;
  let sawSection = false;
  let inFooter = false;
  const firstSection = lines.findIndex((l) => SECTION.test(l));
  if (firstSection === -1) throw new ImportError(fileName, null, `no [Read] or [Write] section: not a complete ${flavour.tool} report`);
  const version = flavour.header(lines.slice(0, firstSection), meta);

  for (let i = firstSection; i < lines.length; i++) {
    const line = lines[i] as string;
    const fail = (problem: string): never => {
      throw new ImportError(fileName, i + 1, problem);
    };
    if (line.trim() === '') continue;
    const s = SECTION.exec(line);
    if (s && !inFooter) {
      const kind = s[1] as 'Read' | 'Write' | 'Mix';
      const readPercent = kind === 'Mix' ? Number(s[2] ?? '') : kind === 'Read' ? 100 : 0;
      if (kind === 'Mix' && !(readPercent >= 0 && readPercent <= 100 && readPercent + Number(s[3]) === 100)) {
        fail('the [Mix] line must say "Read N%/Write M%" with N + M = 100');
      }
      section = { kind, readPercent };
      sawSection = true;
      continue;
    }
    const r = RESULT_LINE.exec(line);
    if (r && section && !inFooter) {
      const random = r[1] === 'RND' || r[1] === 'Random';
      const blockSize = Number(r[2]) * (r[3] === 'MiB' ? 1024 * 1024 : 1024);
      const queueDepth = Number(r[4]);
      const threads = Number(r[5]);
      const rateMilli = scaleDecimal(r[6] as string, 3);
      const iops = scaleDecimal(r[7] as string, 0);
      const latencyNs = scaleDecimal(r[8] as string, 3);
      if (rateMilli === null || iops === null || latencyNs === null || blockSize <= 0 || queueDepth <= 0 || threads <= 0) {
        fail('a result line has a number out of range');
      }
      const shape = `${random ? 'rnd' : 'seq'}${blockSizeLabel(blockSize)}-q${queueDepth}t${threads}`;
      if (rateMilli === 0 && iops === 0) {
        notRun.push(`${section.kind} ${shape}`);
        continue;
      }
      let rw: AccessPattern | null;
      if (section.kind === 'Mix') rw = random ? 'randrw' : null;
      else if (section.kind === 'Read') rw = random ? 'randread' : 'read';
      else rw = random ? 'randwrite' : 'write';
      let params: TestParams | null = null;
      let name: string;
      if (rw) {
        params = { rw, blockSize, queueDepth, threads };
        if (rw === 'randrw') params.readPercent = section.readPercent;
        name = testIdFor(params);
      } else {
        // Sequential mixed: no DiskDelta access pattern for it, so a descriptive name only.
        name = `mix${section.readPercent}-${shape}`;
      }
      rows.push({
        name: names.take(name, `line ${i + 1}`),
        params,
        rateMilli: rateMilli as number,
        iops,
        meanNs: Math.round(latencyNs as number),
        lineNo: i + 1,
        section: section.kind,
      });
      continue;
    }
    const m = META_LINE.exec(line);
    if (m && sawSection) {
      inFooter = true;
      const key = (m[1] as string).trim();
      const value = (m[2] as string).trim();
      meta[key] = key in meta ? `${meta[key]}\n${value}` : value;
      continue;
    }
    fail(
      section && !inFooter
        ? `not a ${flavour.tool} result line (expected e.g. "SEQ 1MiB (Q= 8, T= 1): 560.472 MB/s [ 534.5 IOPS] < 14933.18 us>")`
        : `unexpected line in the ${flavour.tool} report`,
    );
  }
  // The report ends with its settings; without them the file was cut short.
  for (const key of ['Test', 'Date']) {
    if (!(key in meta)) throw new ImportError(fileName, lines.length, `no "${key}:" line: the ${flavour.tool} report looks truncated`);
  }
  if (rows.length === 0) throw new ImportError(fileName, null, 'every test in the report is 0 (not run)');
  if (notRun.length > 0) meta.notRun = notRun.join(', ');

  const unit = flavour.rateUnit(version, rows);
  const results = buildResults(flavour.tool, rows, unit, flavour.statistic, (row) => flavour.lineWarnings(version, row), fileName);
  const settings: RunRecord['settings'] = {};
  const test = /^(\d+)\s*(MiB|GiB)\s*\(x(\d+)\)/.exec(meta.Test ?? '');
  if (test) {
    settings.sizeBytes = Number(test[1]) * (test[2] === 'GiB' ? 1024 ** 3 : 1024 ** 2);
    refuseImpossible(fileName, lineOfMeta(lines, 'Test'), `"Test: ${meta.Test ?? ''}"`, [['size', settings.sizeBytes, 'the test size']]);
    settings.runs = Number(test[3]);
  }
  const measure = /Measure:?\s*(\d+)\s*(sec|min)/.exec(`${meta.Test ?? ''} ${meta.Time ?? ''}`);
  if (measure) settings.durationSec = Number(measure[1]) * (measure[2] === 'min' ? 60 : 1);
  if (meta.Profile) settings.preset = meta.Profile;
  const createdAt = isoLocal(meta.Date ?? '');
  if (!createdAt) {
    const at = lines.findIndex((l) => /^\s*Date\s*:/.test(l));
    throw new ImportError(fileName, at + 1, `"Date:" is not a date like 2024/01/06 5:41:48`);
  }
  const target = flavour.target(meta);
  const label = [flavour.tool, meta.Comment, target.path, target.device?.model].filter(Boolean).join(' – ');
  const notes = [meta.Comment ?? '', unit.note ?? '', ...flavour.notes(version)].filter(Boolean).join('\n');
  if (unit.note) meta.rateUnit = unit.note;
  return [
    {
      label,
      notes,
      createdAt,
      source: 'imported',
      sourceFormat: flavour.format,
      sourceMeta: meta,
      target,
      settings,
      engine: { name: flavour.tool, version },
      results,
      extras: [],
      warnings: [],
    },
  ];
}
