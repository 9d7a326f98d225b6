// The one comparison of runs, used by the CLI, the app and reports, so that "×3.29" means
// the same thing everywhere. The first run is the baseline; every other run gets, per
// metric, its value, the ratio to the baseline, the percent change, whether that change is
// better or worse (lower latency is better, higher throughput/IOPS/seeks are better), and
// whether it exceeds the runs' own spread. With three or more runs each run is also compared
// to the one before it, because an upgrade is often a chain: HDD → SSD → SSD + dm-crypt.
import { METRICS, TEST_IDS, metricById, testById, testTitle, type Direction, type MetricDef } from '../model/catalog.ts';
import {
  isFailedResult,
  type ExtraMetric,
  type Figure,
  type RunRecord,
  type RunSource,
  type SourceFormat,
  type TestParams,
  type TestResult,
} from '../model/results.ts';
import { engineText, measuredDeviceText } from '../model/run-text.ts';
import { measuredByDiskDelta } from '../model/provenance.ts';
import { rateFigureText } from './figure-text.ts';
import { fillPercent } from './fill-level.ts';
import { judgeChange, logSpreadOfCv, logSpreadOfValues } from './significance.ts';
import {
  describeThroughputUnit,
  formatBytes,
  formatIops,
  formatLatency,
  formatNumber,
  formatPercent,
  formatRatio,
  formatThroughput,
  throughputLabel,
  type ThroughputUnit,
} from './units.ts';
import { appendAll } from '../model/extremes.ts';

/** 'figure': a figure of a kind that is not a rate (seconds per phase, cipher ceiling, forecast). */
export type MetricKind = 'throughput' | 'iops' | 'latency' | 'figure' | 'extra';
export type { Direction };
export type Verdict = 'better' | 'worse' | 'same';
/** 'unknown' whenever either side has no spread to judge by (single value, import, under-resolved). */
export type SpreadVerdict = 'yes' | 'no' | 'unknown';

export interface Delta {
  ratio: number;
  ratioText: string; // "×3.29", "213× lower" (see formatRatio)
  percentChange: number;
  percentText: string; // "+229.2 %"
  /** null when the metric has no better direction. */
  verdict: Verdict | null;
  beyondSpread: SpreadVerdict;
  spreadReason: string;
  /**
   * Why this change is not judged although the metric has a better side (a p50 that the mean
   * shows to mislead, see LATENCY_FIGURE_RULE): the verdict is then null and this says why.
   */
  notJudged?: string;
}

export interface CompareCell {
  /** Raw: bytes/s, IOPS, ns, or an extra metric's own unit. null: not reported. */
  value: number | null;
  /** Always labelled with its unit, e.g. "135.9 MB/s". */
  display: string;
  underResolved: boolean;
  /** false: this run has no such test (or imported figure) at all. */
  inRun: boolean;
  /** A forecast or model output, not a measurement: its display says "(estimated)". */
  estimated: boolean;
  /** null for the baseline, or when either value is missing or the baseline is zero. */
  vsBaseline: Delta | null;
  /** A figure's basis as stored: how it was obtained, e.g. a workload's passes and their range. */
  basis?: string;
}

export interface CompareRow {
  test: string; // the test id, or "extras" for imported figures without a DiskDelta test
  testTitle: string;
  /** The test's parameters (catalog, else the results'); null when no source gave them. */
  params: TestParams | null;
  metric: string; // bytesPerSec | iops | latency.p50 | latency.p99 | latency.mean | latency.max | extra name
  metricLabel: string;
  kind: MetricKind;
  direction: Direction;
  cells: CompareCell[];
}

export interface ComparedRun {
  id: number | null;
  label: string;
  source: RunSource;
  sourceFormat: SourceFormat;
  engine: string;
  createdAt: string;
  device: string | null;
}

export interface Comparison {
  unit: ThroughputUnit;
  unitLabel: string;
  unitDescription: string;
  runs: ComparedRun[];
  rows: CompareRow[];
  /** Things a reader must know to trust the figures: reference data, mixed engines, differing parameters. */
  notes: string[];
}

/** Below this change (what formatPercent shows as ±0.0 %) the verdict is 'same'. */
export const SAME_BELOW_PERCENT = 0.05;

/** A catalog metric (model/catalog.ts) and how the comparison groups it. */
type Metric = MetricDef & { kind: MetricKind };

