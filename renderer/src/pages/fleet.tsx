// The Fleet page (issue #26): many machines measured by `diskdelta fleet run` or imported from
// a fio --client JSON file, one run per host. Which measurements to look at, the fleet's median
// and 10th/90th percentiles, the hosts outside the fleet's fences, each host's row and verdict,
// and the fleet report. Every text comes from the fleet report's document
// (shared/report/fleet-report-model.ts), so the page and the printed report say the same.
import { useMemo, useRef, useState, type ChangeEvent, type CSSProperties } from 'react';
import { buildFleetReport, FLEET_CHART_LEGEND } from '../../../electron/shared/report/fleet-report-model.ts';
import type { Paper } from '../../../electron/shared/report/paper.ts';
import { SaveControls } from '../components/save-report.tsx';
import { EmptyState, ErrorNote, formatDate, PageHeader, TableScroll } from '../components/common.tsx';
import { downloadFile } from '../components/download.ts';
import { PlotChartView } from '../charts/plot-chart-view.ts';
import { SERIES_COLORS } from '../../../electron/shared/charts/colors.ts';
import { useCompare, useFleet } from '../stores/index.ts';
import type { LibraryState } from '../stores/library.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { bytesToBase64 } from '../view/base64.ts';

const STATS_COLUMNS = ['Figure', 'Hosts', '10th percentile', 'Median', '90th percentile'] as const;

