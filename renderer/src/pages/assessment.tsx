// Overview's "Assess an upgrade": one story across days (the current disk, the new one after the
// swap, what encryption costs, TRIM, how big an SSD), each step kept in the library so the next
// can come after a reboot, ending in the report whose first page tells it. The steps and their
// words are the core's (model/assessment.ts), as `diskdelta assess show` prints them; this page
// adds the ways to fill a step: pick a run (the library's or a shipped reference) or measure now.
import { wholeText } from '../../../electron/shared/report/whole-text.ts';
import { Fragment, useEffect, useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { CandidatesStep } from './assessment-candidates.tsx';
import {
  assessmentProgress,
  assessmentRunIds,
  assessmentSteps,
  emptiedText,
  type AssessmentField,
  type AssessmentStep,
} from '../../../electron/shared/model/assessment.ts';
import type { AssessmentData, RunRef, RunSummary } from '../../../electron/shared/contract/contract.ts';
import {
  ASSESSMENT_ROLES,
  factsProblem,
  runFacts,
  summaryFitsRole,
  type RunFacts,
} from '../../../electron/shared/model/assessment-roles.ts';
import type { RunSource } from '../../../electron/shared/model/figure-terms.ts';
import { usableAssessment } from '../../../electron/shared/model/assessment-usable.ts';
import { WORKING_SET_TEST } from '../../../electron/shared/analysis/working-set.ts';
import { assessmentVerdictsView, type VerdictsView } from '../view/assessment-verdicts.ts';
import type { VerdictFigure } from '../../../electron/shared/analysis/verdicts.ts';
import type { Paper } from '../../../electron/shared/report/paper.ts';
import { SaveControls } from '../components/save-report.tsx';
import { ErrorNote, formatDate, PageHeader } from '../components/common.tsx';
import { downloadFile } from '../components/download.ts';
import { useAssessment, useLibrary, useRuns, useSystem } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import type { ReportFormat } from '../stores/report.ts';
import { appMeasureSpec, MEASURE_NOW_PRESETS, presetTiming, type MeasureNowPreset } from '../../../electron/shared/catalog/presets.ts';

const ROUTE = /^#\/overview\/assess\/(\d{1,15})(?:[/?]|$)/;

/** The flow's address: under Overview, so the sidebar keeps Overview as the page. */
export function assessmentHref(id: number): string {
  return `#/overview/assess/${id}`;
}

function subscribe(callback: () => void) {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
}

/** The assessment the address opens (#/overview/assess/3), or null for Overview itself. */
export function useAssessmentRoute(): number | null {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const match = ROUTE.exec(hash);
  return match ? Number(match[1]) : null;
}

/** What each step's run is called on the page: the picker's and the run line's label. */
const FIELD_LABELS: Record<AssessmentField, string> = {
  before: 'Run of the current disk',
  after: 'Run of the new disk',
  encrypted: 'Run under dm-crypt',
  discardOff: 'Run without discard',
  discardOn: 'Run with discard',
  workingSet: 'Working-set scan',
};

/** Overview's section: start an assessment, or go on with one the library keeps. */
export function AssessOffer() {
  const stores = useStoresApi();
  const { list, loaded, error } = useAssessment((s) => s);
  const [label, setLabel] = useState('');
  const labelId = useId();
  useEffect(() => {
    void stores.assessment.getState().load();
  }, [stores]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const id = await stores.assessment.getState().start(label);
    if (id !== null) window.location.hash = assessmentHref(id);
  };
  return (
    <section aria-labelledby="assess-h" data-testid="assess-offer" className="assess-offer">
      <h2 id="assess-h">Assess an upgrade</h2>
      <p className="muted">
        One story across days: the current disk, the new one (measured after the swap, or picked from imports and published references),
        what encryption costs, TRIM and how big an SSD you need, then the report. Each step is kept in the library, so the next one can come
        after a reboot with the new disk in.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label htmlFor={labelId}>What are you upgrading?</label>
        <div className="row">
          <input id={labelId} value={label} onChange={(e) => setLabel(e.target.value)} placeholder="laptop HDD → SSD" maxLength={200} />
          <button type="submit" className="primary">
            Assess an upgrade
          </button>
        </div>
      </form>
      <ErrorNote error={error} what="The assessment" />
      {loaded && list.length > 0 ? (
        <ul className="assess-list" aria-label="Assessments kept in the library">
          {list.map((a) => {
            if ('unreadable' in a)
              return (
                <li key={a.id} data-testid="assessment-item" data-unreadable="true">
                  {a.label}{' '}
                  <span className="muted">
                    · cannot be read from the library: {a.unreadable}. Its runs are still there; <code>diskdelta assess delete {a.id}</code>{' '}
                    removes it.
                  </span>
                </li>
              );
            const { text, next } = assessmentProgress(assessmentSteps(a));
            return (
              <li key={a.id} data-testid="assessment-item">
                <a href={assessmentHref(a.id)}>{a.label}</a>{' '}
                <span className="muted">
                  · {text} · {next ? `next: ${next.title.replace(/^\d+\.\s*/, '')}` : 'complete'} · last changed {formatDate(a.updatedAt)}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

/** The open assessment, step by step. */
export function AssessmentFlow({ id }: { id: number }) {
  const stores = useStoresApi();
  const { current, error } = useAssessment((s) => s);
  // What New run knows too: whether this kernel can measure encryption (step 3 says so).
  const encryptionUnavailable = useSystem((s) => (s.overview ? s.overview.encryptionUnavailable : undefined));
  useEffect(() => {
    void stores.assessment.getState().open(id);
    void stores.assessment.getState().loadReferences();
    void stores.library.getState().load();
    if (!stores.system.getState().overview) void stores.system.getState().load();
    void stores.system.getState().loadCiphers(false);
  }, [stores, id]);
  const a = current?.id === id ? current : null;
  // A step whose stored run no longer fits its role is shown not done, with why, never used (usableAssessment).
  const records = useAssessment((s) => s.records);
  useEffect(() => {
    if (a) for (const runId of assessmentRunIds(a)) void stores.assessment.getState().loadRecord(runId);
  }, [a, stores]);
  const check = a ? usableAssessment(a, new Map(Object.entries(records).map(([runId, run]) => [Number(runId), run]))) : null;
  return (
    <>
      <PageHeader title="Assess an upgrade">
        <a className="button" href="#/overview">
          Back to Overview
        </a>
      </PageHeader>
      <ErrorNote error={error} what="Opening the assessment" />
      {a ? (
        <>
          <p className="lead" data-testid="assessment-label">
            <strong>{a.label}</strong> · started {formatDate(a.createdAt)} · last changed {formatDate(a.updatedAt)}. Each step is kept in
            the library as you set it: close the app, swap the disk, and come back here.
          </p>
          <Verdicts assessment={a} />
          <ol className="assess-steps">
            {assessmentSteps(check?.assessment ?? a, { encryptionUnavailable }, check ?? undefined).map((step) => (
              <Fragment key={step.id}>
                <StepCard step={step} assessment={a} />
                {/* Chosen before buying: between the current disk and the new one. */}
                {step.id === 'before' ? <CandidatesStep assessment={a} /> : null}
              </Fragment>
            ))}
          </ol>
        </>
      ) : error ? null : (
        <p aria-live="polite">Reading the assessment…</p>
      )}
    </>
  );
}

function StepCard({ step, assessment }: { step: AssessmentStep; assessment: AssessmentData }) {
  const stepError = useAssessment((s) => s.stepErrors[step.fields[0] ?? 'before']);
  const headingId = useId();
  const state = step.id === 'report' ? 'report' : step.done ? 'done' : step.emptied.length ? 'emptied' : 'open';
  const gone = emptiedText(step.emptied);
  return (
    <li className={`card assess-step ${state}`} aria-labelledby={headingId} data-testid={`step-${step.id}`} data-state={state}>
      <h3 id={headingId}>
        {step.title}{' '}
        <span className={`badge step-${state}`}>
          {state === 'done' ? 'done' : state === 'emptied' ? 'emptied' : state === 'report' ? 'last step' : 'not yet'}
        </span>
      </h3>
      {gone ? (
        <p className="banner warn" role="status" data-testid="step-emptied">
          {gone.charAt(0).toUpperCase() + gone.slice(1)}. Pick another run or measure again.
        </p>
      ) : null}
      {step.id === 'report' ? (
        <ReportStep assessment={assessment} />
      ) : (
        <>
          <dl className="facts">
            {step.fields.map((f) => (
              <RunLine key={f} field={f} runId={assessment[f]} />
            ))}
          </dl>
          <StepHelp step={step} />
          <StepControls step={step} assessment={assessment} />
        </>
      )}
      <ErrorNote error={stepError ?? null} what="That step" />
    </li>
  );
}

/**
 * Pick a run, or measure now; once the step is done they fold away behind "Change this step",
 * so a finished assessment reads as its runs. A run measuring for the step keeps them open.
 */
function StepControls({ step, assessment }: { step: AssessmentStep; assessment: AssessmentData }) {
  const measuring = useAssessment((s) => s.pending[step.fields[0]!]?.assessmentId === assessment.id);
  const controls = (
    <>
      <RunPicker step={step} assessment={assessment} />
      {step.id === 'before' || step.id === 'after' || step.id === 'working-set' ? (
        <MeasureForm step={step} assessment={assessment} />
      ) : null}
    </>
  );
  if (!step.done || measuring) return controls;
  return (
    <details className="assess-change">
      <summary>Change this step</summary>
      {controls}
    </details>
  );
}

/** The run a step holds, as the library lists it. */
function RunLine({ field, runId }: { field: AssessmentField; runId: number | null }) {
  const run = useLibrary((s) => (runId === null ? undefined : s.runs.find((r) => r.id === runId)));
  const source = run ? { measured: 'measured here', imported: 'imported', reference: 'published reference' }[run.source] : null;
  return (
    <>
      <dt>{FIELD_LABELS[field]}</dt>
      <dd data-testid={`step-run-${field}`}>
        {runId === null ? (
          <span className="muted">none yet</span>
        ) : (
          <>
            run {runId}
            {run ? (
              <>
                {' '}
                “{run.label}”{' '}
                <span className="muted">
                  · {source} · {formatDay(run.createdAt)}
                </span>
              </>
            ) : null}
          </>
        )}
      </dd>
    </>
  );
}

/** The assessment's verdicts, as the report's page 1 and `assess show` say them (view/assessment-verdicts.ts). */
function Verdicts({ assessment }: { assessment: AssessmentData }) {
  const stores = useStoresApi();
  const records = useAssessment((s) => s.records);
  const references = useAssessment((s) => s.referenceRecords);
  const ceilings = useSystem((s) => s.ciphers);
  const ids = assessmentRunIds(assessment).join(',');
  useEffect(() => {
    for (const id of ids ? ids.split(',').map(Number) : []) void stores.assessment.getState().loadRecord(id);
  }, [stores, ids]);
  const view = assessmentVerdictsView(assessment, records, references, ceilings);
  if (!view) return <p aria-live="polite">Reading the assessment's runs…</p>;
  return <VerdictsPanel view={view} />;
}

/** `label`: the column's heading, said before the figure when the table stacks at a phone's width. */
function FigureCell({ figure, label }: { figure: VerdictFigure | null; label: string }) {
  if (!figure)
    return (
      <td className="muted" data-label={label}>
        —
      </td>
    );
  return (
    <td className={figure.estimated ? 'estimated' : undefined} data-label={label} data-flags={figure.flags.join(' ') || undefined}>
      {wholeText(figure.display)}
      {figure.flags.length ? (
        <span className="flag" title={`trust flag: ${figure.flags.join(', ')}`}>
          {'\u00a0'}⚑
        </span>
      ) : null}
    </td>
  );
}

export function VerdictsPanel({ view }: { view: VerdictsView }) {
  return (
    <section className="card assess-verdicts" aria-labelledby="verdicts-h" data-testid="assessment-verdicts">
      <h3 id="verdicts-h">The verdict</h3>
      {view.rows.length ? (
        // One block per row at a phone's width, each figure after its column's name (styles.css).
        <table className="verdict-figures stack-narrow">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">{view.cryptHeading}</th>
              <th scope="col">Speed-up</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((r) => (
              <tr key={r.title}>
                <th scope="row">{r.title}</th>
                <FigureCell figure={r.before} label="Before" />
                <FigureCell figure={r.after} label="After" />
                <FigureCell figure={r.crypt} label={view.cryptHeading} />
                <td data-label="Speed-up">{r.change ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {view.cards.map((c) => (
        <p key={c.id} className="verdict" data-testid={`verdict-${c.id}`}>
          {c.titleOpensSentence ? (
            <>
              <strong>{wholeText(c.title)}</strong>
              {wholeText(c.sentence.slice(c.title.length))}
            </>
          ) : (
            <>
              <strong>{c.title}:</strong> {wholeText(c.sentence)}
            </>
          )}
        </p>
      ))}
      {view.ignored.map((t) => (
        <p key={t} className="banner warn" role="status">
          {t}
        </p>
      ))}
    </section>
  );
}

/** A run's day: a published run's time of day is not known, and a measured one's is not what matters here. Made once (see formatDate). */
const DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
function formatDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : DAY.format(d);
}

/** What a step is for, and what the app cannot do for it (TRIM needs root: the CLI). */
function StepHelp({ step }: { step: AssessmentStep }) {
  const ciphers = useSystem((s) => s.ciphers);
  // New run's own fact (node/crypto/throwaway-held.ts): where the kernel cannot map dm-crypt, New run offers no such run.
  const encryptionUnavailable = useSystem((s) => s.overview?.encryptionUnavailable ?? null);
  if (step.id === 'before')
    return <p className="hint">Measure the disk you have now, in a folder on it, or pick a run you made or imported before.</p>;
  if (step.id === 'after')
    return (
      <p className="hint">
        After the swap: measure the new disk the same way, or pick an imported run or a published reference to see what it would be.
      </p>
    );
  if (step.id === 'encryption')
    return (
      <p className="hint" data-testid="encryption-help">
        {step.done
          ? 'Measured under dm-crypt: the report shows it as the third column.'
          : `Not measured: the report forecasts it from this CPU's cipher ceilings (estimated)${
              ciphers ? `, measured ${formatDate(ciphers.measuredAt)}` : ', which are not measured yet (Overview measures them)'
            }.`}{' '}
        {encryptionUnavailable ? (
          <>
            It cannot be measured on this machine: {encryptionUnavailable}. Measured on a kernel with device-mapper, its dm-crypt run can be
            picked here.
          </>
        ) : (
          <>
            To measure it, start a run on <a href="#/new">New run</a> with “also measure what encryption costs” (root), then pick its
            dm-crypt run here.
          </>
        )}
      </p>
    );
  if (step.id === 'trim')
    return (
      <p className="hint">
        The discard cost needs root and a scratch file system: run <code>sudo diskdelta trim-audit DIR</code> and{' '}
        <code>sudo diskdelta discard-cost DIR</code> on the new disk, then pick its two runs (or the published 2013 pair) here.
      </p>
    );
  if (step.id === 'working-set')
    return (
      <p className="hint">
        How big must the new disk be? Scan the folders you use (no file is read, no administrator rights): the bytes you touched within 90
        days are set against the new disk’s size.
      </p>
    );
  return null;
}

/** A select's value for a run reference. */
const refValue = (ref: RunRef) => (ref.kind === 'run' ? `run:${ref.id}` : `ref:${ref.key}`);
function parseRefValue(value: string): RunRef | null {
  if (value.startsWith('run:')) return { kind: 'run', id: Number(value.slice(4)) };
  if (value.startsWith('ref:')) return { kind: 'reference', key: value.slice(4) };
  return null;
}

/** Where a run came from, as the picker groups them. */
const SOURCE_GROUPS: Array<[RunSource, string]> = [
  ['measured', 'Measured here'],
  ['imported', 'Imported'],
  ['reference', 'Published references'],
];

/**
 * The runs that fit the field's role (model/assessment-roles.ts), grouped by where they came
 * from: a working-set scan is never offered as the new disk, nor a reference's encrypted run as
 * this machine's cost (#39).
 */
function RunOptions({ field, after }: { field: AssessmentField; after: RunFacts | null }) {
  const runs = useLibrary((s) => s.runs);
  const references = useAssessment((s) => s.references);
  // A reference already in the library is listed once, as the library's run, with the shipped record's facts.
  const shipped = new Map(references.map((r) => [r.label, r.facts]));
  const kept = new Set(runs.filter((r) => r.source === 'reference').map((r) => r.label));
  const context = { after };
  const fits = (r: RunSummary) => {
    const facts = r.source === 'reference' ? shipped.get(r.label) : undefined;
    return facts ? factsProblem(field, facts, context) === null : summaryFitsRole(field, r, context);
  };
  const newestFirst = [...runs].reverse().filter(fits);
  const freshReferences = references.filter((r) => !kept.has(r.label) && factsProblem(field, r.facts, context) === null);
  const none = newestFirst.length === 0 && freshReferences.length === 0;
  return (
    <>
      <option value="">{none ? `No run fits: ${ASSESSMENT_ROLES[field].makes} makes one` : 'Choose a run…'}</option>
      {SOURCE_GROUPS.map(([source, title]) => {
        const group = newestFirst.filter((r) => r.source === source);
        const shippedHere = source === 'reference' ? freshReferences : [];
        if (group.length === 0 && shippedHere.length === 0) return null;
        return (
          <optgroup key={source} label={title}>
            {group.map((r) => (
              <option key={r.id} value={refValue({ kind: 'run', id: r.id })}>
                {r.id}: {r.label} ({r.kind}, {r.createdAt.slice(0, 10)})
              </option>
            ))}
            {shippedHere.map((r) => (
              <option key={r.key} value={refValue({ kind: 'reference', key: r.key })}>
                {r.label}
              </option>
            ))}
          </optgroup>
        );
      })}
    </>
  );
}

/** Pick the step's run(s) from the library or the references; or empty the step. */
function RunPicker({ step, assessment }: { step: AssessmentStep; assessment: AssessmentData }) {
  const stores = useStoresApi();
  const busy = useAssessment((s) => s.busy);
  const [picked, setPicked] = useState<Partial<Record<AssessmentField, string>>>({});
  const ids = { [step.fields[0]!]: useId(), [step.fields[1] ?? 'x']: useId() } as Record<string, string>;
  const key = step.fields[0]!;
  const chosen = step.fields.map((f) => (picked[f] ? parseRefValue(picked[f]) : null));
  const ready = chosen.every((c) => c !== null);
  const use = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const steps = Object.fromEntries(step.fields.map((f, i) => [f, chosen[i]!]));
    if (await stores.assessment.getState().setSteps(key, steps)) {
      setPicked({});
      // A picked reference is now a run of the library: listed there, and named on the step.
      if (chosen.some((c) => c.kind === 'reference')) void stores.library.getState().load();
    }
  };
  const held = step.fields.some((f) => assessment[f] !== null);
  // The encryption step's published story is checked against the new disk's run.
  const after = useAssessment((s) => (assessment.after === null ? undefined : s.records[assessment.after]));
  useEffect(() => {
    if (assessment.after !== null) void stores.assessment.getState().loadRecord(assessment.after);
  }, [assessment.after, stores]);
  return (
    <form
      className="form assess-pick"
      onSubmit={(e) => void use(e)}
      aria-label={`Pick the run for “${step.title.replace(/^\d+\.\s*/, '')}”`}
    >
      {step.fields.map((f) => (
        <div key={f}>
          <label htmlFor={ids[f]}>{FIELD_LABELS[f]}</label>
          <select id={ids[f]} value={picked[f] ?? ''} onChange={(e) => setPicked((p) => ({ ...p, [f]: e.target.value }))}>
            <RunOptions field={f} after={after ? runFacts(after) : null} />
          </select>
          {f === 'encrypted' ? (
            <p className="muted">
              References are offered here only beside the same reference as the new disk: a reference&apos;s encrypted run is another
              machine&apos;s story; it is shown beside, never as this machine&apos;s cost.
            </p>
          ) : null}
        </div>
      ))}
      <div className="row">
        <button type="submit" aria-disabled={!ready || busy !== null}>
          {busy === key ? 'Saving…' : step.fields.length > 1 ? 'Use these runs' : 'Use this run'}
        </button>
        {held ? (
          <button
            type="button"
            onClick={() => void stores.assessment.getState().setSteps(key, Object.fromEntries(step.fields.map((f) => [f, null])))}
            aria-disabled={busy !== null}
          >
            Empty this step
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** Measure the step now: the rates of a folder's disk, or a working-set scan; the run is the step's when it is done. */
function MeasureForm({ step, assessment }: { step: AssessmentStep; assessment: AssessmentData }) {
  const stores = useStoresApi();
  const field = step.fields[0]!;
  const pending = useAssessment((s) => s.pending[field]);
  const live = useRuns((s) => (pending ? s.runs[pending.runId] : undefined));
  const suggested = useSystem((s) => s.overview?.suggestedTargets[0] ?? '');
  const [folder, setFolder] = useState('');
  const [preset, setPreset] = useState<MeasureNowPreset>('quick');
  const ids = { folder: useId(), preset: useId() };
  const scan = step.id === 'working-set';
  const running = pending && pending.assessmentId === assessment.id ? pending : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const target = folder.trim();
    if (!target || running) return;
    const label = scan ? `working set of ${target}` : `${assessment.label}: ${step.id === 'before' ? 'before' : 'after'}`;
    await stores.assessment
      .getState()
      .measure(field, scan ? { target, tests: [WORKING_SET_TEST], label } : appMeasureSpec(target, preset, label));
  };
  const where = step.id === 'before' ? 'Folder on the current disk' : step.id === 'after' ? 'Folder on the new disk' : 'Folder to scan';
  return (
    <form className="form assess-measure" onSubmit={(e) => void submit(e)} aria-label={scan ? 'Scan now' : 'Measure now'}>
      <label htmlFor={ids.folder}>{where}</label>
      <div className="row">
        <input
          id={ids.folder}
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
          placeholder={suggested && suggested !== '/' ? `e.g. ${suggested}` : 'a folder on that disk'}
        />
        {scan ? null : (
          <>
            <label htmlFor={ids.preset} className="sr-only">
              Preset
            </label>
            <select id={ids.preset} value={preset} onChange={(e) => setPreset(e.target.value as typeof preset)}>
              {MEASURE_NOW_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="submit" aria-disabled={running !== null || !folder.trim()}>
          {scan ? 'Scan now' : 'Measure now'}
        </button>
      </div>
      {scan ? null : (
        <p className="hint" data-testid="preset-timing">
          {preset}: {presetTiming(preset)}
        </p>
      )}
      {running ? (
        <p role="status" data-testid="step-measuring">
          {scan ? 'Scanning' : 'Measuring'}
          {live?.progress ? ` · ${Math.round(live.progress.fraction * 100)} %` : ''}… It becomes this step’s run when it is done;{' '}
          <a href="#/live">follow it on Live run</a>.
        </p>
      ) : null}
    </form>
  );
}

function ReportStep({ assessment }: { assessment: AssessmentData }) {
  const stores = useStoresApi();
  const { saving, reportError } = useAssessment((s) => s);
  const [paper, setPaper] = useState<Paper>('a4');
  const ready = assessment.before !== null && assessment.after !== null;
  const save = async (format: ReportFormat) => {
    const file = await stores.assessment.getState().saveReport(format, paper);
    if (file) downloadFile(file.fileName, file.mimeType, file.bytes);
  };
  return (
    <>
      <p className="hint">
        {ready
          ? 'Its first page tells the story: what was compared, each step measured, picked or missing, and what it means; the figures and charts follow.'
          : 'The report needs the before and after runs first.'}
      </p>
      <SaveControls
        label="Save the assessment report"
        paper={paper}
        onPaper={setPaper}
        saving={saving}
        onSave={(f) => void save(f)}
        unready={!ready}
        primary
      />
      <ErrorNote error={reportError} what="Saving the report" />
    </>
  );
}
