// The one error every importer throws. The CLI and the app show its message as is, so the
// message always names the file and, where the problem sits on a line, that line.
/**
 * Files larger than this are refused before parsing. The biggest honest input is a fio
 * json+ file with many jobs and full latency histograms: a few MB. 50 MiB leaves a wide margin
 * and still bounds the memory a hostile file can make us use.
 */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** JSON nested deeper than this is refused: no format we read goes past ~6 levels. */
export const MAX_JSON_DEPTH = 64;
export class ImportError extends Error {
    name = 'ImportError';
    file;
    /** 1-based line in the file, or null when the problem is the file as a whole. */
    line;
    constructor(file, line, problem) {
        super(line === null ? `${file}: ${problem}` : `${file}:${line}: ${problem}`);
        this.file = file;
        this.line = line;
    }
}
