import { useId } from 'react';
import type { RunRef } from '../../../electron/core/api/contract.ts';
import type { ThroughputUnit } from '../../../electron/core/analysis/units.ts';
import { PAPERS, type Paper } from '../../../electron/core/report/paper.ts';
import { useReport } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import type { ReportFormat } from '../stores/report.ts';
import { downloadFile } from './download.ts';
import { ErrorNote } from './common.tsx';

const PAPER_TITLES: Record<Paper, string> = { a4: 'A4', letter: 'Letter' };

/** Paper size and the Save PDF / Save HTML buttons, on Compare and on the report view. */
export function SaveReport({ runs, unit, formats = ['pdf', 'html'] }: { runs: RunRef[]; unit: ThroughputUnit; formats?: ReportFormat[] }) {
  const stores = useStoresApi();
  const { paper, saving, error } = useReport((s) => s);
  const paperId = useId();
  // Busy buttons are aria-disabled, not disabled: a disabled button drops the keyboard's focus
  // to <body>; the store ignores a second save while one is made.
  const save = async (format: ReportFormat) => {
    const file = await stores.report.getState().save(runs, unit, format);
    if (file) downloadFile(file.fileName, file.mimeType, file.bytes);
  };
  return (
    <div className="save-report">
      <div className="actions" role="group" aria-label="Save the report">
        <label htmlFor={paperId}>Paper</label>
        <select id={paperId} value={paper} onChange={(e) => stores.report.getState().setPaper(e.target.value as Paper)}>
          {PAPERS.map((p) => (
            <option key={p} value={p}>
              {PAPER_TITLES[p]}
            </option>
          ))}
        </select>
        {formats.includes('pdf') ? (
          <button onClick={() => void save('pdf')} aria-disabled={saving !== null} disabled={runs.length === 0}>
            {saving === 'pdf' ? 'Making the PDF…' : 'Save PDF'}
          </button>
        ) : null}
        {formats.includes('html') ? (
          <button onClick={() => void save('html')} aria-disabled={saving !== null} disabled={runs.length === 0}>
            {saving === 'html' ? 'Making the page…' : 'Save HTML'}
          </button>
        ) : null}
      </div>
      <ErrorNote error={error} what="Saving the report" />
    </div>
  );
}
