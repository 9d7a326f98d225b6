// How big an SSD do I need: scan a folder (the worker's working-set verb through the usual run
// machinery, so it is kept in the library like any run), then the windows, the largest folders
// and the verdict against the SSD size typed in; the kept scans side by side (this month
// against last). The tables are the report's own (report/working-set-view.ts).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ErrorNote, formatDate, PageHeader, WarningList } from '../components/common.tsx';
import { useRuns, useSystem, useWorkingSet } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { WorkingSetTables } from '../../../electron/shared/report/working-set-view.ts';
import {
  formatDiskSize,
  summaryOfResult,
  VERDICT_DAYS,
  windowOf,
  workingSetVerdict,
  WORKING_SET_TEST,
} from '../../../electron/shared/analysis/working-set.ts';

const NO_SUGGESTIONS: string[] = [];
const HISTORY_COLUMNS = ['run', 'folder', 'scanned', 'stored', `touched within ${VERDICT_DAYS}\u00a0days`] as const;

export function WorkingSetPage() {
  const stores = useStoresApi();
  const scans = useWorkingSet((s) => s.scans);
  const loadError = useWorkingSet((s) => s.error);
  const ssdGb = useWorkingSet((s) => s.ssdGb);
  const suggestions = useSystem((s) => s.overview?.suggestedTargets ?? NO_SUGGESTIONS);
  const startError = useRuns((s) => s.startError);
  const current = useRuns((s) => (s.currentRunId ? s.runs[s.currentRunId] : undefined));
  const [target, setTarget] = useState('');
  const [scanId, setScanId] = useState<string | null>(null);
  const ids = { target: useId(), targets: useId(), ssd: useId() };
  useEffect(() => {
    void stores.workingSet.getState().load();
    if (!stores.system.getState().overview) void stores.system.getState().load();
  }, [stores]);
  const scanning =
    current && current.runId === scanId && (current.status === 'running' || current.status === 'cancelling') ? current : null;
  const failed = current && current.runId === scanId && current.status === 'failed' ? current.error : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const folder = target.trim();
    if (!folder) return;
    const runId = await stores.runs.getState().start({ target: folder, tests: [WORKING_SET_TEST], label: `working set of ${folder}` });
    setScanId(runId);
  };
  const ssdBytes = ssdGb ? ssdGb * 1e9 : undefined;
  const newest = scans[0];
  const newestSummary = newest ? summaryOfResult(newest.results.find((r) => r.test === WORKING_SET_TEST)!) : null;

  return (
    <>
      <PageHeader title="Working set" />
      <p className="lead">
        How big an SSD do you need? DiskDelta lists the folder you choose (it reads no file and needs no administrator rights) and adds up
        the bytes you last read or wrote within a day, a week, a month, 90 days and a year.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label htmlFor={ids.target}>Folder to scan</label>
        <div className="row">
          <input
            id={ids.target}
            name="target"
            list={ids.targets}
            value={target}
            required
            placeholder="/home/me"
            autoComplete="off"
            onChange={(e) => setTarget(e.target.value)}
          />
          <button type="submit" className="primary" disabled={scanning !== null}>
            {scanning ? 'Scanning…' : 'Scan'}
          </button>
        </div>
        <datalist id={ids.targets}>
          {suggestions.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <p className="hint">One filesystem at a time: other mounts inside it and folders you may not read are named, not walked.</p>
        <label htmlFor={ids.ssd}>SSD you consider (GB)</label>
        <input
          id={ids.ssd}
          name="ssd"
          type="number"
          min={1}
          step="any"
          inputMode="decimal"
          placeholder="256"
          value={ssdGb ?? ''}
          onChange={(e) =>
            stores.workingSet.getState().setSsdGb(e.target.value === '' ? null : Math.max(0, Number(e.target.value)) || null)
          }
        />
      </form>
      {scanning ? (
        <div className="progress" role="status" data-testid="working-set-progress">
          <progress max={1} value={scanning.progress?.fraction ?? 0} aria-label="Scan progress" /> Scanning {scanning.spec.target}…{' '}
          <span className="muted">(the bar runs against the filesystem's used inodes, so it may end early)</span>
        </div>
      ) : null}
      <ErrorNote error={startError ?? failed} what="The scan" />
      <ErrorNote error={loadError} what="The kept scans" />
      {newest && newestSummary ? (
        <section aria-labelledby="ws-verdict" data-testid="working-set-verdict">
          <h2 id="ws-verdict">Verdict</h2>
          <p className="verdict">{workingSetVerdict(newestSummary, ssdBytes)}</p>
          <WorkingSetTables summary={newestSummary} caption={`${newest.target.path}, scanned ${formatDate(newest.createdAt)}`} />
          <WarningList warnings={newest.results.flatMap((r) => r.warnings)} label="What the scan could not see" />
        </section>
      ) : (
        <p className="muted">No scan kept yet: scan a folder above.</p>
      )}
      {scans.length > 1 ? (
        <section aria-labelledby="ws-history">
          <h2 id="ws-history">Kept scans</h2>
          {/* Explicit roles: at a phone's width its rows are blocks (.stack-narrow) and still a table. */}
          <table className="working-set-history stack-narrow" data-testid="working-set-history" role="table" aria-labelledby="ws-history">
            <thead role="rowgroup">
              <tr role="row">
                {HISTORY_COLUMNS.map((heading) => (
                  <th key={heading} scope="col" role="columnheader">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {scans.map((r) => {
                const s = summaryOfResult(r.results.find((x) => x.test === WORKING_SET_TEST)!);
                return (
                  <tr key={r.id} role="row">
                    <th scope="row" role="rowheader">
                      #{r.id}
                    </th>
                    <td role="cell" data-label={HISTORY_COLUMNS[1]}>
                      <code>{r.target.path}</code>
                    </td>
                    <td role="cell" data-label={HISTORY_COLUMNS[2]}>
                      {formatDate(r.createdAt)}
                    </td>
                    <td role="cell" className="num" data-label={HISTORY_COLUMNS[3]}>
                      {s ? formatDiskSize(s.totalBytes) : '—'}
                    </td>
                    <td role="cell" className="num" data-label={HISTORY_COLUMNS[4]}>
                      {s ? formatDiskSize(windowOf(s, VERDICT_DAYS).touchedBytes) : '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="hint">Compare any two in Compare or a report: every window is a figure of the run.</p>
        </section>
      ) : null}
    </>
  );
}
