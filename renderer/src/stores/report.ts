// Saving the assessment report of the compared runs: the backend renders it (PDF printed by
// this front end's Chromium, or self-contained HTML) and the page downloads the file.
import { createStore } from 'zustand/vanilla';
import type { ApiError, RunRef } from '../../../electron/shared/contract/contract.ts';
import type { ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import type { Paper } from '../../../electron/shared/report/paper.ts';
import type { ApiClient } from '../api/client.ts';

export type ReportFormat = 'pdf' | 'html';

export interface SavedReport {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

export interface ReportState {
  paper: Paper;
  /** The format being made now, or null. */
  saving: ReportFormat | null;
  error: ApiError | null;
  setPaper(paper: Paper): void;
  /** The file to download, or null (the error is in the state). */
  save(runs: RunRef[], unit: ThroughputUnit, format: ReportFormat): Promise<SavedReport | null>;
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function createReportStore(client: ApiClient) {
  return createStore<ReportState>()((set, get) => ({
    paper: 'a4',
    saving: null,
    error: null,
    setPaper: (paper) => set({ paper }),
    async save(runs, unit, format) {
      if (get().saving) return null;
      set({ saving: format, error: null });
      const result = await client.call('report.render', { runs, unit, format, paper: get().paper });
      if (!result.ok) {
        set({ saving: null, error: result.error });
        return null;
      }
      set({ saving: null });
      return { fileName: result.data.fileName, mimeType: result.data.mimeType, bytes: base64ToBytes(result.data.contentBase64) };
    },
  }));
}
