import { useEffect, useId, useState, type FormEvent } from 'react';
import { PRESET_NAMES, type PresetName } from '../../../electron/shared/model/spec.ts';
import { ErrorNote, PageHeader } from '../components/common.tsx';
import { useRuns, useSystem, useTransportKind } from '../stores/index.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { navigate } from '../view/route.ts';
import { PRESETS } from '../../../electron/shared/catalog/presets.ts';
import { testLabel } from '../../../electron/shared/model/catalog.ts';
import {
  buildSpec,
  costPreview,
  describePreset,
  formFields,
  FormProblem,
  LABEL_SUGGESTIONS,
  presetDefaults,
  WORKLOAD_CHOICES,
  type FormField,
  type RunForm,
} from '../view/new-run-form.ts';

// A stable empty list: a selector that returns a new [] on every call re-renders forever.
const NO_SUGGESTIONS: string[] = [];

export function NewRunPage() {
  const stores = useStoresApi();
  const kind = useTransportKind();
  const suggestions = useSystem((s) => s.overview?.suggestedTargets ?? NO_SUGGESTIONS);
  // A kernel without device-mapper cannot make a mapping for anyone: offered, it would only fail.
  const encryptionUnavailable = useSystem((s) => s.overview?.encryptionUnavailable ?? null);
  const starting = useRuns((s) => s.starting);
  const startError = useRuns((s) => s.startError);
  const [form, setForm] = useState<RunForm>({ target: '', preset: 'quick', fields: {}, label: '' });
  const [formError, setFormError] = useState<FormProblem | null>(null);
  const ids = {
    encryption: useId(),
    encryptionWhy: useId(),
    readOnly: useId(),
    target: useId(),
    targets: useId(),
    preset: useId(),
    label: useId(),
    labels: useId(),
    tarball: useId(),
    problem: useId(),
    cost: useId(),
  };
  // The field a problem is about is marked invalid and described by the message (WCAG 3.3.1);
  // a start refused for its target (missing, not a folder, unreadable) marks the target.
  const targetRefused = /^(target-|permission$)/.test(startError?.failure ?? '');
  const invalid = (field: string) =>
    formError?.field === field || (field === 'target' && targetRefused && !formError)
      ? { 'aria-invalid': true as const, 'aria-describedby': ids.problem }
      : {};
  useEffect(() => {
    if (!stores.system.getState().overview) void stores.system.getState().load();
  }, [stores]);
  const set = (patch: Partial<RunForm>) => setForm((f) => ({ ...f, ...patch }));
  const defaults = presetDefaults(form.preset);
  // A sustained write says what it costs before it starts, and again as the span is typed.
  const cost = costPreview(form);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const spec = buildSpec(form);
    if (spec instanceof FormProblem) {
      setFormError(spec);
      // Focus on the field to mend; it is named and described by the message.
      if (spec.field) document.querySelector<HTMLElement>(`form [name="${spec.field}"]`)?.focus();
      return;
    }
    setFormError(null);
    const runId = await stores.runs.getState().start(spec);
    if (runId) navigate('live');
  };

  return (
    <>
      <PageHeader title="New run" />
      <p className="lead">
        DiskDelta writes a test file into the folder you choose, measures, and removes the file. Nothing else on the disk is touched.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} aria-describedby="form-error">
        <label htmlFor={ids.target}>Target folder</label>
        <div className="row">
          <input
            id={ids.target}
            name="target"
            list={ids.targets}
            value={form.target}
            required
            placeholder="/mnt/ssd"
            autoComplete="off"
            {...invalid('target')}
            onChange={(e) => set({ target: e.target.value })}
          />
          {kind === 'electron' ? (
            <button
              type="button"
              onClick={() =>
                void stores.system
                  .getState()
                  .pickFolder()
                  .then((path) => {
                    if (path) set({ target: path });
                  })
              }
            >
              Choose folder…
            </button>
          ) : null}
        </div>
        <datalist id={ids.targets}>
          {suggestions.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <p className="hint">
          {kind === 'browser'
            ? 'Type a folder on the disk to measure; mounted file systems are suggested.'
            : 'A folder on the disk to measure.'}{' '}
          Or a block device such as /dev/sdb (read tests only): if you cannot read it, DiskDelta asks once per device for administrator
          rights, and only to open it.
        </p>

        <label htmlFor={ids.preset}>Preset</label>
        <select id={ids.preset} name="preset" value={form.preset} onChange={(e) => set({ preset: e.target.value as PresetName })}>
          {PRESET_NAMES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        <p className="hint">{describePreset(form.preset)} Leave a field empty to use the preset's value.</p>
        {form.preset === 'workloads' ? (
          <fieldset className="workload-picks" data-testid="workload-picks">
            <legend>Workloads (seconds per phase, lower is better)</legend>
            {WORKLOAD_CHOICES.map((w) => {
              const picked = form.workloads ?? PRESETS.workloads.tests;
              const checked = picked.includes(w.id);
              return (
                <label key={w.id} className="check">
                  <input
                    type="checkbox"
                    name="workload"
                    value={w.id}
                    {...invalid('workloads')}
                    checked={checked}
                    onChange={() => set({ workloads: checked ? picked.filter((t) => t !== w.id) : [...picked, w.id] })}
                  />
                  <span>
                    {testLabel(w.id)} <span className="muted">· {w.note}</span>
                  </span>
                </label>
              );
            })}
            {(form.workloads ?? []).includes('tarball') ? (
              <>
                <label htmlFor={ids.tarball}>Tarball to extract</label>
                <input
                  id={ids.tarball}
                  name="tarball"
                  placeholder="/home/me/linux-3.9.1.tar.xz"
                  {...invalid('tarball')}
                  value={form.tarball ?? ''}
                  onChange={(e) => set({ tarball: e.target.value })}
                />
              </>
            ) : null}
          </fieldset>
        ) : null}

        <div className="grid3">
          {formFields(undefined, form.preset).map((field) => (
            <OverrideField
              key={field.key}
              field={field}
              placeholder={defaults[field.key] ?? ''}
              value={form.fields[field.key] ?? ''}
              set={(value) => set({ fields: { ...form.fields, [field.key]: value } })}
              invalid={invalid(field.key)}
            />
          ))}
        </div>

        {cost ? (
          <p className="banner warn" role="note" id={ids.cost} data-testid="sustained-cost">
            <strong>What it costs:</strong> {cost[0]!.toUpperCase() + cost.slice(1)}.
          </p>
        ) : null}

        <label htmlFor={ids.label}>Label</label>
        <input
          id={ids.label}
          name="label"
          list={ids.labels}
          value={form.label}
          placeholder="HDD, SSD, SSD + dm-crypt…"
          onChange={(e) => set({ label: e.target.value })}
        />
        <datalist id={ids.labels}>
          {LABEL_SUGGESTIONS.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>

        <label className="check" htmlFor={ids.encryption}>
          <input
            id={ids.encryption}
            type="checkbox"
            name="encryption"
            checked={form.encryption === true && !encryptionUnavailable}
            disabled={encryptionUnavailable !== null}
            aria-describedby={encryptionUnavailable ? ids.encryptionWhy : undefined}
            {...invalid('encryption')}
            onChange={(e) => set({ encryption: e.target.checked })}
          />
          Also measure what encryption (dm-crypt) costs on this disk
        </label>
        {encryptionUnavailable ? (
          <p className="banner warn" id={ids.encryptionWhy} data-testid="encryption-unavailable">
            Not on this machine: {encryptionUnavailable.replace(/;.*$/, '')}. Nothing is broken: the{' '}
            <a href="#/overview">cipher ceilings on Overview</a> measure what this CPU can encrypt, and Compare forecasts each run under
            dm-crypt from them (labelled estimated).
          </p>
        ) : null}
        <p className="hint">
          The tests run twice: on the disk without encryption and through dm-crypt — a throwaway mapping over DiskDelta&apos;s own test file
          with a random key that is never stored, or, where the folder already is encrypted, the mapping and the device beneath it,
          read-only. Needs a kernel with device-mapper, and root or DiskDelta&apos;s helper (the system asks for your password once; the
          throwaway mapping is then read-only, so only the read tests run through it). Both runs are kept, for Compare.
        </p>

        <label className="check" htmlFor={ids.readOnly}>
          <input
            id={ids.readOnly}
            type="checkbox"
            name="readOnly"
            checked={form.readOnly === true}
            {...invalid('readOnly')}
            onChange={(e) => set({ readOnly: e.target.checked })}
          />
          Read-only: write nothing to this disk
        </label>
        <p className="hint">
          For a worn or precious drive. Only read tests run, on the disk&apos;s block device (a folder would need a test file written in it,
          so it is refused); the write tests of the preset are skipped and the run says so.
        </p>

        <div id="form-error" aria-live="polite">
          {formError ? (
            <div className="banner error" role="alert" id={ids.problem} data-testid="form-problem">
              {formError.message}
            </div>
          ) : null}
          {startError ? (
            <div id={formError ? undefined : ids.problem}>
              <ErrorNote error={startError} what="Starting the run" />
            </div>
          ) : null}
        </div>
        <div className="row">
          <button type="submit" className="primary" disabled={starting} aria-describedby={cost ? ids.cost : undefined}>
            {starting ? 'Starting…' : 'Start'}
          </button>
        </div>
      </form>
    </>
  );
}

/** A run setting the preset sets and a run may override (model/run-settings.ts); empty keeps the preset's, shown as the placeholder. */
function OverrideField(props: {
  field: FormField;
  placeholder: string;
  value: string;
  set: (value: string) => void;
  invalid: { 'aria-invalid'?: true; 'aria-describedby'?: string };
}) {
  const id = useId();
  const { field, placeholder, value, set, invalid } = props;
  return (
    <div>
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        name={field.key}
        inputMode={field.inputMode}
        placeholder={placeholder}
        value={value}
        onChange={(e) => set(e.target.value)}
        {...invalid}
      />
    </div>
  );
}
