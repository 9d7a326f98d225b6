// A row of the library that no longer fits the model (the file edited by hand or by another
// program, a newer DiskDelta's shape, a bit flipped on disk) is said as such: its id, its name
// and what is wrong with it. It is never used as if it were valid, and it never breaks a list of
// the others (#38: one bad assessment row made `assess list` crash and the API's list answer
// BAD_OUTPUT for all of them). SQLite's CHECKs do not stand guard on read: `json_valid` says
// nothing of the shape, a file written with ignore_check_constraints holds anything, and a
// column's type is only an affinity. So each row is checked here, against the same zod schemas
// the API's contract checks its outputs with.
import type { SQLInputValue } from 'node:sqlite';
import type { z } from 'zod';
import { checkSchema, issuesText } from '../../shared/model/schema-check.ts';

/** What is wrong with one row, found while reading it. */
export class RowProblem extends Error {
  override name = 'RowProblem';
}

/** A row that could not be read, named for the user. */
export interface UnreadableRow {
  id: number;
  /** Its label when that is text; else a placeholder that says so. */
  label: string;
  problem: string;
}

/** What to do about runs the library can no longer read: their other runs are untouched, these are lost unless imported again. */
export function unreadableRunsText(rows: readonly UnreadableRow[]): string {
  const each = rows.map((r) => `run ${r.id} "${r.label}" cannot be read from the library: ${r.problem}`).join('; ');
  const ids = rows.map((r) => r.id).join(' ');
  return `${each}. It was changed outside DiskDelta (or by another version): 'diskdelta delete ${ids}' removes it, then import its file again if you have it`;
}

/** The JSON of a column, checked against the schema of what it holds. */
export function storedJson<S extends z.ZodType>(column: string, value: SQLInputValue | undefined, schema: S): z.output<S> {
  if (typeof value !== 'string') throw new RowProblem(`its ${column} column is ${kindOf(value)}, not JSON text`);
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new RowProblem(`its ${column} column is not JSON (${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? '…' : ''})`);
  }
  return checked(`${column} column`, json, schema);
}

/** A value read from a row, checked against its schema. */
export function checked<S extends z.ZodType>(what: string, value: unknown, schema: S): z.output<S> {
  const result = checkSchema(schema, value);
  if (!result.success) throw new RowProblem(`its ${what}: ${issuesText(result.issues)}`);
  return result.data;
}

/** The row's name in messages: its label, or what the label column holds instead. */
export function rowLabel(value: SQLInputValue | undefined): string {
  return typeof value === 'string' ? value : `(no readable label: ${kindOf(value)})`;
}

/** Reads one row; a RowProblem becomes its description (other errors are not the row's and propagate). */
export function readRow<T>(read: () => T): { ok: true; value: T } | { ok: false; problem: string } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof RowProblem) return { ok: false, problem: error.message };
    throw error;
  }
}

function kindOf(value: SQLInputValue | undefined): string {
  if (value === null || value === undefined) return 'empty (NULL)';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.slice(0, 40))})`;
  if (typeof value === 'number' || typeof value === 'bigint') return `a number (${value})`;
  return `binary data (${value.byteLength} bytes)`;
}

/** A TEXT column's value: text, or the row is unreadable (a BLOB or a number stored there is not a label). */
export function storedText(column: string, value: SQLInputValue | undefined): string {
  if (typeof value !== 'string') throw new RowProblem(`its ${column} is ${kindOf(value)}, not text`);
  return value;
}

/** A numeric column's value: a finite number, or the row is unreadable (Number('abc') would pass on as NaN). */
export function storedNumber(column: string, value: SQLInputValue | undefined): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new RowProblem(`its ${column} is ${kindOf(value)}, not a number`);
  return n;
}

export function storedNumberOrNull(column: string, value: SQLInputValue | undefined): number | null {
  return value === null || value === undefined ? null : storedNumber(column, value);
}
