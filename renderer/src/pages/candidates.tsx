// Decide before you buy (issue #42): the person adds 2–4 candidate drives (a spec sheet typed in,
// refused field by field with `diskdelta forecast`'s own words, or a disk run of the library
// labelled with where it came from) and sees them beside the disk in use today. The forecast is
// core's (procedure forecast.candidates), drawn by the report's own table (candidates-view.ts).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ErrorNote, PageHeader } from '../components/common.tsx';
import { useCandidates } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { CANDIDATE_INTERFACES, MAX_CANDIDATES } from '../../../electron/shared/model/candidate.ts';
import { candidatesTable } from '../../../electron/shared/report/candidates-model.ts';
import { CandidatesTableView } from '../../../electron/shared/report/candidates-view.ts';
import { checkDraft, EMPTY_DRAFT, EXAMPLE_DRAFT, SPEC_FIELDS, type SpecDraft } from '../view/candidate-form.ts';

export function CandidatesPage() {
  const stores = useStoresApi();
  const entries = useCandidates((s) => s.entries);
  const diskRuns = useCandidates((s) => s.diskRuns);
  const forecast = useCandidates((s) => s.forecast);
  const loading = useCandidates((s) => s.loading);
  const error = useCandidates((s) => s.error);
  const [draft, setDraft] = useState<SpecDraft>(EMPTY_DRAFT);
  const [refused, setRefused] = useState<{ problems: string[]; fields: Set<string> } | null>(null);
  const [runPick, setRunPick] = useState('');
  const baseId = useId();
  const full = entries.length >= MAX_CANDIDATES;
  useEffect(() => {
    void stores.candidates.getState().loadRuns();
  }, [stores]);

  const addSpec = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) return setRefused({ problems: checked.problems, fields: checked.fields });
    setRefused(null);
    if (stores.candidates.getState().add({ kind: 'spec', spec: checked.spec })) setDraft(EMPTY_DRAFT);
  };
  const addRun = (event: FormEvent) => {
    event.preventDefault();
    const run = diskRuns.find((r) => String(r.id) === runPick);
    if (run) stores.candidates.getState().add({ kind: 'run', id: run.id, label: run.label });
  };
  const fieldId = (path: string) => `${baseId}-${path.replace(/\./g, '-')}`;

  return (
    <>
      <PageHeader title="Candidates" />
      <p className="lead">
        Which drive should you buy? Add two to four candidates: each is forecast on this machine (the link the new disk would sit on,
        dm-crypt&apos;s ceiling when you encrypt) for your own work (the workloads measured on your disk, your write volume, your working
        set), beside the disk in use today. Every figure is estimated, with its range.
      </p>
      <div className="candidates-inputs">
        <form className="form candidate-spec" onSubmit={addSpec} noValidate aria-labelledby={`${baseId}-spec`}>
          <h2 id={`${baseId}-spec`}>A spec sheet</h2>
          <p className="hint">The datasheet&apos;s own units: MB/s are 10^6 bytes/s, IOPS of 4 KiB, GB and TB decimal.</p>
          <div className="spec-grid">
            {SPEC_FIELDS.map((f) => (
              <div key={f.path} className={f.kind === 'text' ? 'spec-field wide' : 'spec-field'}>
                <label htmlFor={fieldId(f.path)}>{f.label}</label>
                {f.kind === 'interface' ? (
                  <select
                    id={fieldId(f.path)}
                    name={f.path}
                    value={draft[f.path]}
                    onChange={(e) => setDraft({ ...draft, [f.path]: e.target.value })}
                  >
                    {CANDIDATE_INTERFACES.map((i) => (
                      <option key={i} value={i}>
                        {i === 'nvme' ? 'NVMe' : i.toUpperCase()}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={fieldId(f.path)}
                    name={f.path}
                    inputMode={f.kind === 'number' ? 'decimal' : undefined}
                    autoComplete="off"
                    value={draft[f.path]}
                    aria-invalid={refused?.fields.has(f.path) ? true : undefined}
                    aria-describedby={f.hint ? `${fieldId(f.path)}-hint` : undefined}
                    onChange={(e) => setDraft({ ...draft, [f.path]: e.target.value })}
                  />
                )}
                {f.hint ? (
                  <span className="hint" id={`${fieldId(f.path)}-hint`}>
                    {f.hint}
                  </span>
                ) : null}
              </div>
            ))}
          </div>
          {refused ? (
            <div className="banner error" role="alert" data-testid="spec-refused">
              <strong>This spec sheet is refused; fix each field and add it again:</strong>
              <ul>
                {refused.problems.map((p) => (
                  <li key={p}>
                    <code>{p.split(':')[0]}</code>:{p.slice(p.indexOf(':') + 1)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="row">
            <button type="submit" className="primary" disabled={full}>
              Add this drive
            </button>
            <button type="button" onClick={() => (setDraft(EXAMPLE_DRAFT), setRefused(null))}>
              Fill in the example
            </button>
          </div>
        </form>
        <form className="form candidate-run" onSubmit={addRun} aria-labelledby={`${baseId}-run`}>
          <h2 id={`${baseId}-run`}>A drive measured elsewhere</h2>
          <p className="hint">
            A disk run of the library: imported from someone&apos;s DiskDelta export, KDiskMark, CrystalDiskMark or fio (Library › Import),
            or a reference run. Its figures are the run&apos;s own.
          </p>
          <label htmlFor={`${baseId}-pick`}>Disk run</label>
          <div className="row">
            <select id={`${baseId}-pick`} value={runPick} onChange={(e) => setRunPick(e.target.value)}>
              <option value="">Choose a run…</option>
              {diskRuns.map((r) => (
                <option key={r.id} value={r.id}>
                  #{r.id} {r.label} ({r.source}
                  {r.source === 'imported' ? `, ${r.sourceFormat}` : ''})
                </option>
              ))}
            </select>
            <button type="submit" disabled={full || runPick === ''}>
              Add this run
            </button>
          </div>
        </form>
      </div>
      {full ? <p className="hint">{MAX_CANDIDATES} candidates is the most compared side by side: remove one to add another.</p> : null}
      {entries.length ? (
        <section aria-labelledby={`${baseId}-list`}>
          <h2 id={`${baseId}-list`}>Your candidates</h2>
          <ol className="candidate-list" data-testid="candidate-list">
            {entries.map((e) => (
              <li key={e.key}>
                {e.kind === 'spec' ? (
                  <>
                    <strong>{e.spec.name}</strong> <span className="muted">spec sheet entered here</span>
                  </>
                ) : (
                  <>
                    <strong>{e.label}</strong> <span className="muted">run #{e.id} of the library</span>
                  </>
                )}{' '}
                <button type="button" onClick={() => stores.candidates.getState().remove(e.key)}>
                  Remove
                </button>
              </li>
            ))}
          </ol>
          {entries.length === 1 ? <p className="hint">Add another to see them side by side.</p> : null}
        </section>
      ) : (
        <p className="muted">No candidate yet: fill in a spec sheet or choose a run above.</p>
      )}
      <ErrorNote error={error} what="The forecast" />
      {loading ? <p aria-live="polite">Forecasting…</p> : null}
      {forecast && !error ? (
        <section aria-labelledby={`${baseId}-side`} data-testid="candidates-side-by-side">
          <h2 id={`${baseId}-side`}>Side by side with the disk in use today</h2>
          {forecast.notes.map((n) => (
            <p key={n} className="banner warn">
              {n}
            </p>
          ))}
          <CandidatesTableView table={candidatesTable(forecast.forecast)} />
        </section>
      ) : null}
    </>
  );
}
