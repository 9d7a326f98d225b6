// What the library commands (list, show, label, delete, export, import, compare) share:
// the --db flag, run-id parsing, and turning library failures into a one-line message with
// exit code 1 (usage mistakes stay UsageError → exit 2, handled by main()).
import { EXIT_FAILURE, UsageError } from './args.ts';
import { controlCharIn } from '../shared/model/display.ts';
import { LibraryError, openLibrary, resolveDbPath, type Library } from '../node/store/library.ts';
import type { RunRecord } from '../shared/model/results.ts';
import { parseThroughputUnit, THROUGHPUT_UNITS, type ThroughputUnit } from '../shared/analysis/units.ts';
import { sayFailure } from './failure-out.ts';

/** A failure the user can act on; printed as "diskdelta CMD: message", exit code 1. */
export class CliFailure extends Error {
  override name = 'CliFailure';
}

export const DB_HELP =
  '  --db FILE    use this results library instead of the default\n' +
  '               (default: $DISKDELTA_DB, else $XDG_DATA_HOME/diskdelta/library.sqlite,\n' +
  '               else ~/.local/share/diskdelta/library.sqlite)\n';

/** `readOnly`: the command only reads, so a library it cannot write (read-only mount) still opens. */
export async function withLibrary(
  command: string,
  dbFlag: string | undefined,
  body: (library: Library) => number | Promise<number>,
  options: { readOnly?: boolean } = {},
): Promise<number> {
  let library: Library | undefined;
  try {
    library = openLibrary({ dbPath: resolveDbPath(dbFlag), readOnly: options.readOnly });
    return await body(library);
  } catch (error) {
    if (error instanceof CliFailure || error instanceof LibraryError) {
      return sayFailure(command, error.message, EXIT_FAILURE);
    }
    throw error;
  } finally {
    library?.close();
  }
}

/** "7" or "#7" → 7. */
export function parseRunId(text: string): number {
  const match = /^#?(\d{1,15})$/.exec(text.trim());
  const id = match ? Number(match[1]) : NaN;
  if (!(id > 0)) throw new UsageError(`'${text}' is not a run id: use the number that 'diskdelta list' shows`);
  return id;
}

/** Every run asked for, in the order asked; one message naming all the ids that are missing. */
export function requireRuns(library: Library, ids: number[]): RunRecord[] {
  const runs = library.getRuns(ids);
  const missing = ids.filter((_, i) => runs[i] === null);
  if (missing.length > 0) {
    const which = missing.length === 1 ? `run ${missing[0]}` : `runs ${missing.join(', ')}`;
    throw new CliFailure(`no ${which} in the library ${library.path} ('diskdelta list' shows the ids)`);
  }
  return runs as RunRecord[];
}

export function parseUnitFlag(text: string | undefined): ThroughputUnit {
  if (text === undefined) return 'MB';
  const unit = parseThroughputUnit(text);
  if (!unit) throw new UsageError(`--unit '${text}' is not a throughput unit: use ${THROUGHPUT_UNITS.join(', ')}`);
  return unit;
}

/** A table with left-aligned columns, for list-like output (cells escaped for the terminal). */
export { table as formatTable } from './system-format.ts';

/** A label typed by the user: refused when it holds a control character (a terminal would obey it). */
export function checkLabel(label: string, flag: string): string {
  const control = controlCharIn(label);
  if (control) throw new UsageError(`${flag} holds the control character ${control}: labels are plain text`);
  return label;
}
