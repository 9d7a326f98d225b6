// What the measuring commands (run, encryption) share about the library: it is opened and
// checked before minutes of measuring, and the measured runs are saved through the core's one
// save path (store/save-measured.ts, which the app's run manager uses too), so a run the
// library refuses is written to a file that `diskdelta import` takes back.
import { LibraryError, openLibrary, resolveDbPath, type Library } from '../node/store/library.ts';
import { whereKeptText, type SaveOutcome } from '../node/store/unsaved.ts';
import type { RunRecord } from '../shared/model/results.ts';
import { saveMeasuredRuns } from '../node/store/save-measured.ts';

/**
 * The library to save into, opened and integrity-checked now; null with --no-save. A library
 * that cannot be opened or is damaged is a one-line message (`failure`) before anything is measured.
 */
export function openLibraryToSave(
  command: string,
  dbFlag: string | undefined,
  noSave: boolean,
): { library: Library | null; failure: null } | { library: null; failure: string } {
  if (noSave) return { library: null, failure: null };
  let library: Library | null = null;
  try {
    library = openLibrary({ dbPath: resolveDbPath(dbFlag) });
    const problems = library.integrityCheck();
    if (problems.join() !== 'ok') throw new LibraryError('open-failed', `the library ${library.path} is damaged (${problems[0]})`);
    return { library, failure: null };
  } catch (error) {
    library?.close();
    if (!(error instanceof LibraryError)) throw error;
    // A full disk or a library this user may not write is not damage: nothing to repair.
    const advice =
      error.code === 'disk-full' || error.code === 'read-only'
        ? 'pass --no-save to measure without keeping the results'
        : 'repair or move the library, choose another with --db, or pass --no-save';
    return { library: null, failure: `diskdelta ${command}: ${error.message}. Nothing was measured: ${advice}.\n` };
  }
}

/** Saves the runs (each gets its id) or keeps them in files; null without a library (--no-save). */
export async function saveMeasured(library: Library | null, records: readonly RunRecord[]): Promise<SaveOutcome | null> {
  return library ? saveMeasuredRuns(library, records) : null;
}

/** The line that says the printed results were not saved and where they went. */
export function notSavedLine(command: string, outcome: Extract<SaveOutcome, { saved: false }>): string {
  // Printed figures are not importable (a table) or easily lost (a terminal): a file is.
  const kept = whereKeptText(outcome, (paths) => `run 'diskdelta import ${paths.join(' ')}'`);
  return `diskdelta ${command}: the results above were NOT saved: ${outcome.reason}; ${kept}\n`;
}
