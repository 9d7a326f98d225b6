// Import and export of benchmark results: the one entry point the CLI, the app and the store
// use. One module per format, one row per format in IMPORTERS below (the formats are listed in
// model/source-formats.ts). See README.md in this folder for what maps to what.
import type { RunRecord } from '../../shared/model/results.ts';
import { formatsText, SOURCE_FORMATS, type SourceFormat } from '../../shared/model/source-formats.ts';
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

/** One format's reader, as fio's ioengine_ops: does a file look like it, and its runs. */
export interface Importer {
  /** True when the content is this format (or a damaged file of it, so the error names its line). Never throws. */
  detect: (text: string) => boolean;
  /** All runs of the file, or an ImportError naming the file and line. */
  parse: (text: string, fileName: string, now: Date) => RunRecord[];
}

/**
 * THE importers, one per source format (model/source-formats.ts; a format without one fails the
 * type check), in the order they are asked: the first whose detect says yes reads the file.
 * DiskDelta's JSON first (it could hold anything), bonnie++'s loose CSV test last.
 */
export const IMPORTERS: Readonly<Record<SourceFormat, Importer>> = {
  diskdelta: {
    detect: looksLikeDiskDeltaJson,
    // A DiskDelta export brought into another library is an import here; what it was before
    // (measured, imported from fio, …) stays readable in sourceMeta.
    parse: (text, fileName) =>
      parseDiskDeltaJson(text, fileName).map((run) => ({
        ...run,
        sourceMeta: { ...run.sourceMeta, 'diskdelta.source': run.source, 'diskdelta.sourceFormat': run.sourceFormat },
        source: 'imported',
        sourceFormat: 'diskdelta',
      })),
  },
  fio: { detect: looksLikeFioJson, parse: parseFioFile },
  kdiskmark: { detect: looksLikeKDiskMark, parse: parseKDiskMarkText },
  crystaldiskmark: { detect: looksLikeCrystalDiskMark, parse: parseCrystalDiskMarkText },
  'bonnie++': { detect: looksLikeBonnieCsv, parse: parseBonnieCsv },
};

const IMPORT_ORDER = Object.keys(IMPORTERS) as SourceFormat[];

/** The format of a file's content, or null when it is none we read. Never throws. */
export function detectFormat(text: string): SourceFormat | null {
  const t = stripBom(text);
  return IMPORT_ORDER.find((format) => IMPORTERS[format].detect(t)) ?? null;
}

/** The refusal of a file no importer recognises: every format the table reads, in the list's words. */
export function unrecognisedFormatText(): string {
  return `unrecognised format: expected ${formatsText(SOURCE_FORMATS, 'or')}`;
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
    throw new ImportError(fileName, null, unrecognisedFormatText());
  }
  let runs: RunRecord[];
  try {
    runs = IMPORTERS[format].parse(body, fileName, options.now ?? new Date());
  } catch (error) {
    if (error instanceof ImportError) throw error;
    // A parser bug or an input shape nobody foresaw: still an error about this file.
    throw new ImportError(fileName, null, `could not be read as ${format}: ${error instanceof Error ? error.message : String(error)}`);
  }
  checkRuns(runs, fileName);
  return runs;
}
