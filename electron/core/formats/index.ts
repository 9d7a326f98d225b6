// Import and export of benchmark results: the one entry point the CLI, the app and the store
// use. Formats (one module each): bonnie++ CSV, fio JSON, KDiskMark and CrystalDiskMark text,
// and DiskDelta's own JSON. See README.md in this folder for what maps to what.
import type { RunRecord, SourceFormat } from '../model/results.ts';
import { looksLikeBonnieCsv, parseBonnieCsv } from './bonnie-csv.ts';
import { looksLikeCrystalDiskMark, parseCrystalDiskMarkText } from './crystaldiskmark-text.ts';
import { checkText } from './decode.ts';
import { looksLikeDiskDeltaJson, parseDiskDeltaJson } from './diskdelta-json.ts';
import { parseFioFile } from './fio-client-json.ts';
import { looksLikeFioJson } from './fio-json.ts';
import { ImportError, MAX_IMPORT_BYTES } from './import-error.ts';
import { looksLikeKDiskMark, parseKDiskMarkText } from './kdiskmark-text.ts';
import { checkRuns } from './sanity.ts';

export { ImportError, MAX_IMPORT_BYTES, MAX_JSON_DEPTH } from './import-error.ts';
export { exportJson, DISKDELTA_FORMAT, DISKDELTA_FORMAT_VERSION } from './diskdelta-json.ts';
export { exportCsv } from './csv-export.ts';
export { decodeImportBytes, readImportFile } from './decode.ts';
export { asShippedReferences, loadReferenceRuns, REFERENCE_DIR } from './reference.ts';

export interface ImportOptions {
  /** createdAt for files that carry no date (bonnie++ CSV); defaults to now. */
  now?: Date;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The format of a file's content, or null when it is none we read. Never throws. */
export function detectFormat(text: string): SourceFormat | null {
  const t = stripBom(text);
  if (looksLikeDiskDeltaJson(t)) return 'diskdelta';
  if (looksLikeFioJson(t)) return 'fio';
  if (looksLikeKDiskMark(t)) return 'kdiskmark';
  if (looksLikeCrystalDiskMark(t)) return 'crystaldiskmark';
  if (looksLikeBonnieCsv(t)) return 'bonnie++';
  return null;
}

function parseAs(format: SourceFormat, text: string, fileName: string, now: Date): RunRecord[] {
  switch (format) {
    case 'diskdelta':
      // A DiskDelta export brought into another library is an import here; what it was
      // before (measured, imported from fio, …) stays readable in sourceMeta.
      return parseDiskDeltaJson(text, fileName).map((run) => ({
        ...run,
        sourceMeta: { ...run.sourceMeta, 'diskdelta.source': run.source, 'diskdelta.sourceFormat': run.sourceFormat },
        source: 'imported',
        sourceFormat: 'diskdelta',
      }));
    case 'fio':
      return parseFioFile(text, fileName, now);
    case 'kdiskmark':
      return parseKDiskMarkText(text, fileName);
    case 'crystaldiskmark':
      return parseCrystalDiskMarkText(text, fileName);
    case 'bonnie++':
      return parseBonnieCsv(text, fileName, now);
  }
}

/**
 * Parses a results file of any supported format (detected from the content). All runs of the
 * file or an ImportError naming the file and line: never a partial result.
 */
export function parseImport(text: string, fileName: string, options: ImportOptions = {}): RunRecord[] {
  if (text.length > MAX_IMPORT_BYTES) {
    throw new ImportError(fileName, null, `the file is larger than the ${MAX_IMPORT_BYTES / (1024 * 1024)} MiB import limit`);
  }
  const body = stripBom(text);
  checkText(body, fileName);
  const format = detectFormat(body);
  if (!format) {
    throw new ImportError(
      fileName,
      null,
      'unrecognised format: expected a bonnie++ CSV, fio JSON (--output-format=json or json+), ' +
        'a KDiskMark or CrystalDiskMark text report, or a DiskDelta JSON export',
    );
  }
  let runs: RunRecord[];
  try {
    runs = parseAs(format, body, fileName, options.now ?? new Date());
  } catch (error) {
    if (error instanceof ImportError) throw error;
    // A parser bug or an input shape nobody foresaw: still an error about this file.
    throw new ImportError(fileName, null, `could not be read as ${format}: ${error instanceof Error ? error.message : String(error)}`);
  }
  checkRuns(runs, fileName);
  return runs;
}
