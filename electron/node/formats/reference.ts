// The reference runs shipped in assets/reference/: published figures (see README.md there)
// stored in DiskDelta's own JSON format, every run marked source "reference".
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from '../../shared/model/results.ts';
import { parseDiskDeltaJson } from './diskdelta-json.ts';
import { ImportError } from './import-error.ts';

/** assets/reference/ of the source tree; a packaged app passes its resources path instead. */
export const REFERENCE_DIR = fileURLToPath(new URL('../../../assets/reference/', import.meta.url));

export async function loadReferenceRuns(dir: string = REFERENCE_DIR): Promise<RunRecord[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const runs: RunRecord[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const run of parseDiskDeltaJson(text, file)) {
      // A reference file that does not say so is a packaging mistake, not something to fix up.
      if (run.source !== 'reference') throw new ImportError(file, null, `run "${run.label}" is not marked source "reference"`);
      runs.push(run);
    }
  }
  return runs;
}

/**
 * The runs of an imported file that are shipped reference runs (someone imported a file of
 * assets/reference/ through "Import files…"), as the shipped records: reference data, listed
 * once, not an "imported" copy beside it. A run counts only when its label and every result
 * match; a reference file someone edited stays an import.
 */
export function asShippedReferences(records: RunRecord[], shipped: RunRecord[]): RunRecord[] {
  return records.map((run) => {
    if (run.sourceMeta['diskdelta.source'] !== 'reference') return run;
    const results = JSON.stringify(run.results);
    return shipped.find((s) => s.label === run.label && JSON.stringify(s.results) === results) ?? run;
  });
}
