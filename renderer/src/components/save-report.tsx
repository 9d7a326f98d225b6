import { useId } from 'react';
import type { RunRef } from '../../../electron/shared/contract/contract.ts';
import type { ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import { PAPERS, type Paper } from '../../../electron/shared/report/paper.ts';
import { useReport } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import type { ReportFormat } from '../stores/report.ts';
import { downloadFile } from './download.ts';
import { ErrorNote } from './common.tsx';

const PAPER_TITLES: Record<Paper, string> = { a4: 'A4', letter: 'Letter' };

/**
 * Paper size and one Save button per format: the one set of controls of every report (Compare's,
 * the assessment's, the fleet's). Busy buttons are aria-disabled, not disabled: a disabled button
 * drops the keyboard's focus to <body>; the stores ignore a second save while one is made.
 */
export function SaveControls(props: {
  /** Names the group for screen readers: "Save the report". */
  label: string;
  paper: Paper;
  onPaper: (paper: Paper) => void;
  saving: ReportFormat | null;
  onSave: (format: ReportFormat) => void;
  formats?: ReportFormat[];
  /** Nothing to save yet (the buttons are disabled). */
  unready?: boolean;
  /** What the report is, in the buttons: "fleet " makes "Save fleet PDF". */
  what?: string;
  /** Save PDF is the page's main action (the assessment's last step). */
  primary?: boolean;
}) {
  const { label, paper, onPaper, saving, onSave, formats = ['pdf', 'html'], unready = false, what = '', primary = false } = props;
  const paperId = useId();
  return (
    <div className="actions" role="group" aria-label={label}>
      <label htmlFor={paperId}>Paper</label>
      <select id={paperId} value={paper} onChange={(e) => onPaper(e.target.value as Paper)}>
        {PAPERS.map((p) => (
          <option key={p} value={p}>
            {PAPER_TITLES[p]}
          </option>
        ))}
      </select>
      {formats.includes('pdf') ? (
        <button
          className={primary ? 'primary' : undefined}
          onClick={() => onSave('pdf')}
          aria-disabled={saving !== null}
          disabled={unready}
        >
          {saving === 'pdf' ? 'Making the PDF…' : `Save ${what}PDF`}
        </button>
      ) : null}
      {formats.includes('html') ? (
        <button onClick={() => onSave('html')} aria-disabled={saving !== null} disabled={unready}>
          {saving === 'html' ? 'Making the page…' : `Save ${what}HTML`}
        </button>
      ) : null}
    </div>
  );
}

/** Paper size and the Save PDF / Save HTML buttons, on Compare and on the report view. */
export function SaveReport({ runs, unit, formats = ['pdf', 'html'] }: { runs: RunRef[]; unit: ThroughputUnit; formats?: ReportFormat[] }) {
  const stores = useStoresApi();
  const { paper, saving, error } = useReport((s) => s);
  const save = async (format: ReportFormat) => {
    const file = await stores.report.getState().save(runs, unit, format);
    if (file) downloadFile(file.fileName, file.mimeType, file.bytes);
  };
  return (
    <div className="save-report">
      <SaveControls
        label="Save the report"
        paper={paper}
        onPaper={(p) => stores.report.getState().setPaper(p)}
        saving={saving}
        onSave={(f) => void save(f)}
        formats={formats}
        unready={runs.length === 0}
      />
      <ErrorNote error={error} what="Saving the report" />
    </div>
  );
}
