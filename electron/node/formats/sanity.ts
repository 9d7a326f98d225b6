// The last check before runs leave the importers: whatever a file said, nothing that is not a
// finite non-negative number (or null) reaches the library, no figure past what any disk or
// computer can do (FIGURE_LIMITS), and no run is empty. Each importer checks its own figures
// against the same limits where it reads them (figureProblem), so that the error names the entry
// of the file; checkRuns is the backstop for every field of every format.
import type { RunRecord } from '../../shared/model/results.ts';
import { ImportError, MAX_RUNS_PER_IMPORT, tooManyRuns } from './import-error.ts';
import { controlCharIn } from '../../shared/model/display.ts';
import { formatBytes, formatIops, formatLatency, formatThroughput } from '../../shared/analysis/units.ts';

/**
 * The largest figure of each kind a file may claim. Past these no disk or computer measured it,
 * so the file is not what it says (a unit misread, a corrupted or forged file): an fio entry of
 * 1e30 B/s was kept with a warning and a report printed it ×3e21 faster; a bonnie++ size of
 * 99999999T was imported as "97656 PiB" (#38). The limits are far above any real figure, so
 * nothing honest is refused: the fastest drives do ~15 GB/s, a machine's memory ~1 TB/s.
 */
export const FIGURE_LIMITS = {
  rate: { max: 1e15, why: '1 PB/s, a thousand times the memory bandwidth of any computer' },
  iops: { max: 1e11, why: '100 billion I/O per second, a thousand times what any machine completes' },
  size: { max: 2 ** 50, why: '1 PiB, more than thirty of the largest drives made (writing it at 10 GB/s takes 31 hours)' },
  latency: { max: 1e15, why: '11.6 days for one operation' },
} as const;
export type FigureKind = keyof typeof FIGURE_LIMITS;

const SHOWN: Record<FigureKind, (value: number) => string> = {
  rate: (v) => formatThroughput(v),
  iops: (v) => formatIops(v),
  size: (v) => formatBytes(v),
  latency: (v) => formatLatency(v),
};

/** What is wrong with a figure of this kind, or null when it may be real (null and absent are). */
export function figureProblem(kind: FigureKind, value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!Number.isFinite(value) || value < 0) return 'is negative or not a finite number';
  const limit = FIGURE_LIMITS[kind];
  if (value <= limit.max) return null;
  return `${SHOWN[kind](value)} is more than ${limit.why}: no disk measures that, so the file does not say what it seems to`;
}

/** Refuses the first figure past its limit, naming where it is in the file (an importer's own check). */
export function refuseImpossible(
  fileName: string,
  line: number | null,
  where: string,
  figures: ReadonlyArray<readonly [FigureKind, number | null | undefined, string]>,
): void {
  for (const [kind, value, what] of figures) {
    const problem = figureProblem(kind, value);
    if (problem) throw new ImportError(fileName, line, `${where}: ${what} ${problem}`);
  }
}

/** The kind of a figure or extra by its unit, or null for units without a limit (counts, seconds, percent). */
function kindOfUnit(unit: string): FigureKind | null {
  if (unit === 'bytes/s' || unit === 'B/s') return 'rate';
  if (unit === 'IOPS' || unit === 'IO/s' || unit === 'seeks/s' || unit === '/sec') return 'iops';
  if (unit === 'bytes' || unit === 'B') return 'size';
  if (unit === 'ns') return 'latency';
  return null;
}

/** A figure or extra may be negative (a change, a difference): only its size is bounded here. */
const magnitude = (value: number | null) => (value === null ? null : Math.abs(value));

/** Every figure of a run with where it is and its kind: the fields checkRuns bounds. */
function* figuresOf(run: RunRecord): Generator<[string, FigureKind, number | null | undefined]> {
  yield ['the test size', 'size', run.settings.sizeBytes];
  yield ["the device's size", 'size', run.target.device?.sizeBytes];
  yield ["the device's link speed", 'rate', run.target.device?.linkCeilingBytesPerSec];
  for (const layer of run.target.stack ?? []) {
    for (const key of ['sizeBytes', 'usedBytes']) {
      const value = layer.details[key];
      if (typeof value === 'number')
        yield [`the ${layer.kind} ${layer.name}'s ${key === 'sizeBytes' ? 'size' : 'space used'}`, 'size', value];
    }
  }
  for (const r of run.results) {
    const at = `test ${r.test}`;
    yield [`${at}: the rate`, 'rate', r.bytesPerSec];
    yield [`${at}: the IOPS`, 'iops', r.iops];
    yield [`${at}: the best rate`, 'rate', r.best?.bytesPerSec];
    yield [`${at}: the best IOPS`, 'iops', r.best?.iops];
    for (const [key, ns] of Object.entries(r.latencyNs ?? {})) yield [`${at}: the ${key} latency`, 'latency', ns];
    for (const [lower] of r.histogram) yield [`${at}: a latency histogram bucket`, 'latency', lower];
    for (const m of r.runs) {
      yield [`${at}, run ${m.run}: the rate`, 'rate', m.bytesPerSec];
      yield [`${at}, run ${m.run}: the IOPS`, 'iops', m.iops];
      yield [`${at}, run ${m.run}: the bytes moved`, 'size', m.bytes];
      for (const [key, ns] of Object.entries(m.latencyNs)) yield [`${at}, run ${m.run}: the ${key} latency`, 'latency', ns];
      for (const sample of m.samples) {
        yield [`${at}, run ${m.run}: a sample's rate`, 'rate', sample.bytesPerSec];
        yield [`${at}, run ${m.run}: a sample's IOPS`, 'iops', sample.iops];
      }
    }
    for (const f of r.figures ?? []) {
      const kind = kindOfUnit(f.unit);
      if (!kind) continue;
      yield [`${at}: ${f.metric} of ${f.subject}`, kind, magnitude(f.value)];
      for (const pass of f.passes ?? []) yield [`${at}: a pass of ${f.metric}`, kind, magnitude(pass)];
    }
  }
  for (const e of run.extras) {
    // bonnie++'s K/sec is KiB/s.
    const kind = e.unit === 'K/sec' ? 'rate' : kindOfUnit(e.unit);
    const value = e.unit === 'K/sec' && e.value !== null ? e.value * 1024 : e.value;
    if (kind) yield [`extra ${e.name}: the value`, kind, magnitude(value)];
  }
}

