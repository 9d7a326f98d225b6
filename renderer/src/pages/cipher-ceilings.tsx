// Overview's "Cipher ceilings": how fast this CPU runs dm-crypt's ciphers — the ceiling an
// encrypted disk cannot pass. The newest measurement of this CPU kept in the library, or measured
// on request (some seconds); a user-space estimate says so.
import { useEffect } from 'react';
import { cipherFigureText, cipherMeasurementText } from '../../../electron/shared/analysis/encryption.ts';
import { formatCount } from '../../../electron/shared/analysis/units.ts';
import { ErrorNote, TableScroll } from '../components/common.tsx';
import { wholeText } from '../../../electron/shared/report/whole-text.ts';
import { useSystem } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { cipherTableRows } from '../view/encryption-view.ts';

export function CipherCeilingsSection() {
  const stores = useStoresApi();
  const { ciphers, ciphersBusy, ciphersError } = useSystem((s) => s);
  useEffect(() => {
    void stores.system.getState().loadCiphers(false);
  }, [stores]);
  const table = ciphers ? cipherTableRows(ciphers) : null;
  const estimate = ciphers?.source === 'user-space-estimate';
  const columns = [
    'Cipher',
    'Key',
    'Request',
    ...(table?.threads ?? []).map((t) => `${t} ${t === 1 ? 'core' : 'cores'}: encrypt / decrypt (MB/s${estimate ? ', estimate' : ''})`),
  ];
  return (
    <section aria-labelledby="ciphers-h" data-testid="cipher-ceilings">
      <h2 id="ciphers-h">Cipher ceilings (dm-crypt)</h2>
      <p className="muted">
        How fast this CPU encrypts and decrypts disk sectors: an encrypted disk cannot read or write faster than this, whatever the drive.{' '}
        {ciphers ? (
          <>
            AES-NI: <strong>{ciphers.cpu.aesNi ? 'yes' : 'no'}</strong>, VAES: <strong>{ciphers.cpu.vaes ? 'yes' : 'no'}</strong>.{' '}
          </>
        ) : null}
      </p>
      <button type="button" onClick={() => !ciphersBusy && void stores.system.getState().loadCiphers(true)} aria-disabled={ciphersBusy}>
        {ciphersBusy ? 'Measuring…' : ciphers ? 'Measure again' : 'Measure cipher ceilings'}
      </button>
      <ErrorNote error={ciphersError} what="Measuring the ciphers" />
      {ciphers && table ? (
        <>
          <p className={estimate ? 'warning-note' : 'muted'} data-testid="cipher-source">
            Measured with the {ciphers.sourceLabel}.{estimate ? ' Every figure below is a user-space estimate.' : ''}
          </p>
          <p className="muted" data-testid="cipher-when">
            {cipherMeasurementText(ciphers)} Kept in the library: forecasts and reports use it until you measure again.
          </p>
          {ciphers.warnings.length > 0 ? (
            // One line above the table, the details a click away: eight bullets pushed the table off the screen (#39).
            <details className="warn-details" data-testid="cipher-warnings">
              <summary className="warn-count">
                <span aria-hidden="true">⚠ </span>
                {ciphers.warnings.length} {ciphers.warnings.length === 1 ? 'warning' : 'warnings'} on this measurement
              </summary>
              <ul className="warnings">
                {ciphers.warnings.map((w) => (
                  <li key={w}>{wholeText(w)}</li>
                ))}
              </ul>
            </details>
          ) : null}
          <TableScroll label="Cipher ceilings">
            {/* Explicit roles: at a phone's width its rows are blocks (.stack-narrow) and still a table. */}
            <table data-testid="cipher-table" className="stack-narrow" role="table" aria-label="Cipher ceilings">
              <thead role="rowgroup">
                <tr role="row">
                  {columns.map((heading) => (
                    <th scope="col" role="columnheader" key={heading}>
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody role="rowgroup">
                {table.rows.map((r) => (
                  <tr key={r.key} role="row">
                    <th scope="row" role="rowheader">
                      <code>{r.cipher}</code>
                    </th>
                    {/* "256 bit" and "4,096 B" are figures with their unit: one line each ("256" over "bit" at 1280 px). */}
                    <td role="cell" data-label={columns[1]}>
                      <span className="nowrap">{`${r.keyBits} bit`}</span>
                    </td>
                    <td role="cell" data-label={columns[2]}>
                      {r.sectorBytes === 65536 ? (
                        <>
                          <span className="nowrap">64 KiB</span> (bulk)
                        </>
                      ) : (
                        <>
                          <span className="nowrap">{`${formatCount(r.sectorBytes)} B`}</span> sector
                        </>
                      )}
                    </td>
                    {r.cells.map((f, i) => (
                      <td
                        key={i}
                        role="cell"
                        data-label={columns[3 + i]}
                        className={f?.noisy || f?.slowerThanOneThread ? 'flagged' : undefined}
                      >
                        {/* Encrypt and decrypt each one piece ("3,826 ±16 %"): a line breaks only between them. */}
                        {(f ? cipherFigureText(f) : '—').split(' / ').map((part, j) => (
                          <span key={j}>
                            {j > 0 ? ' / ' : null}
                            <span className="nowrap">{part}</span>
                          </span>
                        ))}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {ciphers.unavailable.length > 0 ? (
            <ul className="notes">
              {ciphers.unavailable.map((u) => (
                <li key={`${u.cipher}:${u.keyBits}`}>
                  {/* The cipher's name whole on a line ("xchacha12,aes-adiantum-plain64" broke at a hyphen at 390 px). */}
                  <code className="nowrap">{u.cipher}</code> <span className="nowrap">{u.keyBits} bit</span>: {wholeText(u.reason)}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