const metric = (def: MetricDef, kind: MetricKind): Metric => ({ ...def, kind });
const LATENCY_METRICS = {
  p50: metric(METRICS['latency.p50'], 'latency'),
  p99: metric(METRICS['latency.p99'], 'latency'),
  mean: metric(METRICS['latency.mean'], 'latency'),
  max: metric(METRICS['latency.max'], 'latency'),
};

export function compareRuns(runs: RunRecord[], options: { unit?: ThroughputUnit } = {}): Comparison {
  if (runs.length === 0) throw new Error('compareRuns needs at least one run');
  const unit = options.unit ?? 'MB';
  const rows: CompareRow[] = [];
  for (const test of testsInOrder(runs)) {
    const results = runs.map((run) => run.results.find((r) => r.test === test) ?? null);
    for (const metric of metricsFor(test, results)) {
      rows.push(buildRow(test, metric, results, unit));
    }
    appendAll(rows, figureRows(test, results, unit));
  }
  appendAll(rows, extraRows(runs));
  return {
    unit,
    unitLabel: throughputLabel(unit),
    unitDescription: describeThroughputUnit(unit),
    runs: runs.map(describeRun),
    rows,
    notes: notesFor(runs),
  };
}

/** The catalog's title, re-exported for the callers that title a comparison's tests. */
export { testTitle };

function testsInOrder(runs: RunRecord[]): string[] {
  const seen = new Set<string>();
  for (const run of runs) for (const r of run.results) seen.add(r.test);
  const known = TEST_IDS.filter((id) => seen.has(id));
  const others = [...seen].filter((t) => !TEST_IDS.includes(t));
  return [...known, ...others];
}

/** The parameters a test ran with: the catalog's, else the first result's that has them. */
function paramsOf(test: string, results: Array<TestResult | null>): TestParams | null {
  return testById(test)?.params ?? results.find((r) => r?.params)?.params ?? null;
}

function isRandom(test: string, results: Array<TestResult | null>): boolean {
  const params = paramsOf(test, results);
  return params !== null && params.rw !== 'read' && params.rw !== 'write';
}

function isSeeks(test: string, results: Array<TestResult | null>): boolean {
  return paramsOf(test, results)?.rw === 'seeks';
}

function metricsFor(test: string, results: Array<TestResult | null>): Metric[] {
  const present = results.filter((r): r is TestResult => r !== null);
  const any = (get: (r: TestResult) => number | null | undefined) => present.some((r) => get(r) != null);
  const metrics: Metric[] = [];
  const hasThroughput = any((r) => r.bytesPerSec);
  const hasIops = any((r) => r.iops);
  // A result with no figure at all but flagged under-resolved (bonnie++'s "+++++") still gets
  // its row, so the comparison says "too fast to measure" instead of dropping the test.
  const seeks = isSeeks(test, results);
  // A failed test (an imported job that errored) likewise keeps its row and says "failed".
  const unresolvedOnly = !hasThroughput && !hasIops && present.some((r) => r.underResolved || isFailedResult(r));
  if (hasThroughput || (unresolvedOnly && !seeks)) {
    metrics.push(metric(METRICS.bytesPerSec, 'throughput'));
  }
  // Sequential IOPS only restate the throughput; random tests are judged by them.
  if ((hasIops && (!hasThroughput || isRandom(test, results))) || (unresolvedOnly && seeks)) {
    metrics.push(metric({ ...METRICS.iops, label: seeks ? METRICS.seeks.label : METRICS.iops.label }, 'iops'));
  }
  // LATENCY_FIGURE_RULE: the mean always beside the percentiles, as fio and KDiskMark print it.
  const lat = (k: keyof typeof LATENCY_METRICS) => any((r) => r.latencyNs?.[k]);
  if (lat('p50')) metrics.push(LATENCY_METRICS.p50);
  if (lat('mean')) metrics.push(LATENCY_METRICS.mean);
  if (lat('p99')) metrics.push(LATENCY_METRICS.p99);
  else if (lat('max')) metrics.push(LATENCY_METRICS.max);
  return metrics;
}

