// One line of the library's list, read from the runs table's plain columns (the covering index
// runs_list, migrations 3 and 17). SQLite's CHECKs and column types do not stand guard on read
// (stored-row.ts says why), so each value is checked here: a row whose source_format (or any
// other column) no longer fits is listed as unreadable with what is wrong, and the others are
// listed as ever. Without this one such row made the API's library.list answer BAD_OUTPUT for
// the whole list. The checks are set lookups and typeofs, not a zod parse per row: a fleet's
// library lists 100,000 rows (scripts/bench-library.ts).
import type { SQLInputValue } from 'node:sqlite';
import { RUN_SOURCES } from '../../shared/model/figure-terms.ts';
import { RUN_KINDS } from '../../shared/model/run-kind.ts';
import type { RunListItem, RunSummary } from '../../shared/model/run-summary.ts';
import { deviceClassSchema, type DeviceClass } from '../../shared/model/schemas.ts';
import { SOURCE_FORMATS } from '../../shared/model/source-formats.ts';
import { readRow, RowProblem, rowLabel, storedNumber, storedText } from './stored-row.ts';

export const LIST_COLUMNS =
  'id, label, created_at, saved_at, source, source_format, target_path, device_model, device_class, preset, engine_name, engine_version, result_count, warning_count, kind, encrypted';

const SOURCES: ReadonlySet<string> = new Set(RUN_SOURCES);
const FORMATS: ReadonlySet<string> = new Set(SOURCE_FORMATS);
const CLASSES: ReadonlySet<string> = new Set(deviceClassSchema.options);
const KINDS: ReadonlySet<string> = new Set(RUN_KINDS);

/** A TEXT column that holds one of `allowed`. */
function oneOf<T extends string>(column: string, value: SQLInputValue | undefined, allowed: ReadonlySet<string>): T {
  const text = storedText(column, value);
  if (!allowed.has(text))
    throw new RowProblem(`its ${column} is ${JSON.stringify(text.slice(0, 40))}, not one of ${[...allowed].join(', ')}`);
  return text as T;
}

function textOrNull(column: string, value: SQLInputValue | undefined): string | null {
  return value === null || value === undefined ? null : storedText(column, value);
}

/** One row of LIST_COLUMNS (as an array): the run's summary, or what makes it unreadable. */
export function runListItem(row: readonly SQLInputValue[]): RunListItem {
  const [id, label, createdAt, savedAt, source, sourceFormat, targetPath, deviceModel, deviceClass, preset, engineName, engineVersion] =
    row;
  const [resultCount, warningCount, kind, encrypted] = row.slice(12);
  const read = readRow((): RunSummary => {
    const engine = storedText('engine name', engineName);
    const version = textOrNull('engine version', engineVersion);
    return {
      id: storedNumber('id', id),
      label: storedText('label', label),
      createdAt: storedText('date', createdAt),
      savedAt: storedText('saved date', savedAt),
      source: oneOf('source', source, SOURCES),
      sourceFormat: oneOf('source format', sourceFormat, FORMATS),
      targetPath: storedText('target path', targetPath),
      deviceModel: textOrNull('device model', deviceModel),
      deviceClass: deviceClass === null || deviceClass === undefined ? null : oneOf<DeviceClass>('device class', deviceClass, CLASSES),
      preset: textOrNull('preset', preset),
      engine: version ? `${engine} ${version}` : engine,
      resultCount: storedNumber('result count', resultCount),
      warningCount: storedNumber('warning count', warningCount),
      // NULL: a row of a library migrated to 17 whose classification has not run yet (a read-only open).
      kind: kind === null || kind === undefined ? 'unknown' : oneOf('kind', kind, KINDS),
      encrypted: encrypted === null || encrypted === undefined ? null : storedNumber('encrypted', encrypted) !== 0,
    };
  });
  return read.ok ? read.value : { id: typeof id === 'number' ? id : Number(id), label: rowLabel(label), unreadable: read.problem };
}
