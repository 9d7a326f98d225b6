// The New run form's text fields → a BenchSpec the contract accepts, or a sentence saying
// which field is wrong. The backend parses the spec again; this is for a friendly message.
import { benchSpecSchema, benchSpecSchemaFor, type BenchSpec, type PresetName } from '../../../electron/shared/model/spec.ts';
import { resolveSettings, RUN_SETTINGS, settingRange, type RunSettingDef } from '../../../electron/shared/model/run-settings.ts';
import { WORKER_OPTIONS, type WorkerOption } from '../../../electron/shared/model/worker-options.ts';
import { PRESETS, presetKinds, presetStoryGap, presetTiming } from '../../../electron/shared/catalog/presets.ts';
import { formatBytes } from '../../../electron/shared/analysis/units.ts';
import { sustainedCostText, type SustainedCostSettings } from '../../../electron/shared/analysis/sustained-write.ts';
import { steadyCostText } from '../../../electron/shared/analysis/steady-state.ts';

export interface RunForm {
  target: string;
  preset: PresetName;
  /** The run settings' fields (formFields), by setting key, as typed; empty: the preset's value. */
  fields: Record<string, string>;
  label: string;
  /** Preset `workloads`: the workloads picked (undefined: the preset's own). */
  workloads?: string[];
  /** The `tarball` workload's file (absolute path on the machine that measures). */
  tarball?: string;
  /** Also measure what dm-crypt costs on this disk. */
  encryption?: boolean;
  /** Write nothing at all (a worn or precious drive): read tests on a block device only. */
  readOnly?: boolean;
}

/**
 * What is wrong with the form, and which field: the field is marked aria-invalid and described
 * by the message, so a screen reader hears it on the field itself. `String(problem)` is the message.
 */
export class FormProblem {
  /** The field's name: 'target', 'tarball', 'workloads', 'readOnly' or a run setting's key; null: the form as a whole. */
  readonly field: string | null;
  readonly message: string;
  constructor(field: string | null, message: string) {
    this.field = field;
    this.message = message;
  }
  toString(): string {
    return this.message;
  }
}

/** The workloads New run offers one by one, with what each costs the disk (bench/kinds/workload.ts). */
export const WORKLOAD_CHOICES: ReadonlyArray<{ id: string; note: string }> = [
  { id: 'tree', note: 'writes ~1.3 GB as 78,579 small files (the shape of Linux 6.1.192), then deletes them; each followed by sync' },
  { id: 'tree-3.9.1', note: "the same tree scaled to the seed's Linux 3.9.1: 45,168 files, 592 MB; the Intel 525 reference has this one" },
  {
    id: 'bigfile',
    note: 'writes one file of up to 3 GB (less if the disk has less room; the test file size field sets it), then deletes it',
  },
  {
    id: 'app-start',
    note: 'reads as 4 programs starting at once from a cold cache: needs root (or the helper) to drop the cache, else a warning says it was only partly dropped',
  },
  {
    id: 'tarball',
    note: 'extracts a tarball you name (a real source release, say) with tar, decompression included as the seed timed it, then deletes it',
  },
];

export const LABEL_SUGGESTIONS = ['HDD', 'SSD', 'SSD + dm-crypt', 'NVMe', 'USB stick'];

/** What a preset runs and its defaults, from the presets table itself. */
export function describePreset(name: PresetName): string {
  const p = PRESETS[name];
  if (presetKinds(name).includes('sustained-write'))
    return `${p.description}. It writes the bytes you choose in one stream (past the fast cache, at most the folder's free space), rests, and writes again.`;
  if (presetKinds(name).includes('surface'))
    return `${p.description}. It reads, never writes: many offsets spread from the first byte to the last, then random reads for the access time.`;
  if (p.durationSec === 0)
    return `${p.description}: ${p.tests.length} workloads, each a warm-up pass + ${p.runs} timed passes; the big file is ${formatBytes(p.sizeBytes)} or what fits.`;
  const gap = presetStoryGap(name);
  return `${p.description}: ${presetTiming(name) ?? ''}${gap ? `; ${gap}` : ''}.`;
}

/** A field of the form: a run setting with a `form` entry (model/run-settings.ts). */
export interface FormField {
  key: string;
  label: string;
  inputMode: 'numeric' | 'decimal';
  /** Typed value × scale = the raw value (MiB → bytes). */
  scale: number;
  def: RunSettingDef;
}

/**
 * The form's setting fields, in the table's order: those the kinds of the preset's tests take
 * (the table's `kinds`), so the sustained preset shows its span and block, not seconds per test;
 * every field without a preset.
 */
export function formFields(settings: readonly RunSettingDef[] = RUN_SETTINGS, preset?: PresetName): FormField[] {
  const kinds = preset ? presetKinds(preset) : null;
  return settings.flatMap((def) =>
    def.form && def.unit !== 'flag' && (!kinds || def.kinds.some((k) => kinds.includes(k)))
      ? [{ key: def.key, label: def.form.label, inputMode: def.integer ? 'numeric' : 'decimal', scale: def.form.scale ?? 1, def } as const]
      : [],
  );
}

