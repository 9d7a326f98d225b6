// What makes two run records one measurement, whichever file brought them: the figures and
// where and how they were measured (target, machine, settings, engine, results with their
// runs, samples and histograms), not what a file or the library adds around them. Left out:
// the label and notes (a relabel, an export's --label), createdAt and sourceMeta but its fio host
// (a bonnie++ CSV has no date, so its parser stamps the import's time into both), source and sourceFormat
// (an export re-imported is 'imported'/'diskdelta', the run it came from 'measured' or 'fio'),
// and the warnings, which are judgements that a later DiskDelta may word or add differently.
import { createHash } from 'node:crypto';
import type { RunRecord } from '../../shared/model/results.ts';

/** JSON with keys sorted and null/undefined fields left out, so a stored run and its export read back alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether a run holds any figure at all: one without (every job failed) tells nothing apart from another alike. */
function measuredAnything(run: RunRecord): boolean {
  return (
    run.extras.length > 0 ||
    run.results.some((r) => r.bytesPerSec != null || r.iops != null || r.runs.length > 0 || (r.figures?.length ?? 0) > 0)
  );
}

/** null for a run without a single figure: two of those are not known to be one measurement. */
export function runFingerprint(run: RunRecord): string | null {
  if (!measuredAnything(run)) return null;
  const measurement = {
    target: run.target,
    system: run.system,
    settings: run.settings,
    engine: run.engine,
    extras: run.extras,
    results: run.results.map(({ warnings: _judged, ...result }) => result),
    // A fleet's hosts: fio's client JSON says which host ran a job only here. Two hosts that
    // measured alike are two measurements (a synthetic fleet lost 804 of its 1,000 hosts).
    host: run.sourceMeta['fio.host'],
  };
  return `sha256:${createHash('sha256').update(canonical(measurement)).digest('hex')}`;
}
