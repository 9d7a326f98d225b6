// A measured run that the library could not save (a full or read-only disk, a locked or
// damaged file) is never dropped: it is written as a DiskDelta JSON file that `Import` (or
// `diskdelta import FILE`) takes back once the library is writable. The first place that
// takes the file wins: an `unsaved` folder beside the library, then the temporary folder
// (often another filesystem, so a full data disk does not stop it).
import { makeFolder } from '../files/make-folder.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { exportJson } from '../formats/diskdelta-json.ts';
import { writeUserFile } from '../files/write-user-file.ts';
import type { RunRecord } from '../model/results.ts';

/** Writes the run and returns the file's path; throws only when no place would take it. */
export async function keepUnsavedRun(
  record: RunRecord,
  libraryPath: string,
  places = [join(dirname(libraryPath), 'unsaved'), tmpdir()],
): Promise<string> {
  const name = `diskdelta-unsaved-${record.createdAt.replace(/[:.]/g, '-')}-${process.pid}.json`;
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