/** The preset's value of each field, as the field shows it (the placeholder). */
export function presetDefaults(name: PresetName, settings: readonly RunSettingDef[] = RUN_SETTINGS): Record<string, string> {
  const p = PRESETS[name] as unknown as Record<string, number | undefined>;
  return Object.fromEntries(
    formFields(settings).map((f) => {
      const raw = p[f.key] ?? (f.def.default as number);
      if (p[f.key] === undefined && f.def.form?.placeholder) return [f.key, f.def.form.placeholder];
      // Whole MiB, as the field takes them: the workloads' 3 GB is 2,861.02… MiB.
      return [f.key, String(f.def.integer ? Math.floor(raw / f.scale) : raw / f.scale)];
    }),
  );
}

/**
 * What the run will cost, for a preset with the sustained write: the warning the run itself gives
 * before it starts (analysis/sustained-write.ts), from the fields as typed, else the preset's and
 * the table's values, in the app's words. Null for other presets, or while a field it needs holds
 * no valid value (the form says what is wrong on Start).
 */
export function costPreview(
  form: RunForm,
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
): string | null {
  const steady = PRESETS[form.preset].steady === true;
  if (!steady && !presetKinds(form.preset).includes('sustained-write')) return null;
  const typed = typedValues(form, settings, options);
  if (typed instanceof FormProblem) return null;
  if (steady) {
    const v = resolveSettings('rate', typed, { ...PRESETS[form.preset] }, settings);
    return steadyCostText({
      sizeBytes: Number(v.sizeBytes),
      durationSec: Number(v.durationSec),
      warmupSec: Number(v.warmupSec),
      tests: PRESETS[form.preset].tests,
    });
  }
  const values = resolveSettings('sustained-write', typed, { ...PRESETS[form.preset] }, settings);
  return sustainedCostText(values as unknown as SustainedCostSettings, 'app');
}

/**
 * The preset's typed fields as raw values (an empty field keeps the preset's), or the first
 * field's problem. Only the preset's fields: one typed under another preset and hidden since is
 * not sent.
 */
function typedValues(
  form: RunForm,
  settings: readonly RunSettingDef[],
  options: readonly WorkerOption[],
): Record<string, number> | FormProblem {
  const values: Record<string, number> = {};
  for (const f of formFields(settings, form.preset)) {
    const text = form.fields[f.key]?.trim() ?? '';
    if (!text) continue;
    const value = fieldValue(f, text, options);
    if (value instanceof FormProblem) return value;
    values[f.key] = value;
  }
  return values;
}

/** One typed field → its raw value, or the sentence saying what it takes. */
function fieldValue(f: FormField, text: string, options: readonly WorkerOption[]): number | FormProblem {
  const { min, max } = settingRange(f.def, options);
  const value = Number(text);
  const [lo, hi] = [min / f.scale, max / f.scale];
  if (value === 0 && f.def.zero !== undefined) return 0;
  if (!Number.isFinite(value) || (f.def.integer && !Number.isInteger(value)) || value < lo || value > hi)
    return new FormProblem(
      f.key,
      `${f.label}: ${f.def.integer ? 'a whole number' : 'a number'} of at least ${lo} and at most ${hi}${f.def.zero ? `, or 0 (${f.def.zero})` : ''}.`,
    );
  return value * f.scale;
}

export function buildSpec(
  form: RunForm,
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
): BenchSpec | FormProblem {
  const target = form.target.trim();
  if (!target) return new FormProblem('target', 'Choose the folder to measure.');
  if (!target.startsWith('/')) return new FormProblem('target', 'The target must be an absolute path, e.g. /mnt/ssd.');
  const spec: BenchSpec = { target, preset: form.preset };
  const values = typedValues(form, settings, options);
  if (values instanceof FormProblem) return values;
  Object.assign(spec, values);
  if (form.label.trim()) spec.label = form.label.trim();
  if (form.preset === 'workloads' && form.workloads) {
    if (form.workloads.length === 0) return new FormProblem('workloads', 'Workloads: pick at least one.');
    const preset = PRESETS.workloads.tests;
    const same = form.workloads.length === preset.length && preset.every((t) => form.workloads!.includes(t));
    // In the order New run lists them; the preset's own choice stays a plain preset run.
    if (!same) spec.tests = WORKLOAD_CHOICES.map((w) => w.id).filter((id) => form.workloads!.includes(id));
    if (form.workloads.includes('tarball')) {
      const tarball = form.tarball?.trim() ?? '';
      if (!tarball.startsWith('/'))
        return new FormProblem(
          'tarball',
          'Tarball: the absolute path of a .tar, .tar.gz or .tar.xz file, e.g. /home/me/linux-3.9.1.tar.xz.',
        );
      spec.tarball = tarball;
    }
  }
  if (form.encryption) {
    // Its cost is the same I/O without and through dm-crypt: rate tests only (encryption-run.ts says the same).
    if (presetKinds(form.preset).some((k) => k !== 'rate'))
      return new FormProblem(
        'encryption',
        `Encryption: its cost is measured with rate tests (sequential and random reads and writes); the ${form.preset} preset has none. Choose another preset for it, or leave it off.`,
      );
    spec.encryption = 'auto';
  }
  if (form.readOnly) {
    if (form.encryption)
      return new FormProblem('readOnly', 'Read-only: measuring encryption writes a test file; leave one of the two off.');
    spec.readOnly = true;
  }
  const checked = (
    settings === RUN_SETTINGS && options === WORKER_OPTIONS ? benchSpecSchema : benchSpecSchemaFor(settings, options)
  ).safeParse(spec);
  if (checked.success) return checked.data;
  const first = checked.error.issues[0]?.path[0];
  return new FormProblem(
    typeof first === 'string' ? first : null,
    checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
  );
}
