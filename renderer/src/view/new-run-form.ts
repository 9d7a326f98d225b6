// The New run form's text fields → a BenchSpec the contract accepts, or a sentence saying
// which field is wrong. The backend parses the spec again; this is for a friendly message.
import { benchSpecSchema, type BenchSpec, type PresetName } from '../../../electron/core/bench/spec.ts';

export interface RunForm {
  target: string;
  preset: PresetName;
  sizeMiB: string;
  durationSec: string;
  runs: string;
  label: string;
}

export const LABEL_SUGGESTIONS = ['HDD', 'SSD', 'SSD + dm-crypt', 'NVMe', 'USB stick'];

export const PRESET_DESCRIPTIONS: Record<PresetName, string> = {
  standard: 'The CrystalDiskMark grid: sequential and random, reads and writes, at two queue depths.',
  quick: 'A short check: sequential read and write, random 4K read and write.',
  seeks: 'bonnie++-style random seeks, for comparing with its published figures.',
  full: 'Everything, including seeks and a 70 % read mix. Takes longest.',
};

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
  const checked = benchSpecSchema.safeParse(spec);
  return checked.success ? checked.data : checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}
