// The New run form's text fields → a BenchSpec the contract accepts, or a sentence saying
// which field is wrong. The backend parses the spec again; this is for a friendly message.
import { benchSpecSchema, type BenchSpec, type PresetName } from '../../../electron/core/bench/spec.ts';
import { PRESETS } from '../../../electron/core/bench/presets.ts';
import { formatBytes } from '../../../electron/core/analysis/units.ts';

export interface RunForm {
  target: string;
  preset: PresetName;
  sizeMiB: string;
  durationSec: string;
  runs: string;
  label: string;
  /** Also measure what dm-crypt costs on this disk. */
  encryption?: boolean;
}

export const LABEL_SUGGESTIONS = ['HDD', 'SSD', 'SSD + dm-crypt', 'NVMe', 'USB stick'];

/** What a preset runs and its defaults, from the presets table itself. */
export function describePreset(name: PresetName): string {
  const p = PRESETS[name];
  if (p.durationSec === 0)
    return `${p.description}: ${p.tests.length} workloads, each a warm-up pass + ${p.runs} timed passes; the big file is ${formatBytes(p.sizeBytes)} or what fits.`;
  return `${p.description}: ${p.tests.length} ${p.tests.length === 1 ? 'test' : 'tests'}; defaults ${formatBytes(p.sizeBytes)} test file, ${p.warmupSec} s warm-up + ${p.runs} × ${p.durationSec} s per test.`;
}

export function presetDefaults(name: PresetName): { sizeMiB: string; durationSec: string; runs: string } {
  const p = PRESETS[name];
  return { sizeMiB: String(p.sizeBytes / (1024 * 1024)), durationSec: String(p.durationSec), runs: String(p.runs) };
}

const MIB = 1024 * 1024;

export function buildSpec(form: RunForm): BenchSpec | string {
  const target = form.target.trim();
  if (!target) return 'Choose the folder to measure.';
  if (!target.startsWith('/')) return 'The target must be an absolute path, e.g. /mnt/ssd.';
  const spec: BenchSpec = { target, preset: form.preset };
  if (form.sizeMiB.trim()) {
    const mib = Number(form.sizeMiB);
    if (!Number.isInteger(mib) || mib < 16) return 'Test file size: a whole number of MiB, at least 16.';
    spec.sizeBytes = mib * MIB;
  }
  if (form.durationSec.trim()) {
    const seconds = Number(form.durationSec);
    if (!(seconds >= 0.2 && seconds <= 3600)) return 'Seconds per test: between 0.2 and 3600.';
    spec.durationSec = seconds;
  }
  if (form.runs.trim()) {
    const runs = Number(form.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 100) return 'Runs: a whole number from 1 to 100.';
    spec.runs = runs;
  }
  if (form.label.trim()) spec.label = form.label.trim();
  if (form.encryption) spec.encryption = 'auto';
  const checked = benchSpecSchema.safeParse(spec);
  return checked.success ? checked.data : checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}
