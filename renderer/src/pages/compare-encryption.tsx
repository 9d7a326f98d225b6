// Compare's encryption section: the compared runs' sequential figure (HDD / SSD / SSD + dm-crypt
// from the user's own runs or references), each unencrypted run's forecast under dm-crypt on
// this CPU drawn hatched and outlined (estimated, never a measurement), and the cipher's
// ceiling as a dashed line.
import { memo, useEffect, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber, formatTick, throughputLabel, type ThroughputUnit } from '../../../electron/core/analysis/units.ts';
import type { RunRecord } from '../../../electron/core/model/results.ts';
import { SERIES_COLORS } from '../components/common.tsx';
import { useWidth } from '../components/use-width.ts';
import { useSystem } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { buildEncryptionView, type EncryptionView } from '../view/encryption-view.ts';
import { chooseScale, logDomain, testTitle, type ScaleMode } from '../view/compare-view.ts';

const tooltipStyle = { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' };

export function CompareEncryption({ records, unit, scale }: { records: RunRecord[]; unit: ThroughputUnit; scale: ScaleMode }) {
  const stores = useStoresApi();
  const { ciphers, ciphersBusy } = useSystem((s) => s);
  useEffect(() => {
    void stores.system.getState().loadCiphers(false);
  }, [stores]);
  const view = useMemo(() => buildEncryptionView(records, ciphers, unit), [records, ciphers, unit]);
  if (!view) return null;
  const u = throughputLabel(unit);
  // The page's scale switch applies here too; on 'auto' a fast CPU's ceiling that dwarfs an old disk's bars turns it to log.
  const choice = chooseScale([...view.rows, { line: view.cipherLine ?? undefined }], ['measured', 'forecast', 'line'], scale);
  return (
    <section aria-labelledby="enc-h" data-testid="compare-encryption">
      <h2 id="enc-h">
        Encryption: {testTitle(view.test)}{' '}
        <span className="muted">
          ({u}, {choice.note})
        </span>
      </h2>
      <p className="muted">
        Solid bars are measured. <span className="forecast-key" aria-hidden="true" /> Hatched, outlined bars are <strong>estimated</strong>:
        each unencrypted run forecast under dm-crypt (aes-xts-plain64, 512-bit key) on this CPU.{' '}
        <span className="ceiling-key" aria-hidden="true" /> The dashed line is the cipher's ceiling on all cores.
      </p>
      {ciphers ? (
        <p className={ciphers.source === 'user-space-estimate' ? 'warning-note' : 'muted'} data-testid="enc-source">
          Cipher ceiling{' '}
          {view.cipherLine !== null ? (
            <strong>
              {formatNumber(view.cipherLine)} {u}
            </strong>
          ) : (
            'not measured for aes-xts-plain64 512 bit'
          )}
          {view.cipherLineOneCore !== null ? (
            <>
              {' '}
              ({formatNumber(view.cipherLineOneCore)} {u} on one core)
            </>
          ) : null}
          , measured with the {ciphers.sourceLabel}.
        </p>
      ) : (
        <p>
          <button type="button" onClick={() => void stores.system.getState().loadCiphers(true)} disabled={ciphersBusy}>
            {ciphersBusy ? 'Measuring…' : 'Measure the cipher ceilings to add forecasts'}
          </button>
        </p>
      )}
      <EncryptionChart view={view} unitLabel={u} logScale={choice.log} />
      <table data-testid="enc-table">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Measured</th>
            <th scope="col">Under dm-crypt here (estimated)</th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((r) => (
            <tr key={r.runIndex}>
              <th scope="row">
                <span className="swatch" style={{ background: SERIES_COLORS[r.runIndex] }}>
                  #{r.runIndex + 1}
                </span>{' '}
                {r.label}
                {r.encrypted ? ' (encrypted)' : ''}
              </th>
              <td>{r.measured !== null ? `${formatNumber(r.measured)} ${u}` : '—'}</td>
              <td>{r.forecast !== null ? `${formatNumber(r.forecast)} ${u} (estimated)` : r.encrypted ? 'measured encrypted' : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const EncryptionChart = memo(function EncryptionChart({
  view,
  unitLabel,
  logScale,
}: {
  view: EncryptionView;
  unitLabel: string;
  logScale: boolean;
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const data = view.rows.map((r) => ({
    name: `#${r.runIndex + 1} ${r.label.length > 28 ? `${r.label.slice(0, 27)}…` : r.label}`,
    measured: r.measured,
    forecast: r.forecast,
    runIndex: r.runIndex,
  }));
  return (
    <div className="chart" data-testid="enc-chart" data-scale={logScale ? 'log' : 'linear'}>
      <div ref={box}>
        {width ? (
          <BarChart width={width} height={300} data={data} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
            <defs>
              <pattern id="forecast-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="6" height="6" fill="var(--surface)" />
                <line x1="0" y1="0" x2="0" y2="6" stroke="var(--muted)" strokeWidth="2" />
              </pattern>
            </defs>
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis dataKey="name" stroke="var(--muted)" interval={0} tick={{ fontSize: 11 }} />
            <YAxis
              width={80}
              stroke="var(--muted)"
              scale={logScale ? 'log' : 'auto'}
              allowDataOverflow={logScale}
              domain={
                logScale ? logDomain([...data, { line: view.cipherLine ?? undefined }], ['measured', 'forecast', 'line']) : [0, 'auto']
              }
              tickFormatter={(v: number) => formatTick(v)}
            />
            <Tooltip
              formatter={(v, name) => `${formatNumber(Number(v))} ${unitLabel}${name === 'forecast' ? ' (estimated)' : ''}`}
              contentStyle={tooltipStyle}
              cursor={{ fill: 'var(--grid)' }}
            />
            <Bar dataKey="measured" name="measured" isAnimationActive={false}>
              {data.map((d) => (
                <Cell key={d.runIndex} fill={SERIES_COLORS[d.runIndex]} data-testid="enc-measured" />
              ))}
            </Bar>
            <Bar
              dataKey="forecast"
              name="forecast"
              isAnimationActive={false}
              fill="url(#forecast-hatch)"
              strokeDasharray="5 3"
              strokeWidth={2}
            >
              {data.map((d) => (
                <Cell key={d.runIndex} stroke={SERIES_COLORS[d.runIndex]} data-testid="enc-forecast" />
              ))}
            </Bar>
            {view.cipherLine !== null ? (
              <ReferenceLine
                y={view.cipherLine}
                stroke="var(--danger)"
                strokeDasharray="6 4"
                strokeWidth={2}
                ifOverflow="extendDomain"
                label={{
                  value: `cipher ceiling ${formatNumber(view.cipherLine)} ${unitLabel}`,
                  position: 'insideTopRight',
                  fill: 'var(--danger)',
                  fontSize: 12,
                }}
              />
            ) : null}
          </BarChart>
        ) : null}
      </div>
    </div>
  );
});