export function FleetPage() {
  const stores = useStoresApi();
  const { groups, chosen, fleet, loaded, loading, error, saving } = useFleet((s) => s);
  const unit = useCompare((s) => s.unit);
  const [importing, setImporting] = useState(false);
  // This page's own imports' outcomes (the Library page keeps its own).
  const [imported, setImported] = useState<Awaited<ReturnType<LibraryState['importFiles']>>>([]);
  const [paper, setPaper] = useState<Paper>('a4');
  const fileInput = useRef<HTMLInputElement>(null);
  // No load of its own on mount: the app asks for the fleet when the route becomes this page
  // (app.tsx), while this page's code is still loading.
  const doc = useMemo(() => (fleet ? buildFleetReport(fleet, { generatedAt: new Date(), unit }) : null), [fleet, unit]);

  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    if (files.length === 0) return;
    setImporting(true);
    const outcomes = await stores.library
      .getState()
      .importFiles(
        files.map((f) => ({ name: f.name, sizeBytes: f.size, read: async () => bytesToBase64(new Uint8Array(await f.arrayBuffer())) })),
      );
    setImported(outcomes);
    setImporting(false);
    await stores.fleet.getState().load();
  };
  const save = async (format: 'pdf' | 'html') => {
    const file = await stores.fleet.getState().saveReport(format, paper, unit);
    if (file) downloadFile(file.fileName, file.mimeType, file.bytes);
  };
  const isChosen = (key: string) => chosen === null || chosen.includes(key);
  const importErrors = imported.filter((o) => o.error);

  return (
    <>
      <PageHeader title="Fleet">
        {/* Hidden, not merely out of sight: the button opens it, so it is no tab stop of its own. */}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          accept=".json,application/json"
          onChange={(e) => void onPick(e)}
          data-testid="fleet-import-input"
        />
        <button onClick={() => !importing && fileInput.current?.click()} aria-disabled={importing}>
          {importing ? 'Importing…' : 'Import fio --client JSON…'}
        </button>
      </PageHeader>
      <p className="hint">
        Many machines at once: <code>diskdelta fleet run --hosts FILE --folder DIR</code> measures every host running{' '}
        <code>fio --server</code> (reach them through <code>ssh -L</code>: the server has no authentication), or import the JSON of a{' '}
        <code>fio --client</code> run. Each host becomes its own run.
      </p>
      <ErrorNote error={error} what="The fleet" />
      {importErrors.map((o) => (
        <div key={o.fileName} className="banner error" role="alert">
          <strong>{o.fileName} was not imported.</strong> {o.error?.message}
        </div>
      ))}
      {loaded && groups.length === 0 ? (
        <EmptyState title="No fleet runs yet">
          <p>
            Run <code>diskdelta fleet run</code> from a terminal, or import a <code>fio --client</code> JSON file with the button above: one
            row per host appears here with the fleet's median and percentiles.
          </p>
        </EmptyState>
      ) : null}
      {groups.length > 0 ? (
        <fieldset className="fleet-groups" data-testid="fleet-groups">
          <legend>Fleet measurements to include</legend>
          <p className="hint">Where a host was measured more than once, its newest run stands for it.</p>
          <ul>
            {groups.map((g) => (
              <li key={g.key}>
                <label>
                  <input type="checkbox" checked={isChosen(g.key)} onChange={() => void stores.fleet.getState().toggle(g.key)} />{' '}
                  {formatDate(g.createdAt)} · {g.hosts} host{g.hosts === 1 ? '' : 's'}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ) : null}
      {loading && !doc ? <p aria-live="polite">Loading…</p> : null}
      {groups.length > 0 && !fleet && !loading ? <p className="muted">No measurement chosen: tick one above.</p> : null}
      {doc ? (
        <div className="fleet" data-testid="fleet-view">
          <section aria-labelledby="fleet-summary-h">
            <h2 id="fleet-summary-h">Summary</h2>
            <p className="lead" data-testid="fleet-summary">
              {doc.summary}
            </p>
            <p className="banner warn" role="note" data-testid="fleet-spread-note">
              <strong>One fio run per test: no spread.</strong> {doc.spreadNote.replace(/^One fio run per test: no spread\. /, '')}
            </p>
          </section>
          <section aria-labelledby="fleet-stats-h">
            <h2 id="fleet-stats-h">The fleet</h2>
            <TableScroll label="The fleet's percentiles">
              {/* Explicit roles: at a phone's width its rows are blocks (.stack-narrow) and still a table. */}
              <table data-testid="fleet-stats" className="stack-narrow" role="table" aria-labelledby="fleet-stats-h">
                <thead role="rowgroup">
                  <tr role="row">
                    {STATS_COLUMNS.map((heading) => (
                      <th key={heading} scope="col" role="columnheader">
                        {heading}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody role="rowgroup">
                  {doc.stats.map((s) => (
                    <tr key={s.figure} role="row">
                      <th scope="row" role="rowheader">
                        {s.figure}
                      </th>
                      {[s.hosts, s.p10, s.median, s.p90].map((value, i) => (
                        <td key={i} role="cell" className="num" data-label={STATS_COLUMNS[i + 1]}>
                          {value}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <ol className="legend" aria-label="The bars of each figure">
              {FLEET_CHART_LEGEND.map((name, i) => (
                <li key={name}>
                  <span className="swatch" style={{ background: SERIES_COLORS[i] }}>
                    #{i + 1}
                  </span>
                  {name} of the hosts
                </li>
              ))}
            </ol>
            <div className="chart-grid">
              {doc.charts.map((chart) => (
                // On Compare's rule, as the fleet report draws them ('auto'): the page and the paper agree.
                <PlotChartView key={chart.id} chart={chart} labels={[...FLEET_CHART_LEGEND]} scale="auto" heading="h3" />
              ))}
            </div>
          </section>
          <section aria-labelledby="fleet-outliers-h">
            <h2 id="fleet-outliers-h">Outliers</h2>
            {doc.outliers.length > 0 ? (
              <ul className="notes" data-testid="fleet-outliers">
                {doc.outliers.map((o) => (
                  <li key={o}>{o}</li>
                ))}
              </ul>
            ) : (
              <p>No host lies outside the fleet's fences (1.5 × the interquartile range, on a log scale) on any figure.</p>
            )}
          </section>
          <section aria-labelledby="fleet-hosts-h">
            <h2 id="fleet-hosts-h">Every host ({doc.hosts.length})</h2>
            <TableScroll label="Every host" tall>
              {/* A table whose rows are laid out on their own (styles.css, "Every host"): the
                  explicit roles keep it a table to assistive technology whatever the CSS display. */}
              <table
                data-testid="fleet-hosts"
                className="fleet-hosts stack-narrow"
                role="table"
                aria-labelledby="fleet-hosts-h"
                style={hostColumnWidths(doc)}
              >
                <thead role="rowgroup">
                  <tr role="row">
                    {['Host', 'Device', 'Disk (from the figures)', ...doc.columns, 'Outlier', 'Verdict'].map((heading) => (
                      <th key={heading} scope="col" role="columnheader">
                        {heading}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody role="rowgroup">
                  {doc.hosts.map((r) => (
                    <tr key={r.host} role="row" className={r.outliers ? 'outlier' : undefined}>
                      <th scope="row" role="rowheader">
                        {r.host}
                      </th>
                      <td role="cell" data-label="Device">
                        {r.device}
                      </td>
                      <td role="cell" data-label="Disk">
                        {r.disk}
                      </td>
                      {r.figures.map((f, i) => (
                        <td key={i} role="cell" className="num" data-label={doc.columns[i]}>
                          {f}
                        </td>
                      ))}
                      <td role="cell" data-label="Outlier">
                        {r.outliers ? <strong>{r.outliers}</strong> : '—'}
                      </td>
                      <td role="cell" data-label="Verdict">
                        {r.verdict}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            {doc.superseded.length > 0 ? (
              <p className="muted">Measured more than once (the newest run is used): {doc.superseded.join(', ')}</p>
            ) : null}
          </section>
          <div className="save-report">
            <SaveControls
              label="Save the fleet report"
              paper={paper}
              onPaper={setPaper}
              saving={saving}
              onSave={(f) => void save(f)}
              what="fleet "
            />
          </div>
        </div>
      ) : null}
    </>
  );
}

/**
 * The hosts table's column widths, from its longest texts. Each row is a grid of its own (no
 * table layout measures every cell: styles.css, "Every host"), so the columns cannot grow to
 * their content: a fixed least width let "175,958 IOPS" run into the next cell's figure and
 * "nvme0n1" into "SSD". The longest text of each column that must stay on one line, counted in
 * characters here (no layout needed, whatever the number of hosts), gives its least width.
 */
function hostColumnWidths(doc: NonNullable<ReturnType<typeof buildFleetReport>>): CSSProperties {
  const longest = (texts: readonly string[]) => texts.reduce((most, t) => Math.max(most, t.length), 0);
  return {
    '--fleet-figures': doc.columns.length,
    '--fleet-host-ch': longest(doc.hosts.map((r) => r.host)),
    '--fleet-device-ch': longest(doc.hosts.map((r) => r.device)),
    '--fleet-figure-ch': longest(doc.hosts.flatMap((r) => r.figures)),
  } as CSSProperties;
}
