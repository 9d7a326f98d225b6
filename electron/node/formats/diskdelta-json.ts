// DiskDelta's own export format: {"format": "diskdelta-results", "version": 1, "runs": [RunRecord…]}.
// Every field of RunRecord is kept (raw units: bytes/s, IOPS, ns), so export → import gives
// the same numbers. Library ids are not exported: the importing library gives new ones.
// The version is bumped only when a field changes meaning; readers refuse newer versions
// instead of guessing.
import { z } from 'zod';
import { terminalText } from '../../shared/model/display.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { runRecordSchema } from '../../shared/model/schemas.ts';
import { checkSchema } from '../../shared/model/schema-check.ts';
import { ImportError, MAX_RUNS_PER_IMPORT, tooManyRuns } from './import-error.ts';
import { lineOfPath, parseJsonChecked } from './json-scan.ts';

export const DISKDELTA_FORMAT = 'diskdelta-results';
export const DISKDELTA_FORMAT_VERSION = 1;

// Library ids are not part of the format: the importing library gives new ones.
const exportedRun = runRecordSchema.omit({ id: true });
const document = z.strictObject({
  format: z.literal(DISKDELTA_FORMAT),
  version: z.literal(DISKDELTA_FORMAT_VERSION),
  runs: z.array(exportedRun).min(1),
});

export function looksLikeDiskDeltaJson(text: string): boolean {
  return /^\s*\{\s*"format"\s*:\s*"diskdelta-results"/.test(text);
}

/** The order of a run's fields in an export, so two exports of the same runs are the same text. */
const FIELD_ORDER = [
  'label',
  'notes',
  'createdAt',
  'source',
  'sourceFormat',
  'sourceMeta',
  'target',
  'system',
  'settings',
  'engine',
  'results',
  'extras',
  'warnings',
] as const satisfies ReadonlyArray<keyof RunRecord>;

/** The run without its library id, fields in FIELD_ORDER, any other field after them. */
function canonical(run: RunRecord): Omit<RunRecord, 'id'> {
  const { id: _id, ...fields } = run;
  return { ...Object.fromEntries(FIELD_ORDER.map((key) => [key, fields[key]])), ...fields };
}

export function exportJson(runs: RunRecord[]): string {
  const stripped = runs.map(canonical);
  // JSON.stringify leaves DEL, C1 controls and bidi marks raw; written as \uXXXX escapes they
  // read back the same, and the file is safe to show in a terminal (cat, a pager, stdout).
  return `${terminalText(JSON.stringify({ format: DISKDELTA_FORMAT, version: DISKDELTA_FORMAT_VERSION, runs: stripped }, null, 2))}\n`;
}

/** The runs exactly as stored in the file (source and sourceFormat untouched), validated. */
export function parseDiskDeltaJson(text: string, fileName: string): RunRecord[] {
  const data = parseJsonChecked(text, fileName);
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > DISKDELTA_FORMAT_VERSION) {
    throw new ImportError(
      fileName,
      lineOfPath(text, ['version']),
      `written by a newer DiskDelta (format version ${version}); this one reads version ${DISKDELTA_FORMAT_VERSION}`,
    );
  }
  const runs = (data as { runs?: unknown } | null)?.runs;
  if (Array.isArray(runs) && runs.length > MAX_RUNS_PER_IMPORT) throw tooManyRuns(fileName, runs.length);
  // checkSchema: zod's own safeParse overflows the stack on ~50,000 bad entries (#38).
  const parsed = checkSchema(document, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = (issue?.path ?? []).filter((p): p is string | number => typeof p !== 'symbol');
    const where = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') || 'the top';
    throw new ImportError(fileName, lineOfPath(text, path), `${issue?.message ?? 'invalid document'} (at ${where})`);
  }
  return parsed.data.runs;
}
