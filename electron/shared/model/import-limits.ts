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

/**
 * JSON values one file may hold, and of them objects and arrays (each costs V8 50–100 bytes,
 * against 3 bytes of text for "{},"): 15 million empty objects in a 45 MB file once took 1.7 GB
 * before the importer refused them. A fio file of 200,000 small jobs holds 2.8 million values
 * and 800,000 containers; the scanner refuses more before JSON.parse builds anything.
 */
export const MAX_JSON_VALUES = 6_000_000;
export const MAX_JSON_CONTAINERS = 1_500_000;
