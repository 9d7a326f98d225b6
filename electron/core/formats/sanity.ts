// The last check before runs leave the importers: whatever a file said, nothing that is not a
// finite non-negative number (or null) reaches the library, and no run is empty.
import type { RunRecord } from '../model/results.ts';
import { ImportError, MAX_RUNS_PER_IMPORT, tooManyRuns } from './import-error.ts';
import { controlCharIn } from '../model/display.ts';

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
    for (const e of run.extras) {
      if (e.value !== null && !Number.isFinite(e.value)) {
        throw new ImportError(fileName, null, `extra ${e.name}: the value is not a finite number`);
      }
    }
  }
}
