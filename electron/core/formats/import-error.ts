// The one error every importer throws. The CLI and the app show its message as is, so the
// message always names the file and, where the problem sits on a line, that line.

/**
 * Files larger than this are refused before parsing. The biggest honest input is a fio
 * json+ file with many jobs and full latency histograms: a few MB. 50 MiB leaves a wide margin
 * and still bounds the memory a hostile file can make us use.
 */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/**
 * Runs one file may add. A bonnie++ CSV holds a row per run and a DiskDelta export a run per
 * entry; honest files hold a few dozen. 100,000 identical rows once became 100,000 runs,
 * 1.4 GB of memory and a 607 MB library: refused, saying the limit, before the runs are built.
 */
export const MAX_RUNS_PER_IMPORT = 1000;

export function tooManyRuns(fileName: string, count: number | string): ImportError {
  return new ImportError(fileName, null, `the file holds ${count} runs; one import takes at most ${MAX_RUNS_PER_IMPORT} (split the file)`);
}

/** JSON nested deeper than this is refused: no format we read goes past ~6 levels. */
export const MAX_JSON_DEPTH = 64;

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
