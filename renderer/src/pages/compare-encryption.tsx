// Compare's encryption section: the compared runs' sequential figure (HDD / SSD / SSD + dm-crypt
// from the user's own runs or references), each unencrypted run's forecast under dm-crypt on
// this CPU drawn hatched and outlined (estimated, never a measurement), and the cipher's
// ceiling as a dashed line.
import { useEffect, useMemo } from 'react';
import { formatNumber, throughputLabel, type ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import { SERIES_COLORS, TableScroll } from '../components/common.tsx';
import { EncryptionChart, EncryptionLegend } from '../charts/encryption-chart.ts';
import { useSystem } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { buildEncryptionView } from '../view/encryption-view.ts';
import { testTitle } from '../../../electron/shared/charts/compare-view.ts';
import { wholeText } from '../../../electron/shared/report/whole-text.ts';
import { chooseScale, type ScaleMode } from '../../../electron/shared/charts/chart-scale.ts';

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
      <EncryptionLegend view={view} />
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
      <TableScroll label="What encryption costs">
        <table data-testid="enc-table">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Measured</th>
              <th scope="col">{wholeText('Under dm-crypt here (estimated)')}</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((r) => (
              <tr key={r.runIndex}>
                <th scope="row">
                  <span className="swatch" style={{ background: SERIES_COLORS[r.runIndex] }}>
                    #{r.runIndex + 1}
                  </span>{' '}
                  {wholeText(r.label + (r.encrypted ? ' (encrypted)' : ''))}
                </th>
                <td>{r.measured !== null ? wholeText(`${formatNumber(r.measured)} ${u}`) : '—'}</td>
                <td>
                  {r.forecast !== null
                    ? wholeText(`${formatNumber(r.forecast)} ${u} (estimated)`)
                    : r.encrypted
                      ? 'measured encrypted'
                      : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
