// The Candidates page's spec-sheet form: one table of fields (the spec sheet's own, in its units)
// turned into the spec sheet's JSON and checked by THE validator (model/candidate.ts), so the app
// refuses exactly what `diskdelta forecast` refuses, with the same words naming the same field.
import {
  CANDIDATE_FORMAT,
  CANDIDATE_INTERFACES,
  CANDIDATE_VERSION,
  EXAMPLE_CANDIDATE,
  parseCandidateSpec,
  type CandidateSpec,
} from '../../../electron/shared/model/candidate.ts';

export interface SpecField {
  /** The spec sheet's field, as a problem names it ("sequentialMBps.read"). */
  path: string;
  label: string;
  kind: 'text' | 'number' | 'interface';
  hint?: string;
}

export const SPEC_FIELDS: readonly SpecField[] = [
  { path: 'name', label: 'Name', kind: 'text' },
  { path: 'interface', label: 'Interface', kind: 'interface' },
  { path: 'capacityGB', label: 'Capacity (GB)', kind: 'number' },
  { path: 'sequentialMBps.read', label: 'Sequential read (MB/s)', kind: 'number' },
  { path: 'sequentialMBps.write', label: 'Sequential write (MB/s)', kind: 'number' },
  { path: 'random4kIops.qd1.read', label: '4K random read, QD1 (IOPS)', kind: 'number' },
  { path: 'random4kIops.qd1.write', label: '4K random write, QD1 (IOPS)', kind: 'number' },
  { path: 'random4kIops.qd32.read', label: '4K random read, QD32 (IOPS)', kind: 'number' },
  { path: 'random4kIops.qd32.write', label: '4K random write, QD32 (IOPS)', kind: 'number' },
  { path: 'fastCache.sizeGB', label: 'Fast (SLC) cache (GB)', kind: 'number', hint: '0: none' },
  { path: 'fastCache.writeMBpsPastCache', label: 'Write past the cache (MB/s)', kind: 'number' },
  { path: 'enduranceTBW', label: 'Rated endurance (TBW)', kind: 'number' },
  { path: 'source', label: 'Where the figures come from', kind: 'text', hint: 'optional: a datasheet, a review' },
];

export type SpecDraft = Record<string, string>;

export const EMPTY_DRAFT: SpecDraft = Object.fromEntries(
  SPEC_FIELDS.map((f) => [f.path, f.kind === 'interface' ? CANDIDATE_INTERFACES[0] : '']),
);

function valueAt(spec: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), spec);
}

/** The example spec sheet as a draft: the form filled in, to edit from a datasheet. */
export const EXAMPLE_DRAFT: SpecDraft = Object.fromEntries(
  SPEC_FIELDS.map((f) => {
    const value = valueAt(EXAMPLE_CANDIDATE, f.path);
    return [f.path, typeof value === 'string' || typeof value === 'number' ? String(value) : ''];
  }),
);

/**
 * The draft as a spec sheet's JSON: an empty field is left out (so it is "missing"), a number
 * field's text is a number or, unreadable, NaN (so it "must be a number").
 */
export function specOfDraft(draft: SpecDraft): Record<string, unknown> {
  const spec: Record<string, unknown> = { format: CANDIDATE_FORMAT, version: CANDIDATE_VERSION };
  for (const f of SPEC_FIELDS) {
    const text = (draft[f.path] ?? '').trim();
    if (text === '') continue;
    const keys = f.path.split('.');
    let at = spec;
    for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
    at[keys.at(-1)!] = f.kind === 'number' ? Number(text) : text;
  }
  return spec;
}

/** The spec, or every problem (each naming its field, as the CLI says it) and the fields they name. */
export function checkDraft(draft: SpecDraft): { ok: true; spec: CandidateSpec } | { ok: false; problems: string[]; fields: Set<string> } {
  const parsed = parseCandidateSpec(specOfDraft(draft));
  if (parsed.ok) return parsed;
  const fields = new Set(SPEC_FIELDS.map((f) => f.path).filter((p) => parsed.problems.some((line) => line.startsWith(`${p}:`))));
  // A whole group missing ("sequentialMBps: missing") marks each of its fields.
  for (const f of SPEC_FIELDS) if (parsed.problems.some((line) => f.path.startsWith(`${line.split(':')[0]}.`))) fields.add(f.path);
  return { ok: false, problems: parsed.problems, fields };
}
