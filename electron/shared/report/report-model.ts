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
import type { RunRecord, RunSource, TestParams, TestResult } from '../model/results.ts';
import { layerLine, otherThrottleText, throttleText } from './stack-text.ts';
import { measuredDeviceText } from '../model/run-text.ts';
import { MAX_REPORT_RUNS, type Paper } from './paper.ts';
import { counted } from '../model/display.ts';
import type { ChartModel } from '../charts/chart-model.ts';
import { partFigures, type ReportFigures } from './report-sections.ts';
import { groupWarnings, warningCountText, type WarningGroup } from '../model/warning-scope.ts';
import { summaryOfResult, WORKING_SET_TEST, type WorkingSetSummary } from '../analysis/working-set.ts';
import { assessmentVerdicts } from '../analysis/verdicts.ts';
import { firstPage, type FirstPage } from './first-page.ts';
import {
  ASSESSMENT_FIELDS,
  candidatesEmptiedLines,
  candidatesUnreadableLines,
  type Assessment,
  type AssessmentField,
} from '../model/assessment.ts';
import { temperatureText } from '../model/temperature-text.ts';
import { fillText } from '../analysis/fill-level.ts';
import { driveWrittenText } from '../analysis/drive-health.ts';
import { isSteadyResult, steadyWindowRounds } from '../analysis/steady-state.ts';
import { provenanceText } from '../model/provenance.ts';
import { maxOf, minOf } from '../model/extremes.ts';
import type { Forecast } from '../analysis/candidate-forecast.ts';
import { candidatesTable, type CandidatesTable } from './candidates-model.ts';
import type { JudgedCandidate } from '../analysis/candidate-judged.ts';
import { judgedTable, type JudgedTable } from './judged-model.ts';

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
  /** Per test: its parameters and, for a measured one, how it really ran ("5 runs, 5.9 s"). */
  tests: Array<{ id: string; title: string; params: string; ran: string | null }>;
  measuredAt: string;
}

export interface ReportRun {
  tag: string; // "#1"
  /** Its part in the assessment ("Before", "After", "Under dm-crypt", "TRIM: with discard", "Size"); null outside one. */
  role: string | null;
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
  /** The drive's temperature before, at most and after (or why it was not read); null: the run has none (imports). */
  temperature: string | null;
  /** How full the target's file system was when the run began (or why not read); null: the run has none (imports). */
  fill: string | null;
  /** What the drive counted as written during the run beside the host's count (or why not); null: none kept. */
  driveWrote: string | null;
}

/** A warning as the report says it: once for every run and test that share it (model/warning-scope.ts). */
export type ReportWarning = WarningGroup;

export interface ReportDocument {
  title: string;
  generatedAt: string;
  paper: Paper;
  comparison: Comparison;
  runs: ReportRun[];
  summary: SummarySection[];
  /** An assessment's page 1 (first-page.ts): its verdicts, decided in analysis/verdicts.ts; null for a plain report. */
  firstPage: FirstPage | null;
  /** HDD / SSD / SSD + dm-crypt, measured or forecast on this CPU; null when no run is encrypted and no ceilings are known. */
  encryption: EncryptionStory | null;
  /**
   * The disks, workloads and sustained writes (report-sections.ts): their own comparison (the
   * "Every figure" table, cell i is run figures.runIndexes[i]) and the registry's charts that
   * print, drawn by charts/chart-svg.ts (the app's drawing) in report-chart.ts.
   */
  figures: ReportFigures;
  /** figures.charts: the charts of the figures section. */
  charts: ChartModel[];
  /** The TRIM section's: the discard-cost experiments' table, those runs only. */
  trimCharts: ChartModel[];
  /** The size section's: the file-access recordings' cache curves, those runs only. */
  sizeCharts: ChartModel[];
  /** Per figures.comparison row, per figures run: the spread of that figure ("CV 2.1 %"), or null. */
  spreads: Array<Array<string | null>>;
  warnings: ReportWarning[];
  /** The one line page 1 shows for them ("3 warnings on 2 runs"), the details in the warnings section; null: none. */
  warningCount: string | null;
  /** The working-set runs' windows and largest folders (their verdicts are in the summary). */
  workingSets: Array<{ runIndex: number; summary: WorkingSetSummary }>;
  /** Candidate drives forecast beside the disk in use today (issue #42): the app's Candidates table; null: none given. */
  candidates: CandidatesTable | null;
  /** Once the new disk is measured, each candidate's forecast beside it (the app's assessment card's table); null: not yet. */
  candidatesJudged: JudgedTable | null;
  /** An assessment's candidates left out of the forecast, each with why and what replaces it (a run deleted, a spec no longer read). */
  candidatesLeftOut: string[];
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
  /** An assessment: its verdicts make page 1. Its runs are `records` in report order (a published partner after them). */
  assessment?: Assessment;
  /** This machine's write volume, this month beside last (analysis/write-volume.ts monthsVerdict), one line a disk. */
  writeVolume?: string[];
  /** The candidates' forecast (node/api/forecast-service.ts, the one the CLI and the app show). */
  forecast?: Forecast | null;
  /** Each candidate's forecast beside the measured new disk (analysis/candidate-judged.ts), with `forecast`. */
  judged?: JudgedCandidate[] | null;
}

