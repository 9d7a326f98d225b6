// A measured run that the library could not save (a full or read-only disk, a locked or
// damaged file) is never dropped: it is written as a DiskDelta JSON file that `Import` (or
// `diskdelta import FILE`) takes back once the library is writable. The first place that
// takes the file wins: an `unsaved` folder beside the library, then the temporary folder
// (often another filesystem, so a full data disk does not stop it).
// `saveOrKeep` is the save-or-keep step of the one path every front end saves measured runs
// through (save-measured.ts: the CLI's commands, the app's run manager), so none of them can
// drop a run the others would keep.
import { randomBytes } from 'node:crypto';
import { makeFolder } from '../files/make-folder.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { exportJson } from '../formats/diskdelta-json.ts';
import { writeUserFile } from '../files/write-user-file.ts';
import type { RunRecord } from '../../shared/model/results.ts';

/** Writes the run and returns the file's path; throws only when no place would take it. */
export async function keepUnsavedRun(
  record: RunRecord,
  libraryPath: string,
  places = [join(dirname(libraryPath), 'unsaved'), tmpdir()],
): Promise<string> {
  // The random part: the runs of one encryption assessment can share a millisecond, and
  // writeUserFile never replaces a file, so the second would otherwise be pushed out of unsaved/.
  const name = `diskdelta-unsaved-${record.createdAt.replace(/[:.]/g, '-')}-${process.pid}-${randomBytes(3).toString('hex')}.json`;
  const reasons: string[] = [];
  for (const folder of places) {
    const path = join(folder, name);
    try {
      await makeFolder(folder);
      await writeUserFile(path, exportJson([record]));
      return path;
    } catch (error) {
      reasons.push(`${folder}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no folder would take the results (${reasons.join('; ')})`);
}

export interface SavePorts {
  /** Stores a run in the library and returns its id. */
  save: (record: RunRecord) => number | Promise<number>;
  /** Writes a run the library refused to a file and returns its path (keepUnsavedRun); null: nowhere to keep it. */
  keep: ((record: RunRecord) => Promise<string>) | null;
}

/** What became of the runs: each saved (ids in order), or saved up to the first refusal and the rest kept in files. */
export type SaveOutcome =
  | { saved: true; ids: number[] }
  | {
      saved: false;
      /** The runs saved before the library refused one. */
      ids: number[];
      /** Why the library refused. */
      reason: string;
      /** The files the refused run and every run after it were written to. */
      kept: string[];
      /** Why some of them could not be kept anywhere; null when every one was. */
      lost: string | null;
    };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Saves the runs in order. Once the library refuses one, that run and the rest (the
 * encryption pair's other half) go to files instead: a library that failed once is not
 * trusted with the next, and a measurement is never dropped. Any error of `save` counts.
 */
export async function saveOrKeep(records: readonly RunRecord[], ports: SavePorts): Promise<SaveOutcome> {
  const ids: number[] = [];
  for (const [i, record] of records.entries()) {
    try {
      const id = await ports.save(record);
      record.id = id;
      ids.push(id);
    } catch (error) {
      const kept: string[] = [];
      let lost: string | null = null;
      for (const rest of records.slice(i)) {
        if (!ports.keep) {
          lost = 'nowhere to keep them was given';
          break;
        }
        try {
          kept.push(await ports.keep(rest));
        } catch (keepError) {
          lost = messageOf(keepError);
        }
      }
      return { saved: false, ids, reason: messageOf(error), kept, lost };
    }
  }
  return { saved: true, ids };
}

/**
 * Where the refused runs went, as the clause after a front end's "…not saved (why); ": "they
 * were written to FILE: HOW once the library can be written". `how` says how this front end imports them.
 */
export function whereKeptText(outcome: Extract<SaveOutcome, { saved: false }>, how: (paths: string[]) => string): string {
  const { kept, lost } = outcome;
  const written = kept.length ? `they were written to ${kept.join(' and ')}: ${how(kept)} once the library can be written` : '';
  if (lost === null) return written;
  return written ? `${written}; the rest could not be kept elsewhere: ${lost}` : `they could not be kept elsewhere either: ${lost}`;
}
