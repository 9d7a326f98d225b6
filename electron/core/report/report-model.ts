// What a report contains, decided once for every front end: the app's report route, the
// CLI, browser mode and the Electron printer all render this document and differ only in
// how it is printed. Pure (no Node, no DOM): the renderer builds it too.
import { compareRuns, testTitle, type Comparison } from '../analysis/compare.ts';
import { summarize, type SummaryAnalysis, type SummarySection } from '../analysis/summary.ts';
import { encryptionStory, type EncryptionStory } from '../analysis/encryption-story.ts';
export type { EncryptionStory, StoryColumn } from '../analysis/encryption-story.ts';
export { isEncryptedRun } from '../analysis/encryption-story.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';
import { formatBytes, formatPercent, type ThroughputUnit } from '../analysis/units.ts';
import type { RunRecord, RunSource, TestParams, Warning } from '../model/results.ts';
import { layerLine } from './stack-text.ts';
import { MAX_REPORT_RUNS, type Paper } from './paper.ts';
import { counted } from '../model/display.ts';
import type { ChartModel } from './charts/chart-model.ts';
import { CHARTS } from './charts/charts.ts';
import { summaryOfResult, WORKING_SET_TEST, type WorkingSetSummary } from '../analysis/working-set.ts';

export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

export interface ReportMachine {
  cpu: string;
  /** "yes (aes, vaes)", "no: dm-crypt runs in software", or "unknown". */
  aes: string;
  memory: string;
  kernel: string;
}

export interface ReportMethod {
  engine: string;
  /** "O_DIRECT (bypasses the page cache)", "buffered (through the page cache)", or the import's origin. */
  io: string;
  sizes: string;
  timing: string;
  tests: Array<{ id: string; title: string; params: string }>;
  measuredAt: string;
}

export interface ReportRun {
  tag: string; // "#1"
  label: string;
  source: RunSource;
  /** "measured", "imported from a bonnie++ file", "reference: published figures". */
  sourceText: string;
  createdAt: string;
  disk: string;
  /** From the file down to the disk, one line per layer, as `diskdelta inspect` lists them. */
  stack: string[];
  machine: ReportMachine | null;
  /** What the source file says about the machine when the run carries no facts (imports). */
  machineNote: string | null;
  method: ReportMethod;
  notes: string;
}

export interface ReportWarning extends Warning {
  /** The runs that carry this same warning (bonnie++'s "nearest test" note is on every import). */
  runIndexes: number[];
  test: string | null;
}

export interface ReportDocument {
  title: string;
  generatedAt: string;
  paper: Paper;
  comparison: Comparison;
  runs: ReportRun[];
  summary: SummarySection[];
  /** HDD / SSD / SSD + dm-crypt, measured or forecast on this CPU; null when no run is encrypted and no ceilings are known. */
  encryption: EncryptionStory | null;
  /** The chart registry's charts that print (charts/charts.ts), drawn by report-chart.ts. */
  charts: ChartModel[];
  /** Per comparison row, per run: the spread of that figure ("CV 2.1 %"), or null. */
  spreads: Array<Array<string | null>>;
  warnings: ReportWarning[];
  /** The working-set runs' windows and largest folders (their verdicts are in the summary). */
  workingSets: Array<{ runIndex: number; summary: WorkingSetSummary }>;
  appVersion: string;
}

export interface ReportOptions {
  generatedAt: Date;
  paper?: Paper;
  unit?: ThroughputUnit;
  title?: string;
  appVersion?: string;
  analyses?: SummaryAnalysis[];
  /** This CPU's stored cipher ceilings (the library's newest): the encryption forecasts. */
  ceilings?: CipherCeilings | null;
}

export function buildReport(records: RunRecord[], options: ReportOptions): ReportDocument {
  if (records.length === 0) throw new ReportInputError('a report needs at least one run');
  if (records.length > MAX_REPORT_RUNS) {
    throw new ReportInputError(
      `a report lays out at most ${MAX_REPORT_RUNS} runs side by side; ${records.length} were given: pick the ones to compare`,
    );
  }
  const unit = options.unit ?? 'MB';
  const comparison = compareRuns(records, { unit });
  const encryption = encryptionStory(records, options.ceilings ?? null);
  return {
    title: options.title ?? defaultTitle(records),
    generatedAt: options.generatedAt.toISOString(),
    paper: options.paper ?? 'a4',
    comparison,
    runs: records.map((record, i) => describeRun(record, i)),
    summary: summarize({ records, comparison, encryption }, options.analyses),
    encryption,
    charts: CHARTS.build({ records, comparison, unit }, 'report'),
    spreads: comparison.rows.map((row) => records.map((record) => spreadText(record, row.test, row.kind))),
    warnings: collectWarnings(records),
    workingSets: records.flatMap((record, runIndex) => {
      const result = record.results.find((r) => r.test === WORKING_SET_TEST);
      const summary = result ? summaryOfResult(result) : null;
      return summary ? [{ runIndex, summary }] : [];
    }),
    appVersion: options.appVersion ?? '',
  };
}

function defaultTitle(records: RunRecord[]): string {
  return records.length === 1 ? 'Disk assessment' : 'Disk upgrade assessment';
}