/**
 * LATENCY_FIGURE_RULE — which latency figure a comparison judges by.
 *
 * The p50 says how the typical I/O went; the mean says what an I/O cost on average, the long
 * waits included (it is 1 / IOPS × queue depth). They agree on a disk whose I/Os take about the
 * same time, and part where a few I/Os wait very long: a blkio throttle lets most I/Os through
 * at once and holds the rest for the remainder of its slice (lab: p50 66 µs, mean 6.62 ms), a
 * stalling or SMR drive does the same. There the p50 describes only the lucky I/Os, and a ratio
 * of p50s called an SSD "×2.44 worse" than the throttled HDD. So:
 *   - every comparison shows the mean beside the p50 and the p99 when a source reports it;
 *   - the p99 (or max) is judged as the tail it is;
 *   - the p50 is judged only while, on every side that reports both, the mean is at most
 *     MEAN_OVER_P50_MISLEADS × the p50; past that its figures stay, its change is "not judged",
 *     and it says to judge by the mean (which is always judged).
 * Ordinary latency spreads (an SSD at Q1: mean ≈ 1.1 × p50; an HDD's seeks: ≈ 1.3 ×; queue
 * depths of 32: up to ≈ 2 ×) stay well below the factor.
 */
export const MEAN_OVER_P50_MISLEADS = 3;

/** Why a p50 row must not be judged (LATENCY_FIGURE_RULE), or null when it may. */
function p50Misleads(results: Array<TestResult | null>): string | null {
  for (const [i, r] of results.entries()) {
    const mean = r?.latencyNs?.mean;
    const p50 = r?.latencyNs?.p50;
    if (mean == null || p50 == null || p50 <= 0 || mean <= MEAN_OVER_P50_MISLEADS * p50) continue;
    return (
      `not judged: in #${i + 1} the mean (${formatLatency(mean)}) is ${formatNumber(mean / p50)}× the p50 (${formatLatency(p50)}), ` +
      'so a few long waits hold most of the time and the p50 shows only the quick I/Os: judge by the mean'
    );
  }
  return null;
}

function valueOf(result: TestResult, metric: string): number | null {
  if (metric === 'bytesPerSec') return result.bytesPerSec;
  if (metric === 'iops') return result.iops;
  const key = metric.slice('latency.'.length) as keyof typeof LATENCY_METRICS;
  return result.latencyNs?.[key] ?? null;
}

/**
 * The log-scale spread of a metric for one result (significance.ts says why the log scale):
 * from its repeated runs when it has two or more, else from its coefficient of variation
 * (which the orchestrator computes on throughput; with a fixed block size IOPS vary by the
 * same proportion). Latency has no CV, so only runs give it a spread. null: the result
 * carries no spread (one run, an import).
 */
function spreadOf(result: TestResult, metric: string): number | null {
  const values = result.runs
    .map((m) =>
      metric === 'bytesPerSec'
        ? m.bytesPerSec
        : metric === 'iops'
          ? m.iops
          : m.latencyNs[metric.slice('latency.'.length) as keyof typeof LATENCY_METRICS],
    )
    .filter((v): v is number => v != null);
  if (values.length >= 2) return logSpreadOfValues(values);
  if ((metric === 'bytesPerSec' || metric === 'iops') && result.cv != null) return logSpreadOfCv(result.cv);
  return null;
}

interface Side {
  value: number | null;
  /** Standard deviation of ln(value) over the runs (significance.ts). */
  logSd: number | null;
  underResolved: boolean;
  runIndex: number;
}

function delta(from: Side, to: Side, direction: Direction): Delta | null {
  if (from.value == null || to.value == null || from.value === 0) return null;
  const ratio = to.value / from.value;
  const percentChange = (ratio - 1) * 100;
  let verdict: Verdict | null = null;
  if (direction !== 'none') {
    // A change too small to show (±0.0 %) is not called better or worse.
    verdict = Math.abs(percentChange) < SAME_BELOW_PERCENT ? 'same' : ratio > 1 === (direction === 'higher') ? 'better' : 'worse';
  }
  let beyondSpread: SpreadVerdict = 'unknown';
  let spreadReason: string;
  if (from.underResolved || to.underResolved) {
    const which = from.underResolved ? from.runIndex : to.runIndex;
    spreadReason = `#${which + 1} is under-resolved (finished too fast to measure)`;
  } else {
    const judged = judgeChange({ value: from.value, logSd: from.logSd }, { value: to.value, logSd: to.logSd });
    if (judged) {
      beyondSpread = judged.beyond ? 'yes' : 'no';
      spreadReason = judged.reason;
    } else {
      const which = from.logSd == null ? from.runIndex : to.runIndex;
      spreadReason = `#${which + 1} has no spread (a single value)`;
    }
  }
  return {
    ratio,
    ratioText: formatRatio(ratio, direction),
    percentChange,
    percentText: formatPercent(percentChange),
    verdict,
    beyondSpread,
    spreadReason,
  };
}

