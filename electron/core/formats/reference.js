// The reference runs shipped in assets/reference/: published figures (see README.md there)
// stored in DiskDelta's own JSON format, every run marked source "reference".
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDiskDeltaJson } from "./diskdelta-json.js";
import { ImportError } from "./import-error.js";
/** assets/reference/ of the source tree; a packaged app passes its resources path instead. */
export const REFERENCE_DIR = fileURLToPath(new URL('../../../assets/reference/', import.meta.url));
export async function loadReferenceRuns(dir = REFERENCE_DIR) {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
    const runs = [];
    for (const file of files) {
        const text = await readFile(join(dir, file), 'utf8');
        for (const run of parseDiskDeltaJson(text, file)) {
            // A reference file that does not say so is a packaging mistake, not something to fix up.
            if (run.source !== 'reference')
                throw new ImportError(file, null, `run "${run.label}" is not marked source "reference"`);
            runs.push(run);
        }
    }
    return runs;
}