/**
 * The first string (value or key) anywhere in `value` holding a control character, as
 * [where, which]. Raw control bytes are refused with the text (checkText); this catches the
 * ones a JSON file writes as escapes ("\u001b"), which parse into real ones.
 */
function controlCharField(value: unknown, where: string): [string, string] | null {
  if (typeof value === 'string') {
    const control = controlCharIn(value, { layout: true });
    return control ? [where, control] : null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const control = controlCharIn(key, { layout: true });
    const path = Array.isArray(value) ? `${where}[${key}]` : `${where}.${key}`;
    if (control) return [path, control];
    const found = controlCharField(inner, path);
    if (found) return found;
  }
  return null;
}

// What a control character that controlCharIn(…, {layout: true}) refuses looks like once
// JSON.stringify has escaped it ("\u001b", "\b", "\f") or left it raw (DEL, C1, bidi marks).
// An escaped backslash before "b" or "f" matches too: a false alarm only sends that part to
// the walk below, which decides.
const SUSPECT_IN_JSON = /\\(?:[bf]|u00[01][0-9a-fA-F])|[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * controlCharField, but the walk (a regex per key and value, the slowest step of importing an
 * fio file with 200,000 jobs) only runs on the parts of a run whose JSON text looks suspect.
 */
function controlCharInRun(run: RunRecord, where: string): [string, string] | null {
  // The run's own keys are DiskDelta's field names; what came from the file is below them.
  for (const [key, value] of Object.entries(run) as Array<[string, unknown]>) {
    const parts: unknown[] = Array.isArray(value) ? value : [value];
    for (const [i, part] of parts.entries()) {
      // `?? null`: JSON.stringify(undefined) (an optional field) is undefined, not a string.
      if (!SUSPECT_IN_JSON.test(JSON.stringify(part ?? null))) continue;
      const found = controlCharField(part, parts === value ? `${where}.${key}[${i}]` : `${where}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

function ok(value: number | null | undefined): boolean {
  return value === null || value === undefined || (Number.isFinite(value) && value >= 0);
}

export function checkRuns(runs: RunRecord[], fileName: string): void {
  if (runs.length === 0) throw new ImportError(fileName, null, 'the file holds no runs');
  if (runs.length > MAX_RUNS_PER_IMPORT) throw tooManyRuns(fileName, runs.length);
  for (const [index, run] of runs.entries()) {
    const control = controlCharInRun(run, `run ${index + 1}`);
    if (control) {
      throw new ImportError(
        fileName,
        null,
        `${control[0]} holds the control character ${control[1]}, which a terminal would obey (escape sequences): not a report DiskDelta imports`,
      );
    }
    if (run.results.length === 0 && run.extras.length === 0) {
      throw new ImportError(fileName, null, `run "${run.label}" holds no results`);
    }
    for (const r of run.results) {
      const numbers = [r.bytesPerSec, r.iops, r.cv, ...(Object.values(r.latencyNs ?? {}) as number[]), r.cpu?.userNs, r.cpu?.systemNs];
      if (!numbers.every(ok) || !r.histogram.every(([b, c]) => ok(b) && ok(c))) {
        throw new ImportError(fileName, null, `test ${r.test}: a value is negative or not a finite number`);
      }
    }
    for (const [where, kind, value] of figuresOf(run)) {
      const problem = figureProblem(kind, value);
      if (problem) throw new ImportError(fileName, null, `run "${run.label}", ${where} ${problem}`);
    }
    for (const e of run.extras) {
      if (e.value !== null && !Number.isFinite(e.value)) {
        throw new ImportError(fileName, null, `extra ${e.name}: the value is not a finite number`);
      }
    }
  }
}
