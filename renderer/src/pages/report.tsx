// The report route: the assessment report of the runs picked on Compare, as it will print
// (the same view the PDF and the HTML file are made from), with Save PDF and Save HTML.
import { useEffect, useMemo } from 'react';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { buildReport, ReportInputError } from '../../../electron/shared/report/report-model.ts';
import { REPORT_CSS } from '../../../electron/shared/report/report-css.ts';
import { ReportView } from '../../../electron/shared/report/report-view.ts';
import { EmptyState, PageHeader } from '../components/common.tsx';
import { SaveReport } from '../components/save-report.tsx';
import { useCompare, useReport, useSystem } from '../stores/index.ts';

export function ReportPage() {
  const { refs, records, unit, loading } = useCompare((s) => s);
  const paper = useReport((s) => s.paper);
  const ciphers = useSystem((s) => s.ciphers);
  const stores = useStoresApi();
  useEffect(() => {
    void stores.system.getState().loadCiphers(false);
  }, [stores]);
  const doc = useMemo(() => {
    if (records.length === 0) return null;
    try {
      return buildReport(records, { generatedAt: new Date(), paper, unit, ceilings: ciphers });
    } catch (error) {
      if (error instanceof ReportInputError) return null;
      throw error;
    }
  }, [records, paper, unit, ciphers]);
  return (
    <>
      <PageHeader title="Report" className="report-route">
        <a href="#/compare">Back to Compare</a>
      </PageHeader>
      {doc ? (
        <>
          <SaveReport runs={refs} unit={unit} />
          <style>{REPORT_CSS}</style>
          <div className="report-preview" data-testid="report-preview">
            <ReportView doc={doc} />
          </div>
        </>
      ) : loading ? (
        <p aria-live="polite">Loading…</p>
      ) : (
        <EmptyState title="No runs to report on">
          <p>
            Pick the runs on <a href="#/compare">Compare</a> (the old disk first, then the new one); the report shows them here, ready to
            save as a PDF.
          </p>
        </EmptyState>
      )}
    </>
  );
}
