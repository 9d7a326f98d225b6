import { useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { EmptyState, ErrorNote, formatDate, PageHeader, TableScroll, WarningList } from '../components/common.tsx';
import { downloadFile } from '../components/download.ts';
import { useLibrary, useTransportKind } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { navigate } from '../view/route.ts';
import { pathText, wholeText } from '../../../electron/shared/report/whole-text.ts';
import { bytesToBase64 } from '../view/base64.ts';
import { dayBoundary } from '../view/date-filter.ts';
import type { RunSummary } from '../../../electron/shared/contract/contract.ts';
import { foreignToolNames, SOURCE_FORMAT_WORDS, SOURCE_FORMATS, wordList } from '../../../electron/shared/model/source-formats.ts';

/** What Import files… takes, from the one list of formats. */
const IMPORTABLE = wordList(
  SOURCE_FORMATS.map((f) => SOURCE_FORMAT_WORDS[f].file),
  'or',
);

/** The columns between a row's checkbox and its buttons; each cell's label at a phone's width. */
const LIBRARY_COLUMNS = ['Label', 'Date', 'Device', 'Source', 'Target', 'Tests', 'Warnings'] as const;

export function LibraryPage() {
  const stores = useStoresApi();
  const kind = useTransportKind();
  const { runs, more, loaded, error, selected, filter, lastImport } = useLibrary((s) => s);
  const [editing, setEditing] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<RunSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const page = useRef<HTMLDivElement>(null);
  // Where the keyboard's focus goes once the relabel form or the delete dialog has closed (the
  // control it came from is gone or was hidden meanwhile): a CSS selector inside this page.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const selector = focusNext.current;
    if (!selector || editing !== null || confirming) return;
    const target = page.current?.querySelector<HTMLElement>(selector) ?? page.current?.querySelector<HTMLElement>('[data-focus="import"]');
    if (!target) return;
    focusNext.current = null;
    target.focus();
  }, [editing, confirming, runs]);
  const ids = { label: useId(), device: useId(), source: useId(), since: useId(), until: useId() };
  const lib = stores.library.getState;
  useEffect(() => {
    void stores.library.getState().load();
  }, [stores]);

  const importFiles = async (files: FileList | File[]) => {
    setBusy(true);
    await lib().importFiles(
      [...files].map((f) => ({ name: f.name, sizeBytes: f.size, read: async () => bytesToBase64(new Uint8Array(await f.arrayBuffer())) })),
    );
    setBusy(false);
  };
  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    if (e.target.files?.length) await importFiles(e.target.files);
    e.target.value = '';
  };
  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) await importFiles(e.dataTransfer.files);
  };
  const exportSelected = async (format: 'json' | 'csv') => {
    const file = await lib().exportRuns(selected, format);
    if (file) downloadFile(file.fileName, file.mimeType, file.content);
  };
  const compareSelected = async () => {
    await stores.compare.getState().setRefs(selected.slice(0, 6).map((id) => ({ kind: 'run' as const, id })));
    navigate('compare');
  };

  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => void onDrop(e)}
      className={dragging ? 'dropping' : undefined}
      ref={page}
    >
      <PageHeader title="Library">
        {/* Hidden, not merely out of sight: the button below opens it, so it is no tab stop of its own. */}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          accept=".csv,.json,.txt,text/plain,application/json"
          onChange={(e) => void onPick(e)}
          data-testid="import-input"
        />
        <button onClick={() => !busy && fileInput.current?.click()} aria-disabled={busy} data-focus="import">
          {busy ? 'Importing…' : 'Import files…'}
        </button>
        <button onClick={() => void exportSelected('json')} disabled={selected.length === 0}>
          Export JSON
        </button>
        <button onClick={() => void exportSelected('csv')} disabled={selected.length === 0}>
          Export CSV
        </button>
        <button className="primary" onClick={() => void compareSelected()} disabled={selected.length < 2 || selected.length > 6}>
          Compare selected ({selected.length})
        </button>
      </PageHeader>
      <p className="hint">
        Import {IMPORTABLE}
        {kind === 'electron' ? ', or drop files here' : ' (or drop files on this page)'}. Select 2–6 runs to compare them.
      </p>
      <form className="filters" role="search" aria-label="Filter runs" onSubmit={(e: FormEvent) => e.preventDefault()}>
        <div>
          <label htmlFor={ids.label}>Label</label>
          <input id={ids.label} value={filter.label ?? ''} onChange={(e) => void lib().setFilter({ label: e.target.value })} />
        </div>
        <div>
          <label htmlFor={ids.device}>Device</label>
          <input
            id={ids.device}
            value={filter.device ?? ''}
            placeholder="model, class or path"
            onChange={(e) => void lib().setFilter({ device: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor={ids.source}>Source</label>
          <select
            id={ids.source}
            value={filter.source ?? ''}
            onChange={(e) => void lib().setFilter({ source: (e.target.value || undefined) as RunSummary['source'] | undefined })}
          >
            <option value="">any</option>
            <option value="measured">measured</option>
            <option value="imported">imported</option>
            <option value="reference">reference</option>
          </select>
        </div>
        <div>
          <label htmlFor={ids.since}>From</label>
          <input id={ids.since} type="date" onChange={(e) => void lib().setFilter({ since: dayBoundary(e.target.value, false) })} />
        </div>
        <div>
          <label htmlFor={ids.until}>To</label>
          <input id={ids.until} type="date" onChange={(e) => void lib().setFilter({ until: dayBoundary(e.target.value, true) })} />
        </div>
      </form>
      <ErrorNote error={error} what="The library" />
      {lastImport.map((o) => (
        <div key={o.fileName} className={`banner ${o.error ? 'error' : 'ok'}`} role="status" data-testid="import-outcome">
          {o.error ? (
            <>
              <strong>{o.fileName}</strong> was not imported: {o.error.message}
            </>
          ) : (
            <>
              <strong>{o.fileName}</strong>: imported {o.ids.length} {o.ids.length === 1 ? 'run' : 'runs'}.
              {o.alreadyPresent.length > 0 ? ` ${alreadyPresentText(o.alreadyPresent)}` : ''}
            </>
          )}
          <WarningList warnings={o.warnings} />
        </div>
      ))}
      {loaded && runs.length === 0 && !error ? (
        Object.values(filter).some(Boolean) ? (
          <EmptyState title="No run matches these filters">Clear a filter to see more runs.</EmptyState>
        ) : (
          <EmptyState title="The library is empty">
            <p>
              Measure a disk with <a href="#/new">New run</a>, or import results you already have ({foreignToolNames().join(', ')}) with{' '}
              <em>Import files…</em>.
            </p>
          </EmptyState>
        )
      ) : null}
      {runs.length > 0 ? (
        <TableScroll label="Runs in the library">
          {/* At a phone's width a run per block of labelled lines (.stack-narrow): nine columns scrolled sideways. */}
          <table className="runs stack-narrow" data-testid="library-table" role="table" aria-label="Runs in the library">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  <span className="sr-only">Select</span>
                </th>
                {LIBRARY_COLUMNS.map((heading) => (
                  <th scope="col" role="columnheader" key={heading}>
                    {heading}
                  </th>
                ))}
                <th scope="col" role="columnheader">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {runs.map((r) => (
                <tr key={r.id} data-testid="library-row" data-run-id={r.id} role="row">
                  <td role="cell">
                    <input
                      type="checkbox"
                      aria-label={`Select ${r.label || `run ${r.id}`}`}
                      checked={selected.includes(r.id)}
                      onChange={() => lib().toggleSelected(r.id)}
                    />
                  </td>
                  <td role="cell" data-label="Label">
                    {editing === r.id ? (
                      <RelabelForm
                        initial={r.label}
                        onDone={(label) =>
                          void (async () => {
                            if (label !== null) await lib().relabel(r.id, label);
                            focusNext.current = `[data-run-id="${r.id}"] [data-focus="relabel"]`;
                            setEditing(null);
                          })()
                        }
                      />
                    ) : (
                      <strong>{r.label ? wholeText(r.label) : <span className="muted">(no label)</span>}</strong>
                    )}
                  </td>
                  <td role="cell" data-label="Date">
                    {formatDate(r.createdAt)}
                    {r.savedAt.slice(0, 10) !== r.createdAt.slice(0, 10) ? (
                      <span className="muted"> (saved {formatDate(r.savedAt)})</span>
                    ) : null}
                  </td>
                  <td role="cell" data-label="Device">
                    {r.deviceModel ?? '—'}{' '}
                    {r.deviceClass ? (
                      <span className={`badge class-${r.deviceClass.replace(/\s+/g, '-').toLowerCase()}`}>{r.deviceClass}</span>
                    ) : null}
                  </td>
                  <td role="cell" data-label="Source">
                    {r.source}
                    {r.source !== 'measured' ? <span className="muted"> ({r.sourceFormat})</span> : null}{' '}
                    {/* What the run is (model/run-kind.ts): a disk, a discard-cost experiment, a scan… */}
                    <span className="badge" data-testid="run-kind">
                      {wholeText(r.kind + (r.encrypted ? ' · dm-crypt' : ''))}
                    </span>
                  </td>
                  <td role="cell" data-label="Target">
                    {pathText(r.targetPath)}
                  </td>
                  <td role="cell" data-label="Tests">
                    {r.resultCount}
                  </td>
                  <td role="cell" data-label="Warnings">
                    {r.warningCount > 0 ? (
                      // The column's header says what the number counts (a title tooltip said it again, to a mouse only).
                      <span className="warn-count">
                        <span aria-hidden="true">⚠ </span>
                        {r.warningCount}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td role="cell">
                    <div className="row-actions">
                      <button onClick={() => setEditing(r.id)} aria-label={`Relabel ${r.label || `run ${r.id}`}`} data-focus="relabel">
                        Relabel
                      </button>
                      <button
                        className="danger"
                        onClick={() => setConfirming(r)}
                        aria-label={`Delete ${r.label || `run ${r.id}`}`}
                        data-focus="delete"
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {more ? (
        <p className="muted" data-testid="library-more">
          Showing the newest {runs.length} runs; older ones exist. Narrow the filters, or{' '}
          <button onClick={() => void lib().showMore()}>show more</button>
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Delete “${confirming.label || `run ${confirming.id}`}”?`}
          body="The run and its figures are removed from the library. This cannot be undone."
          confirm="Delete"
          onClose={(ok) => {
            const run = confirming;
            // Kept: back to its Delete button; deleted: to the table of runs (or Import files… once empty).
            focusNext.current = ok ? null : `[data-run-id="${run.id}"] [data-focus="delete"]`;
            setConfirming(null);
            if (ok)
              void lib()
                .remove(run.id)
                // After the list has been drawn without the row (the table itself may be gone).
                .then(() =>
                  requestAnimationFrame(() =>
                    (
                      page.current?.querySelector<HTMLElement>('.table-scroll') ??
                      page.current?.querySelector<HTMLElement>('[data-focus="import"]')
                    )?.focus(),
                  ),
                );
          }}
        />
      ) : null}
    </div>
  );
}

/** "2 already in the library, not added again: #1 and #3 (this file was imported before)": one reason said once. */
function alreadyPresentText(present: Array<{ id: number; why: string }>): string {
  const byWhy = new Map<string, number[]>();
  for (const { id, why } of present) byWhy.set(why, [...(byWhy.get(why) ?? []), id]);
  const parts = [...byWhy].map(([why, ids]) => `${ids.map((id) => `#${id}`).join(', ')} (${why})`);
  return `${present.length} already in the library, not added again: ${parts.join('; ')}.`;
}

function RelabelForm({ initial, onDone }: { initial: string; onDone: (label: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const id = useId();
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        onDone(value.trim() || null);
      }}
    >
      <label htmlFor={id} className="sr-only">
        New label
      </label>
      <input
        id={id}
        autoFocus
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone(null);
        }}
      />
      <button type="submit">Save</button>
      <button type="button" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}

function ConfirmDialog({
  title,
  body,
  confirm,
  onClose,
}: {
  title: string;
  body: string;
  confirm: string;
  onClose: (ok: boolean) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose(false);
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <p>{body}</p>
      <div className="row end">
        <button autoFocus onClick={() => onClose(false)}>
          Keep it
        </button>
        <button className="danger" onClick={() => onClose(true)}>
          {confirm}
        </button>
      </div>
    </dialog>
  );
}
