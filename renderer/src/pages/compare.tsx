import { memo, useEffect, useId, useMemo, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { useWidth } from '../components/use-width.ts';
import {
  THROUGHPUT_UNITS,
  formatLatency,
  formatNumber,
  formatTick,
  throughputLabel,
  type ThroughputUnit,
} from '../../../electron/core/analysis/units.ts';
import type { RunRecord } from '../../../electron/core/model/results.ts';
import { EmptyState, ErrorNote, formatDate, PageHeader, SERIES_COLORS, WarningList } from '../components/common.tsx';
import { SaveReport } from '../components/save-report.tsx';
import { useCompare, useLibrary } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { CompareEncryption } from './compare-encryption.tsx';
import { MAX_COMPARED, pickerColumns, sameRef } from '../stores/compare.ts';
import {
  AUTO_LOG_SPREAD,
  buildCompareView,
  chartDomain,
  chooseScale,
  labelLayout,
  labelRoomPx,
  latencyPercentiles,
  latencyTests,
  logDomain,
  seriesFor,
  testTitle,
  wrapTickLabel,
  type BarGroup,
  type BarLabelText,
  type CompareView,
  type PercentileRow,
  type ScaleMode,
  type SeriesLine,
} from '../view/compare-view.ts';

const SCALES: ReadonlyArray<[ScaleMode, string]> = [
  ['auto', 'Auto'],
  ['linear', 'Linear'],
  ['log', 'Logarithmic'],
];

const tooltipStyle = { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' };

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
            {columns.own.map((r) => {
              const ref = { kind: 'run' as const, id: r.id };
              const index = refs.findIndex((x) => sameRef(x, ref));
              return (
                <PickBox key={r.id} index={index} full={refs.length >= MAX_COMPARED} onToggle={() => c().toggle(ref)} testId="pick-run">
                  {r.label || `run ${r.id}`}{' '}
                  <span className="muted">
                    · {formatDate(r.createdAt)} · {r.source}
                  </span>
                </PickBox>
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
  const seriesTestChoice = useCompare((s) => s.seriesTest);
  const latencyTestChoice = useCompare((s) => s.latencyTest);
  const ids = { series: useId(), latency: useId() };
  const seriesTest = seriesTestChoice && view.seriesTests.includes(seriesTestChoice) ? seriesTestChoice : (view.seriesTests[0] ?? null);
  const latTests = useMemo(() => latencyTests(records), [records]);
  const latencyTest = latencyTestChoice && latTests.includes(latencyTestChoice) ? latencyTestChoice : (latTests[0] ?? null);
  const series = useMemo(() => (seriesTest ? seriesFor(records, seriesTest, unit) : []), [records, seriesTest, unit]);
  const percentiles = useMemo(() => (latencyTest ? latencyPercentiles(records, latencyTest) : []), [records, latencyTest]);
  const runs = view.comparison.runs;
  // One stable array per comparison, so the memoised charts skip work when only other props change.
  const labels = useMemo(() => runs.map((r) => r.label), [runs]);

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
            <label
              key={mode}
              title={
                mode === 'auto'
                  ? `a log axis where a chart's bars span ×${AUTO_LOG_SPREAD} or more, so every disk stays visible`
                  : undefined
              }
            >
              <input type="radio" name="scale" value={mode} checked={scale === mode} onChange={() => c().setScale(mode)} />
              <span>{text}</span>
            </label>
          ))}
        </fieldset>
      </div>
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
            {view.warnings[i]!.warnings.length > 0 ? (
              <span className="warn-count" title={view.warnings[i]!.warnings.map((w) => w.message).join('\n')}>
                {' '}
                ⚠ {view.warnings[i]!.warnings.length}
              </span>
            ) : null}
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

      <div className="chart-grid">
        {view.bars.map((group) => (
          <BarGroupChart key={group.id} group={group} labels={labels} scale={scale} />
        ))}
      </div>
      {view.bars.length === 0 ? <p className="muted">These runs share no throughput, IOPS or workload figures to chart.</p> : null}
      <CompareEncryption records={records} unit={unit} scale={scale} />

      <section aria-labelledby="speedup-h" className="below-fold">
        <h2 id="speedup-h">Speed-up against #1 ({runs[0]?.label || 'baseline'})</h2>
        <table className="speedups" data-testid="speedup-table">
          <thead>
            <tr>
              <th scope="col">Test</th>
              {runs.map((r, i) => (
                <th scope="col" key={i}>
                  <span className="swatch" style={{ background: SERIES_COLORS[i] }}>
                    #{i + 1}
                  </span>{' '}
                  {r.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.speedups.map((row) => (
              <tr key={`${row.test}:${row.metric}`}>
                <th scope="row">
                  {row.testTitle}
                  <span className="muted"> · {row.metricLabel}</span>
                </th>
                {row.cells.map((cell, i) => {
                  const warnings = view.warnings[i]!.warnings.filter((w) => w.test === row.test);
                  return (
                    <td key={i} className={deltaClass(cell.vsBaseline)}>
                      <span className="value">{cell.display}</span>
                      {cell.vsBaseline ? (
                        <span className="ratio" title={`${cell.vsBaseline.percentText}; ${cell.vsBaseline.spreadReason}`}>
                          {' '}
                          {cell.vsBaseline.ratioText}
                        </span>
                      ) : null}
                      {warnings.length > 0 ? (
                        <span
                          className="warn-count"
                          title={warnings.map((w) => w.message).join('\n')}
                          aria-label={`${warnings.length} warnings: ${warnings.map((w) => w.message).join(' ')}`}
                        >
                          {' '}
                          ⚠
                        </span>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="lat-h" className="below-fold">
        <h2 id="lat-h">Latency percentiles</h2>
        {latencyTest ? (
          <>
            <label htmlFor={ids.latency}>Test </label>
            <select id={ids.latency} value={latencyTest} onChange={(e) => c().setLatencyTest(e.target.value)}>
              {latTests.map((t) => (
                <option key={t} value={t}>
                  {testTitle(t)}
                </option>
              ))}
            </select>
            <LatencyChart data={percentiles} labels={labels} scale={scale} />
          </>
        ) : (
          <p className="muted">None of these runs reports latency percentiles (imports from bonnie++ carry none).</p>
        )}
      </section>

      <section aria-labelledby="series-h" className="below-fold">
        <h2 id="series-h">Throughput over time ({throughputLabel(unit)})</h2>
        {seriesTest ? (
          <>
            <label htmlFor={ids.series}>Test </label>
            <select id={ids.series} value={seriesTest} onChange={(e) => c().setSeriesTest(e.target.value)}>
              {view.seriesTests.map((t) => (
                <option key={t} value={t}>
                  {testTitle(t)}
                </option>
              ))}
            </select>
            <SeriesChart series={series} labels={labels} unitLabel={throughputLabel(unit)} scale={scale} />
          </>
        ) : (
          <p className="muted">No time series in these runs (imports carry none; DiskDelta's own runs do).</p>
        )}
      </section>

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
              <WarningList warnings={w.warnings} />
            </div>
          ))}
      </section>
    </div>
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

interface BarShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  fill?: string;
  value?: unknown;
  payload?: { test?: string; title?: string };
}

/** Bars as plain rects that say what they show, so tests (and screen readers) can find them. */
function barShape(runIndex: number, group: BarGroup['id']) {
  return function BarShape(props: BarShapeProps) {
    const { x = 0, y = 0, width = 0, height = 0, fill } = props;
    const value = (Array.isArray(props.value) ? props.value[1] : props.value) as number | undefined;
    return (
      <rect
        x={x}
        y={y}
        width={Math.max(0, width)}
        height={Math.max(0, height)}
        fill={fill}
        data-testid="bar"
        data-group={group}
        data-run={runIndex}
        data-test={props.payload?.test}
        data-title={props.payload?.title}
        data-value={typeof value === 'number' ? value : undefined}
      />
    );
  };
}

// The charts have no recharts <Legend>: the numbered, coloured list of runs above them is the
// legend (one for all charts, readable by screen readers), and recharts' legends re-measure
// the page on every update, which made Compare miss its 200 ms budget.

const BarGroupChart = memo(function BarGroupChart({ group, labels, scale }: { group: BarGroup; labels: string[]; scale: ScaleMode }) {
  const [box, width] = useWidth<HTMLDivElement>();
  const keys = useMemo(() => labels.map((_, i) => `r${i}`), [labels]);
  const shapes = useMemo(() => labels.map((_, i) => barShape(i, group.id)), [labels, group.id]);
  const choice = useMemo(() => chooseScale(group.data, keys, scale), [group.data, keys, scale]);
  const band = width ? (width - 80 - 24) / Math.max(1, group.data.length) : 0;
  const tickLines = Math.max(1, ...group.data.map((d) => wrapTickLabel(d.title, band - 8).length));
  const plotHeight = 300 - 16 - 26;
  const room = width ? labelRoomPx(group.data, barWidthPx(width, 80, group.data.length, labels.length)) / plotHeight : 0.2;
  return (
    <section
      aria-labelledby={`bars-${group.id}`}
      className={group.id === 'workload' ? 'chart wide' : 'chart'}
      data-testid={`bars-${group.id}`}
      data-scale={choice.log ? 'log' : 'linear'}
    >
      <h2 id={`bars-${group.id}`}>
        {group.title}{' '}
        <span className="muted">
          ({group.unitLabel}
          {group.direction ? `, ${group.direction}` : ''}, {choice.note})
        </span>
      </h2>
      <div ref={box}>
        {width ? (
          <BarChart width={width} height={300 + 14 * (tickLines - 1)} data={group.data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis dataKey="title" stroke="var(--muted)" interval={0} height={14 * tickLines + 12} tick={wrappedTick(band - 8)} />
            <YAxis
              width={80}
              stroke="var(--muted)"
              scale={choice.log ? 'log' : 'auto'}
              domain={chartDomain(group.data, keys, choice.log, room)}
              allowDataOverflow={choice.log}
              tickFormatter={(v: number) => formatTick(v)}
            />
            <Tooltip
              formatter={(v) => `${formatNumber(Number(v))} ${group.unitLabel}`}
              contentStyle={tooltipStyle}
              cursor={{ fill: 'var(--grid)' }}
            />
            {labels.map((label, i) => (
              <Bar
                key={i}
                dataKey={`r${i}`}
                name={`#${i + 1} ${label}`}
                fill={SERIES_COLORS[i]}
                isAnimationActive={false}
                shape={shapes[i]}
              >
                <LabelList dataKey={`r${i}`} content={barLabel(group.data, i)} />
              </Bar>
            ))}
          </BarChart>
        ) : null}
      </div>
      <PassRanges group={group} />
    </section>
  );
});

/** What each workload bar stands on: its passes and their range (the figure's basis), per run. */
function PassRanges({ group }: { group: BarGroup }) {
  const rows = group.data.filter((d) => d.bases?.some(Boolean));
  if (rows.length === 0) return null;
  return (
    <dl className="pass-ranges" data-testid={`bases-${group.id}`}>
      {rows.map((d) => (
        <div key={d.title}>
          <dt>{d.title}</dt>
          {d.bases!.map((basis, i) =>
            basis ? (
              <dd key={i} data-run={i}>
                <span className="swatch" style={{ background: SERIES_COLORS[i] }}>
                  #{i + 1}
                </span>{' '}
                {d.labels[i]?.value}: {basis}
              </dd>
            ) : null,
          )}
        </div>
      ))}
    </dl>
  );
}

const LatencyChart = memo(function LatencyChart({ data, labels, scale }: { data: PercentileRow[]; labels: string[]; scale: ScaleMode }) {
  const [box, width] = useWidth<HTMLDivElement>();
  const keys = useMemo(() => labels.map((_, i) => `r${i}`), [labels]);
  const choice = useMemo(() => chooseScale(data, keys, scale), [data, keys, scale]);
  const room = width ? labelRoomPx(data, barWidthPx(width, 90, data.length, labels.length)) / (280 - 16 - 30) : 0.2;
  return (
    <div className="chart" data-testid="latency-chart" data-scale={choice.log ? 'log' : 'linear'}>
      <p className="muted">Latency, lower is better ({choice.note})</p>
      <div ref={box}>
        {width ? (
          <BarChart width={width} height={280} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis dataKey="percentile" stroke="var(--muted)" />
            <YAxis
              width={90}
              stroke="var(--muted)"
              scale={choice.log ? 'log' : 'auto'}
              domain={chartDomain(data, keys, choice.log, room)}
              allowDataOverflow={choice.log}
              tickFormatter={(us: number) => formatLatency(us * 1000)}
            />
            <Tooltip formatter={(v) => formatLatency(Number(v) * 1000)} contentStyle={tooltipStyle} cursor={{ fill: 'var(--grid)' }} />
            {labels.map((label, i) => (
              <Bar key={i} dataKey={`r${i}`} name={`#${i + 1} ${label}`} fill={SERIES_COLORS[i]} isAnimationActive={false}>
                <LabelList dataKey={`r${i}`} content={barLabel(data, i)} />
              </Bar>
            ))}
          </BarChart>
        ) : null}
      </div>
    </div>
  );
});

interface LabelProps {
  x?: number | string;
  y?: number | string;
  width?: number | string;
  index?: number;
}

/**
 * Every bar says its value and its ratio to #1 above it, so a bar too short to see on any
 * scale still reads: on one line, value over ratio, or sideways over a narrow bar.
 */
function barLabel(data: ReadonlyArray<{ labels: Array<BarLabelText | undefined> }>, runIndex: number) {
  return function BarLabel(props: LabelProps) {
    const label = props.index === undefined ? undefined : data[props.index]?.labels[runIndex];
    if (!label) return null;
    const width = Number(props.width ?? 0);
    const x = Number(props.x ?? 0) + width / 2;
    const y = Number(props.y ?? 0) - 4;
    const layout = labelLayout(label, width);
    const common = { fontSize: 10, fill: 'var(--text)', 'data-testid': 'bar-label', 'data-run': runIndex };
    if (layout === 'sideways') {
      return (
        <text {...common} x={x} y={y} textAnchor="start" dominantBaseline="central" transform={`rotate(-90 ${x} ${y})`}>
          {label.value}
          {label.ratio ? ` ${label.ratio}` : ''}
        </text>
      );
    }
    if (layout === 'two-lines' && label.ratio) {
      return (
        <text {...common} x={x} y={y - 12} textAnchor="middle">
          <tspan x={x}>{label.value}</tspan>
          <tspan x={x} dy="12">
            {label.ratio}
          </tspan>
        </text>
      );
    }
    return (
      <text {...common} x={x} y={y} textAnchor="middle">
        {label.value}
        {label.ratio ? ` ${label.ratio}` : ''}
      </text>
    );
  };
}

/** Roughly how wide recharts draws each bar: 80 % of the category, split between the runs. */
function barWidthPx(chartWidth: number, yAxisWidth: number, categories: number, runs: number): number {
  const band = (chartWidth - yAxisWidth - 24) / Math.max(1, categories);
  return (band * 0.8 - 4 * (runs - 1)) / Math.max(1, runs);
}

interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
}

/** The category title, wrapped to its share of the axis (see wrapTickLabel). */
function wrappedTick(widthPx: number) {
  return function WrappedTick(props: TickProps) {
    const lines = wrapTickLabel(String((props.payload?.value as string | number | undefined) ?? ''), widthPx);
    return (
      <text
        x={Number(props.x ?? 0)}
        y={Number(props.y ?? 0) + 4}
        fontSize={11}
        fill="var(--muted)"
        textAnchor="middle"
        data-testid="axis-tick"
      >
        {lines.map((line, i) => (
          <tspan key={i} x={Number(props.x ?? 0)} dy={i === 0 ? '0.71em' : '1.2em'}>
            {line}
          </tspan>
        ))}
      </text>
    );
  };
}

const SeriesChart = memo(function SeriesChart({
  series,
  labels,
  unitLabel,
  scale,
}: {
  series: SeriesLine[];
  labels: string[];
  unitLabel: string;
  scale: ScaleMode;
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  // The same choice as the bars: an HDD's line beside an SSD's stays off the floor.
  const points = useMemo(() => series.flatMap((s) => s.points), [series]);
  const choice = useMemo(() => chooseScale(points, ['value'], scale), [points, scale]);
  return (
    <div className="chart" data-testid="series-chart" data-scale={choice.log ? 'log' : 'linear'}>
      <p className="muted">{choice.note}</p>
      <div ref={box}>
        {width ? (
          <LineChart width={width} height={260} margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis type="number" dataKey="tMs" unit=" ms" stroke="var(--muted)" domain={[0, 'dataMax']} allowDuplicatedCategory={false} />
            <YAxis
              width={100}
              stroke="var(--muted)"
              scale={choice.log ? 'log' : 'auto'}
              domain={choice.log ? logDomain(points, ['value']) : [0, 'auto']}
              allowDataOverflow={choice.log}
              tickFormatter={(v: number) => `${formatTick(v)} ${unitLabel}`}
            />
            <Tooltip
              formatter={(v) => `${formatNumber(Number(v))} ${unitLabel}`}
              contentStyle={tooltipStyle}
              cursor={{ fill: 'var(--grid)' }}
            />
            {series.map((s) => (
              <Line
                key={s.runIndex}
                data={s.points}
                dataKey="value"
                name={`#${s.runIndex + 1} ${labels[s.runIndex] ?? ''}`}
                stroke={SERIES_COLORS[s.runIndex]}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        ) : null}
      </div>
    </div>
  );
});