/** A cell's text: rates by the one formatter (figure-text.ts), flags and interval included. */
function displayValue(metric: Metric, result: TestResult, value: number | null, unit: ThroughputUnit, seeks: boolean): string {
  if (metric.kind === 'throughput') return rateFigureText(result, 'bytesPerSec', unit);
  if (metric.kind === 'iops') return rateFigureText(result, 'iops', unit, { seeks });
  if (value == null)
    return isFailedResult(result) ? 'failed (no figure)' : result.underResolved ? '+++++ (too fast to measure)' : '— (not reported)';
  return formatLatency(value) + (result.underResolved ? ' (under-resolved)' : '');
}

function buildRow(test: string, metric: Metric, results: Array<TestResult | null>, unit: ThroughputUnit): CompareRow {
  const sides: Side[] = results.map((r, runIndex) => ({
    value: r ? valueOf(r, metric.id) : null,
    logSd: r ? spreadOf(r, metric.id) : null,
    underResolved: r?.underResolved ?? false,
    runIndex,
  }));
  const seeks = isSeeks(test, results);
  const misleads = metric.id === 'latency.p50' ? p50Misleads(results) : null;
  const judged = (d: Delta | null): Delta | null =>
    d && misleads ? { ...d, verdict: null, beyondSpread: 'unknown', spreadReason: misleads, notJudged: misleads } : d;
  const cells = sides.map((side, i): CompareCell => ({
    value: side.value,
    display: results[i] ? displayValue(metric, results[i], side.value, unit, seeks) : NOT_IN_RUN,
    underResolved: side.underResolved,
    inRun: results[i] !== null,
    estimated: false,
    vsBaseline: i === 0 ? null : judged(delta(sides[0]!, side, metric.direction)),
  }));
  const params = paramsOf(test, results);
  return {
    test,
    testTitle: testTitle(test, params),
    params,
    metric: metric.id,
    metricLabel: metric.label,
    kind: metric.kind,
    direction: metric.direction,
    cells,
  };
}

/** One row per (metric, subject) of the figures the runs' results of this test carry. */
function figureRows(test: string, results: Array<TestResult | null>, unit: ThroughputUnit): CompareRow[] {
  const keys: Array<{ metric: string; subject: string }> = [];
  for (const r of results) {
    for (const f of r?.figures ?? []) {
      // A curve's points are its chart's (a surface's offsets), not rows: see MetricDef.curvePoint.
      if (metricById(f.metric)?.curvePoint) continue;
      if (!keys.some((k) => k.metric === f.metric && k.subject === f.subject)) keys.push({ metric: f.metric, subject: f.subject });
    }
  }
  return keys.map(({ metric: id, subject }) => {
    const def = metricById(id);
    const direction = def?.direction ?? 'none';
    const found = results.map((r) => r?.figures?.find((f) => f.metric === id && f.subject === subject) ?? null);
    // A figure that keeps its passes (a workload phase) is judged by the same rule as a rate; one without has no spread.
    const sides: Side[] = found.map((f, runIndex) => ({
      value: f?.value ?? null,
      logSd: f?.passes ? logSpreadOfValues(f.passes) : null,
      underResolved: false,
      runIndex,
    }));
    const label = [def?.label ?? id, subject].filter(Boolean).join(' · ');
    return {
      test,
      testTitle: testTitle(test, paramsOf(test, results)),
      params: paramsOf(test, results),
      metric: subject ? `${id}:${subject}` : id,
      metricLabel: label,
      kind: 'figure' as const,
      direction,
      cells: found.map((f, i): CompareCell => ({
        value: f?.value ?? null,
        display: results[i] ? displayFigure(f, unit) : NOT_IN_RUN,
        underResolved: false,
        inRun: results[i] !== null,
        estimated: f?.provenance === 'estimated',
        vsBaseline: i === 0 ? null : delta(sides[0]!, sides[i]!, direction),
        ...(f?.basis ? { basis: f.basis } : {}),
      })),
    };
  });
}

