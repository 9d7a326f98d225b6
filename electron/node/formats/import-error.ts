// The one error every importer throws. The CLI and the app show its message as is, so the
// message always names the file and, where the problem sits on a line, that line.

import { MAX_RUNS_PER_IMPORT } from '../../shared/model/import-limits.ts';

export {
  MAX_IMPORT_BYTES,
  MAX_JSON_CONTAINERS,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  MAX_RUNS_PER_IMPORT,
} from '../../shared/model/import-limits.ts';

export function tooManyRuns(fileName: string, count: number | string): ImportError {
  return new ImportError(fileName, null, `the file holds ${count} runs; one import takes at most ${MAX_RUNS_PER_IMPORT} (split the file)`);
}

export class ImportError extends Error {
  override name = 'ImportError';
  readonly file: string;
  /** 1-based line in the file, or null when the problem is the file as a whole. */
  readonly line: number | null;

  constructor(file: string, line: number | null, problem: string) {
    super(line === null ? `${file}: ${problem}` : `${file}:${line}: ${problem}`);
    this.file = file;
    this.line = line;
  }
}
