import { memo, useCallback, useDeferredValue, useEffect, useMemo, type ReactNode } from 'react';
import { THROUGHPUT_UNITS, throughputLabel, type ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import { ChartGrid, ChartPickers } from '../charts/chart-view.ts';
import { EmptyState, ErrorNote, formatDate, PageHeader, SERIES_COLORS, TableScroll, WarningList } from '../components/common.tsx';
import { SaveReport } from '../components/save-report.tsx';
import { useCompare, useLibrary } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { CompareEncryption } from './compare-encryption.tsx';
import { wholeText } from '../../../electron/shared/report/whole-text.ts';
import { unbrokenLabel } from '../../../electron/shared/model/whole-tokens.ts';
import { MAX_COMPARED, pickerColumns, runsByKind, sameRef } from '../stores/compare.ts';
import { buildCompareView, type CompareView } from '../../../electron/shared/charts/compare-view.ts';
import { AUTO_LOG_SPREAD, type ScaleMode } from '../../../electron/shared/charts/chart-scale.ts';

const SCALES: ReadonlyArray<[ScaleMode, string]> = [
  ['auto', 'Auto'],
  ['linear', 'Linear'],
  ['log', 'Logarithmic'],
];

export function ComparePage() {
  const stores = useStoresApi();
  const { refs, records, references, unit, scale, loading, error } = useCompare((s) => s);
  const libraryRuns = useLibrary((s) => s.runs);
  const columns = useMemo(() => pickerColumns(libraryRuns, references), [libraryRuns, references]);
  useEffect(() => {
    void stores.library.getState().load();
    void stores.compare.getState().loadReferences();
  }, [stores]);
  const view = useMemo(() => (records.length >= 2 ? buildCompareView(records, unit) : null), [records, unit]);
  const c = stores.compare.getState;

  return (
    <>
      <PageHeader title="Compare" />
      <section aria-labelledby="pick-h" className="picker">
        <h2 id="pick-h">
          Runs to compare{' '}
          <span className="muted">
            ({refs.length} of 2–{MAX_COMPARED}; the first one picked is the baseline)
          </span>
        </h2>
        <div className="pick-columns">
          <fieldset>
            <legend>Your runs</legend>
            {columns.own.length === 0 ? (
              <p className="muted">
                None yet: <a href="#/new">measure</a> or <a href="#/library">import</a> some.
              </p>
            ) : null}
            {/* Comparable runs together (#39): disks with disks, each kind of experiment with its own. */}
            {runsByKind(columns.own).map(({ kind, title, runs: ofKind }) => {
              return (
                <div key={kind} className="pick-group" data-testid={`pick-group-${kind}`}>
                  <h3 className="muted">{title}</h3>
                  {ofKind.map((r) => {
                    const ref = { kind: 'run' as const, id: r.id };
                    const index = refs.findIndex((x) => sameRef(x, ref));
                    return (
                      <PickBox
                        key={r.id}
                        index={index}
                        full={refs.length >= MAX_COMPARED}
                        onToggle={() => c().toggle(ref)}
                        testId="pick-run"
                      >
                        {r.label || `run ${r.id}`}{' '}
                        <span className="muted">
                          · {formatDate(r.createdAt)} · {r.source}
                        </span>
                      </PickBox>
                    );
                  })}
                </div>
              );
            })}
          </fieldset>
          <fieldset>
            <legend>Reference runs (published figures)</legend>
            {columns.references.length === 0 ? <p className="muted">No reference runs are available in this build.</p> : null}
            {columns.references.map((choice) => {
              const index = refs.findIndex((x) => choice.refs.some((r) => sameRef(x, r)));
              const key = choice.refs.map((r) => (r.kind === 'run' ? `run:${r.id}` : `ref:${r.key}`)).join(',');
              return (
                <PickBox
                  key={key}
                  index={index}
                  full={refs.length >= MAX_COMPARED}
                  onToggle={() => c().toggleChoice(choice.refs)}
                  testId="pick-reference"
                >
                  {choice.label}{' '}
                  <span className="muted">· reference{choice.refs.some((r) => r.kind === 'run') ? ', also in your library' : ''}</span>
                </PickBox>
              );
            })}
          </fieldset>
        </div>
      </section>
      <ErrorNote error={error} what="Loading the runs" />
      {refs.length < 2 ? (
        <EmptyState title="Pick at least two runs">
          <p>
            Tick two to six runs above, for example the old disk and the new one. Reference runs (the 2011 laptop HDD vs SSD vs SSD +
            dm-crypt) can be mixed with yours.
          </p>
        </EmptyState>
      ) : null}
      {loading && !view ? <p aria-live="polite">Loading…</p> : null}
      {view ? (
        <section aria-labelledby="report-h" className="report-actions">
          <h2 id="report-h">
            Report <span className="muted">(what changed in words, the charts, every figure and how it was measured)</span>
          </h2>
          <div className="actions">
            <SaveReport runs={refs} unit={unit} formats={['pdf']} />
            <a href="#/report">Open the report view</a>
          </div>
        </section>
      ) : null}
      {view ? <CompareBody view={view} records={records} unit={unit} scale={scale} /> : null}
    </>
  );
}

/** One tickable run in the picker: a ticked one shows its series colour and number (#1 is the baseline). */
function PickBox(props: { index: number; full: boolean; onToggle: () => void; testId: string; children: ReactNode }) {
  const { index, full, onToggle, testId, children } = props;
  return (
    <label className="check">
      <input type="checkbox" checked={index >= 0} disabled={index < 0 && full} onChange={onToggle} data-testid={testId} />
      {index >= 0 ? (
        <span className="swatch" style={{ background: SERIES_COLORS[index] }}>
          #{index + 1}
        </span>
      ) : null}
      <span>{children}</span>
    </label>
  );
}

function CompareBody({ view, records, unit, scale }: { view: CompareView; records: RunRecord[]; unit: ThroughputUnit; scale: ScaleMode }) {
  const stores = useStoresApi();
  const c = stores.compare.getState;
  const picks = useCompare((s) => s.chartPicks);
  const onPick = useCallback((type: string, id: string) => c().pickChart(type, id), [c]);
  const runs = view.comparison.runs;
  // One stable array per comparison, so the memoised charts skip work when only other props change.
  const labels = useMemo(() => runs.map((r) => r.label), [runs]);
  // What lies below the first screen (the encryption section, the tables, the per-test charts)
  // follows the grid a moment later: React renders it after the first screen is painted, in
  // slices that let frames through, so ticking a run shows its bars at once (issue 22, item 9).
  const now = useMemo(() => ({ view, records, unit, scale, labels }), [view, records, unit, scale, labels]);
  const later = useDeferredValue(now);

  return (
    <div data-testid="compare-view">
      <div className="toolbar" role="group" aria-label="Display">
        <fieldset className="segmented">
          <legend>Units</legend>
          {THROUGHPUT_UNITS.map((u) => (
            <label key={u}>
              <input type="radio" name="unit" value={u} checked={unit === u} onChange={() => c().setUnit(u)} />
              <span>{throughputLabel(u)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="segmented">
          <legend>Scale</legend>
          {SCALES.map(([mode, text]) => (
            <label key={mode}>
              <input
                type="radio"
                name="scale"
                value={mode}
                checked={scale === mode}
                onChange={() => c().setScale(mode)}
                aria-describedby={mode === 'auto' ? 'scale-auto-hint' : undefined}
              />
              <span>{text}</span>
            </label>
          ))}
        </fieldset>
      </div>
      {/* Said as text, where a title tooltip on "Auto" reached only a mouse. */}
      <p className="hint" id="scale-auto-hint" data-testid="scale-auto-hint">
        Auto scale: a log axis where a chart&apos;s bars span ×{AUTO_LOG_SPREAD} or more, so every disk stays visible.
      </p>
      <ol className="legend" aria-label="Compared runs">
        {runs.map((r, i) => (
          <li key={i}>
            <span className="swatch" style={{ background: SERIES_COLORS[i] }}>
              #{i + 1}
            </span>
            <strong>{r.label || '(no label)'}</strong>{' '}
            <span className="muted">
              {r.device ? `· ${r.device} ` : ''}· {r.source} · {r.engine}
              {i === 0 ? ' · baseline' : ''}
            </span>
            {view.warnings[i]!.warnings.length > 0 ? <WarningDetails warnings={view.warnings[i]!.warnings} /> : null}
          </li>
        ))}
      </ol>
      {view.comparison.notes.length > 0 ? (
        <ul className="notes">
          {view.comparison.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}

      <ChartGrid registry={CHARTS} charts={view.charts} labels={labels} scale={scale} />
      <BelowCharts {...later} picks={picks} onPick={onPick} />
    </div>
  );
}

interface BelowProps {
  view: CompareView;
  records: RunRecord[];
  unit: ThroughputUnit;
  scale: ScaleMode;
  labels: string[];
  picks: Record<string, string>;
  onPick: (type: string, chartId: string) => void;
}

/** Everything under the chart grid; memoised, so a render for the grid alone skips it. */
const BelowCharts = memo(function BelowCharts({ view, records, unit, scale, labels, picks, onPick }: BelowProps) {
  const runs = view.comparison.runs;
  return (
    <>
      <CompareEncryption records={records} unit={unit} scale={scale} />

      <section aria-labelledby="speedup-h" className="below-fold">
        <h2 id="speedup-h">Speed-up against #1 ({runs[0]?.label || 'baseline'})</h2>
        <TableScroll label="Speed-ups">
          {/* A column per run: at a phone's width a row per block, each figure under its run's name
              (.stack-narrow), where three runs' columns scrolled sideways. */}
          <table className="speedups stack-narrow" data-testid="speedup-table" role="table" aria-label="Speed-ups">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  Test
                </th>
                {runs.map((r, i) => (
                  <th scope="col" role="columnheader" key={i}>
                    <span className="swatch" style={{ background: SERIES_COLORS[i] }}>
                      #{i + 1}
                    </span>{' '}
                    {wholeText(r.label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {view.speedups.map((row) => (
                <tr key={`${row.test}:${row.metric}`} role="row">
                  <th scope="row" role="rowheader">
                    {wholeText(row.testTitle)}
                    <span className="muted"> · {wholeText(row.metricLabel)}</span>
                  </th>
                  {row.cells.map((cell, i) => {
                    const warnings = view.warnings[i]!.warnings.filter((w) => w.test === row.test);
                    return (
                      <td
                        key={i}
                        role="cell"
                        data-label={unbrokenLabel(`#${i + 1} ${runs[i]?.label ?? ''}`)}
                        className={deltaClass(cell.vsBaseline)}
                      >
                        <span className="value">{wholeText(cell.display)}</span>
                        {cell.vsBaseline ? <DeltaDetails delta={cell.vsBaseline} /> : null}
                        {warnings.length > 0 ? <WarningDetails warnings={warnings} /> : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <ChartPickers registry={CHARTS} charts={view.charts} labels={labels} scale={scale} picks={picks} onPick={onPick} />

      <section aria-labelledby="warn-h" className="below-fold">
        <h2 id="warn-h">Warnings</h2>
        {view.warnings.every((w) => w.warnings.length === 0) ? <p className="muted">No run carries a warning.</p> : null}
        {view.warnings
          .filter((w) => w.warnings.length > 0)
          .map((w) => (
            <div key={w.runIndex}>
              <h3>
                <span className="swatch" style={{ background: SERIES_COLORS[w.runIndex] }}>
                  #{w.runIndex + 1}
                </span>{' '}
                {w.label}
              </h3>
              <WarningDetails warnings={w.warnings} />
            </div>
          ))}
      </section>
    </>
  );
});

/**
 * A run's or a figure's warnings behind a "⚠ 2 warnings" disclosure: opened by a click, a tap or
 * the keyboard and read by a screen reader, where a title tooltip reached only a mouse.
 */
function WarningDetails({ warnings }: { warnings: Array<{ code: string; message: string; test?: string | null }> }) {
  return (
    <details className="warn-details" data-testid="warn-details">
      <summary className="warn-count">
        <span aria-hidden="true">⚠ </span>
        {warnings.length} {warnings.length === 1 ? 'warning' : 'warnings'}
      </summary>
      <WarningList warnings={warnings} />
    </details>
  );
}

/**
 * A speed-up's ratio, opening to its percent change and whether it is beyond the runs' spread
 * (why it is green, red or plain): by a click, a tap or the keyboard, where a title tooltip
 * reached only a mouse.
 */
function DeltaDetails({ delta }: { delta: { ratioText: string; percentText: string; spreadReason: string } }) {
  return (
    <details className="delta-details" data-testid="delta-details">
      <summary className="ratio">{delta.ratioText}</summary>
      <p>
        {delta.percentText}; {delta.spreadReason}
      </p>
    </details>
  );
}

/**
 * Green or red only for a change that can be told from noise: not for one inside the runs'
 * own spread, nor for one that rounds to ×1.00.
 */
function deltaClass(delta: { verdict: string | null; beyondSpread: string; ratioText: string } | null): string | undefined {
  if (!delta || delta.verdict === null) return undefined;
  if (delta.beyondSpread === 'no' || delta.ratioText === '×1.00') return 'same';
  return delta.verdict;
}
