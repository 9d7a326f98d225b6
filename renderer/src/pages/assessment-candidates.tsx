// The assessment's candidates (issue #42): before buying, the drives it weighs (the Candidates
// page's list, a spec sheet file, or a disk run of the library), kept with the assessment through
// assessments.setCandidates, the same path and checks as `diskdelta assess set --candidate`. Once
// the after run is set, each forecast is set beside the measurement, in core's words (the lines
// `assess show` prints: "sequential read: forecast ×2.79, measured ×2.60").
import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import type { AssessmentData, ProcedureInput, ProcedureOutput } from '../../../electron/shared/contract/contract.ts';
import { candidatesEmptiedLines, candidatesUnreadableLines, type StoredCandidate } from '../../../electron/shared/model/assessment.ts';
import { MAX_CANDIDATES, MAX_SPEC_BYTES, parseSpecText } from '../../../electron/shared/model/candidate.ts';
import { candidatesTable } from '../../../electron/shared/report/candidates-model.ts';
import { CandidatesTableView, JudgedTableView } from '../../../electron/shared/report/candidates-view.ts';
import { judgedTable } from '../../../electron/shared/report/judged-model.ts';
import { useAssessment, useCandidates, useLibrary } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';

type CandidateInputs = ProcedureInput<'assessments.setCandidates'>['candidates'];
type CandidatesData = NonNullable<ProcedureOutput<'assessments.candidates'>>;

/** A kept candidate as it is sent back: the kept list is replaced whole on each change. */
const asInput = (c: StoredCandidate): CandidateInputs[number] =>
  c.kind === 'spec' ? { kind: 'spec', spec: c.spec } : { kind: 'run', id: c.id };

