import { useEffect } from 'react';
import { formatBytes, formatThroughput } from '../../../electron/shared/analysis/units.ts';
import { EmptyState, ErrorNote, PageHeader, TableScroll } from '../components/common.tsx';
import { useLibrary, useSystem } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { CipherCeilingsSection } from './cipher-ceilings.tsx';
import { trimCell } from '../view/trim-cell.ts';
import { fstrimTimerWords, onlineDiscardWords } from '../../../electron/shared/model/trim-words.ts';
import type { SystemOverview } from '../../../electron/shared/contract/contract.ts';
import { AssessmentFlow, AssessOffer, useAssessmentRoute } from './assessment.tsx';
import { pathText } from '../../../electron/shared/report/whole-text.ts';

export function OverviewPage() {
  const stores = useStoresApi();
  const { overview, error, loading } = useSystem((s) => s);
  const runCount = useLibrary((s) => s.runs.length);
  const libraryLoaded = useLibrary((s) => s.loaded);
  const assessing = useAssessmentRoute();
  useEffect(() => {
    void stores.system.getState().load();
    void stores.library.getState().load();
  }, [stores]);

  // An assessment opened from Overview (#/overview/assess/ID) is shown in its place.
  if (assessing !== null) return <AssessmentFlow id={assessing} />;
  return (
    <>
      <PageHeader title="Overview">
        <a className="button primary" href="#/new">
          New run
        </a>
      </PageHeader>
      <p className="lead">
        Measure a disk before and after an upgrade, keep the results, and compare them side by side.
        {libraryLoaded ? (
          <>
            {' '}
            Your library holds <strong>{runCount}</strong> {runCount === 1 ? 'run' : 'runs'}.{' '}
          </>
        ) : null}
        {libraryLoaded && runCount === 0 ? (
          <>
            Start with <a href="#/new">a first run</a> or <a href="#/library">import a bonnie++ or fio file</a>.
          </>
        ) : null}
      </p>
      <AssessOffer />
      <ErrorNote error={error} what="The description of this machine" />
      {loading && !overview ? <p aria-live="polite">Reading the machine…</p> : null}
      {overview ? (
        <>
          {overview.facts ? (
            <section aria-labelledby="machine">
              <h2 id="machine">Machine</h2>
              <dl className="facts">
                <dt>CPU</dt>
                <dd>
                  {overview.facts.cpuModel ?? 'unknown'}
                  {overview.facts.cores ? ` · ${overview.facts.cores} cores` : ''}
                </dd>
                <dt>AES in hardware</dt>
                <dd>{overview.facts.cryptoFlags.includes('aes') ? 'yes (aes flag)' : 'no aes flag: dm-crypt will cost more'}</dd>
                <dt>Memory</dt>
                <dd>{overview.facts.memoryBytes ? formatBytes(overview.facts.memoryBytes) : 'unknown'}</dd>
                <dt>Kernel</dt>
                <dd>{overview.facts.kernel ?? 'unknown'}</dd>
                <dt>Periodic TRIM</dt>
                <dd>{fstrimTimerWords(overview.facts.fstrimTimer)}</dd>
              </dl>
            </section>
          ) : null}
          <CipherCeilingsSection />
          <section aria-labelledby="disks">
            <h2 id="disks">Disks</h2>
            {overview.disks.length === 0 ? (
              <EmptyState title="No disks found">DiskDelta found no block devices it can describe. Runs on a folder still work.</EmptyState>
            ) : (
              <div className="cards">
                {overview.disks.map((d) => (
                  <article className="card" key={d.name} data-testid="disk-card">
                    <h3>
                      {d.model ?? d.name} <span className={`badge class-${d.class.replace(/\s+/g, '-').toLowerCase()}`}>{d.class}</span>
                    </h3>
                    <dl className="facts">
                      <dt>Device</dt>
                      <dd>
                        <code>/dev/{d.name}</code>
                      </dd>
                      <dt>Size</dt>
                      <dd>{d.sizeBytes != null ? formatBytes(d.sizeBytes) : 'unknown'}</dd>
                      <dt>Link ceiling</dt>
                      <dd>
                        {d.linkCeilingBytesPerSec != null
                          ? `${formatThroughput(d.linkCeilingBytesPerSec)}${d.linkDescription ? ` (${d.linkDescription})` : ''}`
                          : 'unknown'}
                      </dd>
                      <dt>Transport</dt>
                      <dd>{d.transport ?? 'unknown'}</dd>
                    </dl>
                  </article>
                ))}
              </div>
            )}
          </section>
          <section aria-labelledby="mounts">
            <h2 id="mounts">Mounted file systems</h2>
            {overview.mounts.length === 0 ? (
              <EmptyState title="No mounts found">Nothing mounted could be read from /proc/self/mountinfo.</EmptyState>
            ) : (
              <TableScroll label="Mounted file systems">
                {/* Explicit roles: at a phone's width its rows are blocks (.stack-narrow) and still a table. */}
                <table className="stack-narrow" role="table" aria-label="Mounted file systems">
                  <thead role="rowgroup">
                    <tr role="row">
                      {MOUNT_COLUMNS.map((heading) => (
                        <th key={heading} scope="col" role="columnheader">
                          {heading}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody role="rowgroup">
                    {overview.mounts.map((m) => (
                      <tr key={m.path} role="row">
                        <th scope="row" role="rowheader">
                          <code>{m.path}</code>
                        </th>
                        <td role="cell" data-label={MOUNT_COLUMNS[1]}>
                          {m.device ?? '—'}
                        </td>
                        <td role="cell" data-label={MOUNT_COLUMNS[2]}>
                          {m.diskClass ? (
                            <span className={`badge class-${m.diskClass.replace(/\s+/g, '-').toLowerCase()}`}>{m.diskClass}</span>
                          ) : (
                            'unknown'
                          )}
                        </td>
                        <td role="cell" data-label={MOUNT_COLUMNS[3]}>
                          {m.fsType ?? '—'}
                        </td>
                        <td role="cell" data-label={MOUNT_COLUMNS[4]}>
                          {m.encryptedLayers == null ? 'unknown' : m.encryptedLayers.length > 0 ? m.encryptedLayers.join(', ') : 'none'}
                        </td>
                        <td role="cell" data-label={MOUNT_COLUMNS[5]}>
                          {onlineDiscardWords(m.onlineDiscard ?? null)}
                        </td>
                        <TrimReachesCell mount={m} />
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
          {overview.notes.length > 0 ? (
            <ul className="notes">
              {overview.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </>
  );
}

const MOUNT_COLUMNS = [
  'Mount point',
  'Device',
  'Disk class',
  'File system',
  'Encryption',
  'Online TRIM (discard)',
  'TRIM reaches the disk',
] as const;

function TrimReachesCell({ mount }: { mount: SystemOverview['mounts'][number] }) {
  const cell = trimCell(mount);
  const [before, after] = cell.hint.split(cell.command);
  return (
    <td data-testid="trim-reaches" data-basis={cell.basis} role="cell" data-label={MOUNT_COLUMNS[6]}>
      {cell.text}
      {/* Shown, not a title tooltip: a keyboard, a touch screen and a screen reader reach it too. */}
      <div className="muted cell-note">
        {before}
        {pathText(cell.command)}
        {after}
      </div>
    </td>
  );
}