/**
 * A cell of a run that does not have the test: a bare dash. It once said "— (test not in this
 * run)", and a report of disks beside a discard-cost experiment and a scan printed rows of it
 * (#39); the report, Compare and the charts leave such runs out, and what remains says nothing.
 */
export const NOT_IN_RUN = '—';

/** A figure with its unit, and "(estimated)" when it comes from a model: never passed off as measured. */
export function displayFigure(f: Figure | null, unit: ThroughputUnit = 'MB'): string {
  if (!f) return NOT_IN_RUN;
  const mark = f.provenance === 'estimated' ? ' (estimated)' : '';
  if (f.value == null) return `— (${f.basis ?? 'not obtained'})${mark}`;
  if (f.unit === 'bytes/s') return formatThroughput(f.value, unit) + mark;
  if (f.unit === 'ns') return formatLatency(f.value) + mark;
  if (f.unit === 'IOPS' || f.unit === 'seeks/s') return formatIops(f.value, f.unit) + mark;
  if (f.unit === 's') return `${formatNumber(f.value)} s${mark}`;
  if (f.unit === 'bytes') return formatBytes(f.value) + mark;
  // 'count': a plain number (discard requests), no unit word after it.
  return formatNumber(f.value) + mark;
}

/** Imported figures with no DiskDelta test, matched by original name and unit. */
function extraRows(runs: RunRecord[]): CompareRow[] {
  const keys: Array<{ name: string; unit: string }> = [];
  for (const run of runs) {
    for (const e of run.extras) {
      if (!keys.some((k) => k.name === e.name && k.unit === e.unit)) keys.push({ name: e.name, unit: e.unit });
    }
  }
  return keys.map(({ name, unit }) => {
    const direction = directionOfUnit(unit);
    const found = runs.map((run) => run.extras.find((e) => e.name === name && e.unit === unit) ?? null);
    const sides: Side[] = found.map((e, runIndex) => ({ value: e?.value ?? null, logSd: null, underResolved: false, runIndex }));
    return {
      test: 'extras',
      testTitle: 'other figures (as imported)',
      params: null,
      metric: name,
      metricLabel: name,
      kind: 'extra' as const,
      direction,
      cells: found.map((e, i): CompareCell => ({
        value: e?.value ?? null,
        display: displayExtra(e),
        underResolved: false,
        inRun: e !== null,
        estimated: false,
        vsBaseline: i === 0 ? null : delta(sides[0]!, sides[i]!, direction),
      })),
    };
  });
}

function displayExtra(extra: ExtraMetric | null): string {
  if (!extra) return NOT_IN_RUN;
  if (extra.value == null) return `— (${extra.note ?? 'not reported'})`;
  return `${formatNumber(extra.value)} ${extra.unit}`;
}

/** Rates are better higher, times better lower; anything else (% CPU, counts) has no side. */
export function directionOfUnit(unit: string): Direction {
  const u = unit.trim().toLowerCase();
  if (/\/\s*s(ec)?$/.test(u) || /^(iops|[kmg]i?b\/s)$/.test(u)) return 'higher';
  if (/^(ns|us|µs|ms|s|sec|seconds?)$/.test(u)) return 'lower';
  return 'none';
}

function describeRun(run: RunRecord): ComparedRun {
  return {
    id: run.id ?? null,
    label: run.label,
    source: run.source,
    sourceFormat: run.sourceFormat,
    engine: engineText(run.engine),
    createdAt: run.createdAt,
    device: measuredDeviceText(run.target),
  };
}

/** "the median of 7 runs", "the best run" (an import's count is not in the result), "one run". */
function statisticWords(result: TestResult): string {
  const n = result.runs.length;
  const of = n >= 2 ? ` of ${n} runs` : '';
  if (result.statistic === 'median') return `the median${of}`;
  if (result.statistic === 'best') return n >= 2 ? `the best${of}` : 'the best run';
  if (result.statistic === 'mean') return `the mean${of}`;
  if (result.statistic === 'single') return 'one run';
  return 'not recorded';
}

/**
 * When the results of one test combine their runs differently (a best-of-5 CrystalDiskMark
 * import against DiskDelta's median), how each does ("the median of 5 runs in #1, the best run
 * in #2"), else null: they are not the same statistic, and the best of several runs reads
 * higher than their median on the same disk.
 */