/** The summary sections whose verdicts an assessment's page 1 gives (first-page.ts). */
const PAGE_ONE_DECIDES: ReadonlySet<string> = new Set(['upgrade', 'encryption', 'trim', 'working-set']);

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
  const figures = partFigures(records, 'figures', unit);
  const warnings = collectWarnings(records);
  const roles = options.assessment ? assessmentRoles(options.assessment, records.length) : null;
  return {
    title: options.title ?? (options.assessment ? `Upgrade assessment: ${options.assessment.label}` : defaultTitle(records)),
    generatedAt: options.generatedAt.toISOString(),
    paper: options.paper ?? 'a4',
    comparison,
    runs: records.map((record, i) => ({ ...describeRun(record, i), role: roles?.[i] ?? null })),
    firstPage: options.assessment
      ? firstPage(
          options.assessment.label,
          assessmentVerdicts(options.assessment, records, options.ceilings ?? null),
          // The report's one numbering: a run's tag is its place among the report's runs.
          (id) => {
            const i = id == null ? -1 : records.findIndex((r) => r.id === id);
            return i < 0 ? null : `#${i + 1}`;
          },
        )
      : null,
    summary: [
      // An assessment's page 1 already decides the speed-up, encryption, TRIM and size: the
      // summary keeps only what page 1 does not say (one judgement, said once: #39 item 3).
      ...summarize({ records, comparison, encryption }, options.analyses).filter(
        (section) => !options.assessment || !PAGE_ONE_DECIDES.has(section.id),
      ),
      ...(options.writeVolume?.length ? [{ id: 'write-volume', title: 'Write volume', paragraphs: options.writeVolume }] : []),
    ],
    encryption,
    figures,
    charts: figures.charts,
    trimCharts: partFigures(records, 'trim', unit, ['discard-table']).charts,
    sizeCharts: partFigures(records, 'size', unit, ['cache-curve']).charts,
    spreads: (figures.comparison?.rows ?? []).map((row) => figures.runIndexes.map((i) => spreadText(records[i]!, row.test, row.kind))),
    warnings,
    warningCount: warningCountText(warnings),
    workingSets: records.flatMap((record, runIndex) => {
      const result = record.results.find((r) => r.test === WORKING_SET_TEST);
      const summary = result ? summaryOfResult(result) : null;
      return summary ? [{ runIndex, summary }] : [];
    }),
    candidates: options.forecast?.candidates.length ? candidatesTable(options.forecast) : null,
    candidatesJudged: options.forecast?.candidates.length && options.judged ? judgedTable(options.judged) : null,
    candidatesLeftOut: options.assessment
      ? [...candidatesEmptiedLines(options.assessment), ...candidatesUnreadableLines(options.assessment)]
      : [],
    appVersion: options.appVersion ?? '',
  };
}

/** The words of each assessment field, as the title names the runs (never as stages of one chain). */
const ROLE_WORDS: Readonly<Record<AssessmentField, string>> = {
  before: 'Before',
  after: 'After',
  encrypted: 'Under dm-crypt',
  discardOff: 'TRIM: without discard',
  discardOn: 'TRIM: with discard',
  workingSet: 'Size',
};

/**
 * Each record's role, in the order assessmentRunIds lists an assessment's runs (the order the
 * CLI and the app load them in); null when the records are not that list.
 */
function assessmentRoles(a: Assessment, count: number): string[] | null {
  const fields = ASSESSMENT_FIELDS.filter((f) => a[f] !== null);
  return fields.length === count ? fields.map((f) => ROLE_WORDS[f]) : null;
}

function defaultTitle(records: RunRecord[]): string {
  return records.length === 1 ? 'Disk assessment' : 'Disk upgrade assessment';
}

/**
 * The warnings that can affect the figures they are on, one entry for a warning several runs or
 * tests share ("size-below-ram on all 10 tests"), never once per test (model/warning-scope.ts).
 */
export function collectWarnings(records: RunRecord[]): ReportWarning[] {
  return groupWarnings(records);
}

/**
 * What a run measured, named as measured: a loop device and its backing file before the disk
 * under them, the disk's facts, and a blkio throttle on any layer. Two runs on loops over one
 * disk (the lab's throttled "HDD" and its plain "SSD") were both "Disk: vda".
 */