/** Every warning of every run, run-level first; one entry for a warning several runs share. */
export function collectWarnings(records: RunRecord[]): ReportWarning[] {
  const all = records.flatMap((record, runIndex) => [
    ...record.warnings.map((w) => ({ ...w, runIndex, test: null as string | null })),
    ...record.results.flatMap((t) => t.warnings.map((w) => ({ ...w, runIndex, test: t.test }))),
  ]);
  const grouped: ReportWarning[] = [];
  for (const { runIndex, ...w } of all) {
    const same = grouped.find((g) => g.code === w.code && g.message === w.message && g.test === w.test);
    if (same) {
      if (!same.runIndexes.includes(runIndex)) same.runIndexes.push(runIndex);
    } else {
      grouped.push({ ...w, runIndexes: [runIndex] });
    }
  }
  return grouped;
}

function sourceText(record: RunRecord): string {
  if (record.source === 'reference') return 'reference: published figures shipped with DiskDelta, not measured on this machine';
  if (record.source === 'imported') return `imported from a ${record.sourceFormat} results file`;
  return 'measured by DiskDelta';
}

function describeRun(record: RunRecord, i: number): ReportRun {
  const device = record.target.device;
  const disk = device
    ? [
        device.model ?? device.name,
        device.class,
        device.sizeBytes ? formatBytes(device.sizeBytes) : null,
        device.linkDescription ? `link ${device.linkDescription}` : null,
      ]
        .filter(Boolean)
        .join(', ')
    : 'unknown (the run carries no device facts)';
  return {
    tag: `#${i + 1}`,
    label: record.label,
    source: record.source,
    sourceText: sourceText(record),
    createdAt: record.createdAt,
    disk,
    stack: (record.target.stack ?? []).map((layer) => layerLine(layer).replace(/ {2,}/g, '  ')),
    machine: record.system ? machineOf(record) : null,
    machineNote: record.sourceMeta.machine ?? null,
    method: methodOf(record),
    notes: record.notes,
  };
}

function machineOf(record: RunRecord): ReportMachine {
  const s = record.system!;
  const aesFlags = s.cryptoFlags.filter((f) => /aes|sha|pmull/.test(f));
  const cores = [s.cores ? `${s.cores} cores` : null, s.threads ? `${s.threads} threads` : null].filter(Boolean).join(' / ');
  return {
    cpu: [s.cpuModel ?? 'unknown CPU', cores, s.arch ?? null].filter(Boolean).join(', '),
    aes:
      aesFlags.length > 0
        ? `yes (${aesFlags.join(', ')})`
        : s.cryptoFlags.length === 0 && s.cpuModel === null
          ? 'unknown'
          : 'no: dm-crypt would run its cipher in software',
    memory: s.memoryBytes === null ? 'unknown' : formatBytes(s.memoryBytes),
    kernel: s.kernel ?? 'unknown',
  };
}

function paramsText(p: TestParams | null): string {
  if (!p) return 'as the source tool ran it';
  const parts = [p.rw, `${formatBytes(p.blockSize)} blocks`, `queue depth ${p.queueDepth}`, `${counted(p.threads, 'thread')}`];
  if (p.readPercent !== undefined) parts.push(`${p.readPercent} % reads`);
  if (p.spanMiB !== undefined) parts.push(`over the first ${formatBytes(p.spanMiB * 2 ** 20)} of the target`);
  return parts.join(', ');
}

function methodOf(record: RunRecord): ReportMethod {
  const s = record.settings;
  const version = record.engine.version && record.engine.version !== 'unknown' ? record.engine.version : '(version unknown)';
  const engine = [record.engine.name, version, record.engine.ioEngine ? `(${record.engine.ioEngine} I/O engine)` : null]
    .filter(Boolean)
    .join(' ');
  const io =
    record.source !== 'measured'
      ? `as ${record.sourceFormat} did it (${record.sourceFormat === 'bonnie++' ? 'through the page cache' : 'see the source file'})`
      : s.buffered
        ? 'buffered (through the page cache): figures may include the cache'
        : 'O_DIRECT (bypasses the page cache)';
  const sizes = s.sizeBytes
    ? `test file ${formatBytes(s.sizeBytes)}`
    : record.source === 'measured'
      ? 'test file size not recorded'
      : 'file size as in the source';
  const timing =
    record.source === 'measured'
      ? [
          s.preset ? `preset ${s.preset}` : null,
          s.warmupSec !== undefined ? `${s.warmupSec} s warm-up` : null,
          s.runs !== undefined && s.durationSec !== undefined ? `then ${s.runs} × ${s.durationSec} s timed runs, median shown` : null,
        ]
          .filter(Boolean)
          .join(', ')
      : 'one figure per test, as published or imported';
  return {
    engine,
    io,
    sizes,
    timing: timing || 'not recorded',
    tests: record.results.map((r) => ({ id: r.test, title: testTitle(r.test), params: paramsText(r.params) })),
    measuredAt: record.createdAt,
  };
}

function spreadText(record: RunRecord, test: string, kind: string): string | null {
  if (kind !== 'throughput' && kind !== 'iops') return null;
  const result = record.results.find((r) => r.test === test);
  if (!result) return null;
  if (result.underResolved) return 'under-resolved';
  if (result.cv === null) return null;
  const n = result.runs.length;
  return `CV ${formatPercent(result.cv * 100).replace(/^\+/, '')}${n > 1 ? ` over ${n} runs` : ''}`;
}
