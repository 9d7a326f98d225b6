// How much one import may hold: the importers enforce these, and the app checks a file's size
// before it sends it (renderer/src/stores/library.ts), so the limits live in the model layer.

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

/** JSON nested deeper than this is refused: no format we read goes past ~6 levels. */
export const MAX_JSON_DEPTH = 64;