export function measuredText(record: RunRecord): string {
  const device = record.target.device;
  const facts = device
    ? [
        device.class,
        device.sizeBytes ? formatBytes(device.sizeBytes) : null,
        device.linkDescription ? `link ${device.linkDescription}` : null,
      ].filter(Boolean)
    : [];
  const measured = measuredDeviceText(record.target, { withFile: true });
  if (!measured) return 'unknown (the run carries no device facts)';
  const throttles = (record.target.stack ?? []).flatMap((l) => {
    const t = throttleText(l.details);
    const other = otherThrottleText(l.details);
    return [...(t ? [`${l.name} throttled: ${t}`] : []), ...(other ? [`${l.name}, another group's throttle: ${other}`] : [])];
  });
  return [`${measured}${facts.length ? ` (${facts.join(', ')})` : ''}`, ...throttles].join('; ');
}

function describeRun(record: RunRecord, i: number): Omit<ReportRun, 'role'> {
  const disk = measuredText(record);
  return {
    tag: `#${i + 1}`,
    label: record.label,
    source: record.source,
    sourceText: provenanceText(record),
    createdAt: record.createdAt,
    disk,
    stack: (record.target.stack ?? []).map((layer) => layerLine(layer).replace(/ {2,}/g, '  ')),
    machine: record.system ? machineOf(record) : null,
    machineNote: record.sourceMeta.machine ?? null,
    method: methodOf(record),
    notes: record.notes,
    temperature: record.temperature ? temperatureText(record.temperature) : null,
    fill: record.fill ? fillText(record.fill) : null,
    driveWrote: record.drive ? driveWrittenText(record.drive) : null,
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
  // What the settings asked for, then what the tests really did: "5 × 0.2 s" for a run whose
  // tests each took 5.9 s read as one second of measuring.
  const asked =
    s.durationSec === undefined
      ? null
      : s.precision
        ? `timed windows of ${s.durationSec} s, at least ${s.runs ?? 1}, until the median is known within ±${(s.precision * 100).toFixed(1)} % or ${s.maxTimeSec ?? 'the preset’s'} s`
        : s.runs !== undefined
          ? `${counted(s.runs, 'timed window')} of ${s.durationSec} s asked for`
          : `timed windows of ${s.durationSec} s`;
  const ran = ranSummary(record);
  const timing =
    record.source === 'measured'
      ? [
          s.preset ? `preset ${s.preset}` : null,
          s.warmupSec !== undefined ? `${s.warmupSec} s warm-up` : null,
          asked,
          ran ? `as run: ${ran}` : null,
          'median shown',
        ]
          .filter(Boolean)
          .join(', ')
      : 'one figure per test, as published or imported';
  return {
    engine,
    io,
    sizes,
    timing: timing || 'not recorded',
    tests: record.results.map((r) => ({
      id: r.test,
      title: testTitle(r.test),
      params: paramsText(r.params),
      ran: record.source === 'measured' ? testRan(r) : null,
    })),
    measuredAt: record.createdAt,
  };
}

/** How one measured test really ran: its timed runs and the seconds it took, warm-up included. */
function testRan(r: TestResult): string | null {
  const n = r.runs.length;
  const secs = r.precision?.seconds;
  if (n === 0 && secs === undefined) return null;
  const why = r.precision
    ? { precision: 'interval reached', 'max-time': 'time was up', runs: 'fixed count', steady: 'steady (SNIA)' }[r.precision.stoppedBy]
    : null;
  return [n ? counted(n, 'run') : null, secs !== undefined ? `${secs.toFixed(1)} s` : null, why ? `stopped: ${why}` : null]
    .filter(Boolean)
    .join(', ');
}

/** The tests' runs and seconds over a run, as one range ("5 runs, 5.9 s per test", "3–5 runs, 1.2–5.9 s per test"). */
function ranSummary(record: RunRecord): string | null {
  const rated = record.results.filter((r) => r.runs.length > 0 || r.precision);
  if (rated.length === 0) return null;
  const range = (values: number[], text: (v: number) => string) => {
    const lo = minOf(values)!;
    const hi = maxOf(values)!;
    return lo === hi ? text(lo) : `${text(lo).replace(/ .*/, '')}–${text(hi)}`;
  };
  const runs = rated.map((r) => r.runs.length);
  const secs = rated.flatMap((r) => (r.precision ? [r.precision.seconds] : []));
  return (
    [range(runs, (v) => counted(v, 'run')), secs.length ? range(secs, (v) => `${v.toFixed(1)} s`) : null].filter(Boolean).join(', ') +
    ' per test'
  );
}

function spreadText(record: RunRecord, test: string, kind: string): string | null {
  if (kind !== 'throughput' && kind !== 'iops') return null;
  const result = record.results.find((r) => r.test === test);
  if (!result) return null;
  if (result.underResolved) return 'under-resolved';
  if (result.cv === null) return null;
  // A steady figure's spread is its window's (rate.ts): said so, not "over 25 runs".
  if (isSteadyResult(result))
    return `CV ${formatPercent(result.cv * 100).replace(/^\+/, '')} over the ${steadyWindowRounds(result)} rounds judged`;
  const n = result.runs.length;
  return `CV ${formatPercent(result.cv * 100).replace(/^\+/, '')}${n > 1 ? ` over ${n} runs` : ''}`;
}
