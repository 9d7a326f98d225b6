// Import, export and the shipped reference runs, from formats/, as the handlers use them.
import {
  asShippedReferences,
  decodeImportBytes,
  exportCsv,
  exportJson,
  ImportError,
  loadReferenceRuns,
  parseImport,
} from '../formats/index.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { ApiFailure } from './dispatch.ts';
import type { FormatsPort } from './handlers.ts';

/** A key that stays the same across launches: the files are read in name order, each label once. */
function referenceKey(record: RunRecord, index: number): string {
  const slug = record.label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${index + 1}-${slug || 'run'}`;
}

export function formatsPort(referenceDir?: string): FormatsPort {
  let references: Promise<Array<{ key: string; record: RunRecord }>> | null = null;
  const port: FormatsPort = {
    async parseImport(fileName, bytes) {
      let parsed: RunRecord[];
      try {
        parsed = parseImport(decodeImportBytes(bytes, fileName), fileName);
      } catch (error) {
        if (error instanceof ImportError) throw new ApiFailure('IMPORT_FAILED', error.message);
        throw error;
      }
      const shipped = (await port.references()).map((r) => r.record);
      const records = asShippedReferences(parsed, shipped);
      return { records, warnings: records.flatMap((r) => r.warnings) };
    },
    exportRuns(records, format) {
      const stamp = new Date().toISOString().slice(0, 10);
      return format === 'json'
        ? { fileName: `diskdelta-runs-${stamp}.json`, mimeType: 'application/json', content: exportJson(records) }
        : { fileName: `diskdelta-runs-${stamp}.csv`, mimeType: 'text/csv', content: exportCsv(records) };
    },
    references() {
      // Read once per launch: the files ship with the app and do not change while it runs.
      references ??= loadReferenceRuns(referenceDir).then((runs) => runs.map((record, i) => ({ key: referenceKey(record, i), record })));
      return references;
    },
  };
  return port;
}