export function CandidatesStep({ assessment }: { assessment: AssessmentData }) {
  const stores = useStoresApi();
  const got = useAssessment((s) => (s.candidates?.id === assessment.id ? s.candidates.data : undefined));
  const busy = useAssessment((s) => s.candidatesBusy);
  const error = useAssessment((s) => s.candidatesError);
  const loadError = useAssessment((s) => s.candidatesLoadError);
  const pageEntries = useCandidates((s) => s.entries);
  const runs = useLibrary((s) => s.runs);
  const diskRuns = runs.filter((r) => r.kind === 'disk');
  const [runPick, setRunPick] = useState('');
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const ids = { heading: useId(), run: useId(), file: useId() };
  useEffect(() => {
    void stores.assessment.getState().loadCandidates();
  }, [stores, assessment.id, assessment.updatedAt]);

  const kept = assessment.candidates ?? [];
  const full = kept.length >= MAX_CANDIDATES;
  const keep = (list: CandidateInputs) => stores.assessment.getState().setCandidates(list);
  const addRun = async (event: FormEvent) => {
    event.preventDefault();
    if (!runPick || full || busy) return;
    if (await keep([...kept.map(asInput), { kind: 'run', id: Number(runPick) }])) setRunPick('');
  };
  const addFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file || full) return;
    setFileProblem(null);
    // Never more than one byte past the cap is read: that is enough to refuse it (parseSpecText, as the CLI).
    const parsed = parseSpecText(await file.slice(0, MAX_SPEC_BYTES + 1).text(), file.name);
    if (!parsed.ok) return setFileProblem(parsed.problem);
    await keep([...kept.map(asInput), { kind: 'spec', spec: parsed.json, file: file.name }]);
  };
  const fromPage = pageEntries.map((e): CandidateInputs[number] =>
    e.kind === 'spec' ? { kind: 'spec', spec: e.spec } : { kind: 'run', id: e.id },
  );
  const runLabel = (id: number) => diskRuns.find((r) => r.id === id)?.label;

  return (
    <li className={`card assess-step ${kept.length ? 'done' : 'open'}`} aria-labelledby={ids.heading} data-testid="step-candidates">
      <h3 id={ids.heading}>
        Before buying: the candidates{' '}
        <span className={`badge step-${kept.length ? 'done' : 'open'}`}>{kept.length ? 'kept' : 'optional'}</span>
      </h3>
      <p className="hint">
        Which drive to buy? Keep two to four candidates here: each is forecast from the current disk&apos;s run for this machine and your
        work; once the new disk is measured, each forecast is set beside the measurement.
      </p>
      {kept.length ? (
        <ol className="candidate-list" aria-label="Candidates kept with this assessment" data-testid="assessment-candidate-list">
          {kept.map((c, i) => (
            <li key={i}>
              {c.kind === 'spec' ? (
                <>
                  <strong>{c.spec.name}</strong> <span className="muted">spec sheet, {c.source}</span>
                </>
              ) : (
                <>
                  <strong>{runLabel(c.id) ?? `run ${c.id}`}</strong> <span className="muted">run {c.id} of the library</span>
                </>
              )}{' '}
              <button type="button" aria-disabled={busy} onClick={() => void keep(kept.filter((_, j) => j !== i).map(asInput))}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      ) : null}
      {candidatesEmptiedLines(assessment).map((line) => (
        <p key={line} className="banner warn" data-testid="candidate-run-deleted">
          {line}
        </p>
      ))}
      {candidatesUnreadableLines(assessment).map((line) => (
        <p key={line} className="banner warn" data-testid="candidate-unreadable">
          {line}
        </p>
      ))}
      {got ? <CandidatesForecast data={got} /> : null}
      {loadError && kept.length ? (
        // The kept candidates' forecast failed (the before run unreadable, say): nothing was refused or lost.
        <p className="banner error" role="alert" data-testid="candidates-forecast-error">
          The forecast of the kept candidates could not be made: {loadError.message}
        </p>
      ) : null}
      <details className="assess-change" open={kept.length === 0}>
        <summary>{kept.length ? 'Change the candidates' : 'Choose the candidates'}</summary>
        {fromPage.length ? (
          <p className="row">
            <button type="button" aria-disabled={busy} onClick={() => void keep(fromPage)}>
              Use the Candidates page&apos;s {fromPage.length === 1 ? 'drive' : `${fromPage.length} drives`} (replaces those kept)
            </button>
          </p>
        ) : (
          <p className="hint">
            Type in a spec sheet on <a href="#/candidates">Candidates</a> and come back, or choose one here.
          </p>
        )}
        <form className="form assess-pick" onSubmit={(e) => void addRun(e)} aria-label="Add a disk run as a candidate">
          {/* As the steps' run pickers: the select on its own line, as wide as the card allows (a long run label never widens the page). */}
          <div>
            <label htmlFor={ids.run}>A drive measured elsewhere (disk run)</label>
            <select id={ids.run} value={runPick} onChange={(e) => setRunPick(e.target.value)}>
              <option value="">Choose a run…</option>
              {[...diskRuns].reverse().map((r) => (
                <option key={r.id} value={r.id}>
                  {r.id}: {r.label} ({r.source}, {r.createdAt.slice(0, 10)})
                </option>
              ))}
            </select>
          </div>
          <div className="row">
            <button type="submit" aria-disabled={full || busy || runPick === ''}>
              Add this run
            </button>
          </div>
        </form>
        <div className="form">
          <label htmlFor={ids.file}>A spec sheet file (JSON, as diskdelta forecast --example prints it)</label>
          <input id={ids.file} type="file" accept=".json,application/json" disabled={full} onChange={(e) => void addFile(e)} />
        </div>
        {full ? <p className="hint">{MAX_CANDIDATES} candidates is the most kept: remove one to add another.</p> : null}
      </details>
      {fileProblem ? (
        <p className="banner error" role="alert">
          {fileProblem}
        </p>
      ) : null}
      {error ? (
        // A refused spec sheet's problems, one per line, each naming its field (the CLI's words); nothing was kept.
        <div className="banner error" role="alert" data-testid="candidates-refused">
          <strong>Not kept; the candidates are as they were.</strong>
          <ul>
            {error.message.split('\n').map((line) => (
              <li key={line}>{line.trim()}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

/** Forecast beside measured once the after run is set; until then the forecast, side by side with the current disk. */
function CandidatesForecast({ data }: { data: CandidatesData }) {
  const table = <CandidatesTableView table={candidatesTable(data.forecast)} />;
  return (
    <section data-testid="assessment-candidates-forecast">
      {data.notes.map((n) => (
        <p key={n} className="banner warn">
          {n}
        </p>
      ))}
      {data.judged ? (
        <>
          <h4>Forecast beside the measurement of the new disk</h4>
          <JudgedTableView table={judgedTable(data.judged)} />
          <details>
            <summary>The whole forecast</summary>
            {table}
          </details>
        </>
      ) : (
        <>
          {table}
          <p className="hint">Once the new disk’s run is set (step 2), each forecast is set beside its measurement here.</p>
        </>
      )}
    </section>
  );
}