function statisticSides(results: Array<TestResult | null>): string | null {
  const present = results.flatMap((r, i) => (r && !isFailedResult(r) ? [{ r, i }] : []));
  if (new Set(present.map(({ r }) => r.statistic ?? 'unknown')).size < 2) return null;
  return present.map(({ r, i }) => `${statisticWords(r)} in #${i + 1}`).join(', ');
}

/**
 * How full each run's file system was, where any run noted it: an SSD slows as it fills, so two
 * runs of one disk at 10 % and 80 % can differ for that alone.
 */
function fillNote(runs: RunRecord[]): string | null {
  const percents = runs.map((r) => (r.fill ? fillPercent(r.fill) : null));
  if (percents.every((p) => p === null)) return null;
  const each = percents.map((p, i) => `#${i + 1} ${p === null ? 'not noted' : `${p.toFixed(1)} %`}`);
  return `Fill level of the file system under each target when it ran: ${each.join(', ')} (an SSD slows as it fills).`;
}

function notesFor(runs: RunRecord[]): string[] {
  const notes: string[] = [];
  const tag = (i: number) => `#${i + 1}`;
  const reference = runs.flatMap((r, i) => (r.source === 'reference' ? [tag(i)] : []));
  if (reference.length > 0) {
    notes.push(
      `${reference.join(', ')} ${reference.length === 1 ? 'is' : 'are'} reference data (published figures shipped with DiskDelta), not measured on this machine.`,
    );
  }
  const imported = runs.flatMap((r, i) => (r.source === 'imported' && !measuredByDiskDelta(r) ? [tag(i)] : []));
  if (imported.length > 0)
    notes.push(`${imported.join(', ')} ${imported.length === 1 ? 'was' : 'were'} imported from another tool's results file.`);
  // A DiskDelta export's own measurements are DiskDelta's, made where the export came from.
  const exported = runs.flatMap((r, i) => (r.source === 'imported' && measuredByDiskDelta(r) ? [tag(i)] : []));
  if (exported.length > 0)
    notes.push(
      `${exported.join(', ')} ${exported.length === 1 ? 'was' : 'were'} measured by DiskDelta and imported from a DiskDelta export, not measured in this library.`,
    );
  const engines = new Set(runs.map((r) => r.engine.name));
  if (engines.size > 1) {
    notes.push(`The runs come from different engines (${[...engines].join(', ')}): tests with the same name are alike, not identical.`);
  }
  const fill = fillNote(runs);
  if (fill) notes.push(fill);
  const statistics = new Map<string, string[]>();
  for (const test of testsInOrder(runs)) {
    const params = runs.map((r) => r.results.find((x) => x.test === test)?.params ?? null);
    const differences: string[] = [];
    const field = (name: string, get: (p: NonNullable<(typeof params)[number]>) => string) => {
      const values = params.map((p) => (p ? get(p) : null));
      const distinct = new Set(values.filter((v): v is string => v !== null));
      if (distinct.size > 1) differences.push(`${name} ${values.map((v, i) => `${v ?? 'not given'} in ${tag(i)}`).join(', ')}`);
    };
    field('block size', (p) => formatBytes(p.blockSize));
    field('queue depth', (p) => String(p.queueDepth));
    field('threads', (p) => String(p.threads));
    field('pattern', (p) => p.rw);
    if (differences.length > 0) notes.push(`${test}: the runs differ in ${differences.join('; ')}.`);
    const sides = statisticSides(runs.map((r) => r.results.find((x) => x.test === test) ?? null));
    if (sides) statistics.set(sides, [...(statistics.get(sides) ?? []), test]);
  }
  // One note per way the runs differ (a whole grid against a best-of-5 import is one sentence).
  for (const [sides, tests] of statistics) {
    const best = sides.includes('the best') ? ' A best run reads higher than the median or mean of the same disk.' : '';
    notes.push(`${tests.join(', ')}: the figures combine their runs differently (${sides}): not the same statistic.${best}`);
  }
  const underResolved = runs.flatMap((r, i) => (r.results.some((x) => x.underResolved) ? [tag(i)] : []));
  if (underResolved.length > 0) {
    notes.push(
      `Some results of ${underResolved.join(', ')} are under-resolved: too little was measured to trust them ` +
        '(too few I/Os or too short a run; bonnie++ prints +++++ for this), so the real figure may differ and their spread is unknown.',
    );
  }
  return notes;
}
