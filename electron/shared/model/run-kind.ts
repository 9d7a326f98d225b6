// What a stored run IS, decided once from its record: a disk measured by the rate tests, a
// workload, a discard-cost experiment, a sustained write, a disk's surface, a working-set scan, a file-access
// recording, a fleet host; and whether it was measured under dm-crypt, on this machine or
// elsewhere. The assessment's steps (assessment-roles.ts), the pickers of the app, Compare,
// Library and the report all read a run's kind from here, never from its label or position,
// so that a working-set scan can never stand for "the new disk" (#39).
//
// Pure: the renderer bundles it, and the store keeps the answer beside each row.
import { kindOfTest } from './catalog.ts';
import type { RunRecord, TestResult } from './results.ts';

/** In the order a run with several is called by its first: a run holding rate tests is a disk. */
export const RUN_KINDS = [
  'disk',
  'fleet-host',
  'discard-cost',
  'workload',
  'sustained-write',
  'surface',
  'working-set',
  'access-recording',
  'unknown',
] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** What each kind is called, as a noun phrase a sentence can carry ("run 4 is a working-set scan"). */
export const RUN_KIND_WORDS: Readonly<Record<RunKind, { noun: string; plural: string }>> = {
  disk: { noun: 'a disk measured by the rate tests', plural: 'disk measurements' },
  'fleet-host': { noun: "a fleet host's fio run", plural: 'fleet hosts' },
  'discard-cost': { noun: 'a discard-cost experiment', plural: 'discard-cost experiments' },
  workload: { noun: 'a workload (seconds per phase)', plural: 'workloads' },
  'sustained-write': { noun: 'a sustained write past the cache', plural: 'sustained writes' },
  surface: { noun: "a disk's surface (read speed from outer to inner tracks)", plural: 'surface scans' },
  'working-set': { noun: 'a working-set scan', plural: 'working-set scans' },
  'access-recording': { noun: 'a file-access recording', plural: 'file-access recordings' },
  unknown: { noun: 'a run of no known kind', plural: 'runs of no known kind' },
};

/** The kind of one result: its catalog kind, or for an import's own test name, whether it carries a rate. */
function resultKind(result: TestResult): RunKind {
  switch (kindOfTest(result.test)) {
    case 'rate':
      return 'disk';
    case 'workload':
      return 'workload';
    case 'sustained-write':
      return 'sustained-write';
    case 'surface':
      return 'surface';
    case 'working-set':
      return 'working-set';
    case 'access-recorder':
      return 'access-recording';
    default:
      // An import's test outside the catalog (a fio job of its own name) is a rate if it has one.
      return result.params !== null || result.bytesPerSec !== null || result.iops !== null ? 'disk' : 'unknown';
  }
}

/** Every kind a run holds, in RUN_KINDS order; ['unknown'] when none. */
export function runKinds(run: Pick<RunRecord, 'results' | 'sourceMeta'>): RunKind[] {
  const found = new Set(run.results.map(resultKind));
  // A workload timed with and without the discard mount option is the discard-cost experiment
  // (bench/trim/discard-runs.ts stores it so, as do the 2013 references).
  if (found.has('workload') && run.sourceMeta['mount option'] !== undefined) {
    found.delete('workload');
    found.add('discard-cost');
  }
  // fio's client/server engine tags each host's run (formats/fio-client-json.ts): another machine's disk.
  if (found.has('disk') && run.sourceMeta['fio.host'] !== undefined) {
    found.delete('disk');
    found.add('fleet-host');
  }
  if (found.size > 1) found.delete('unknown');
  const kinds = RUN_KINDS.filter((k) => found.has(k));
  return kinds.length ? kinds : ['unknown'];
}

/** The kind a run is called by: its first. */
export function runKind(run: Pick<RunRecord, 'results' | 'sourceMeta'>): RunKind {
  return runKinds(run)[0]!;
}

/**
 * Whether the run was measured through dm-crypt: a dm-crypt (or otherwise encrypted) layer in its
 * stack. null: the run keeps no stack (most imports), so nobody can say.
 */
export function runEncrypted(run: Pick<RunRecord, 'target'>): boolean | null {
  const stack = run.target.stack;
  if (!stack || stack.length === 0) return null;
  return stack.some((l) => l.kind === 'dm-crypt' || l.encrypted === true);
}

/**
 * Whether two runs measured the same disk: its serial where both know one, else the same kernel
 * name and model. The forecast reads the workloads of the disk its rates are of, and the judged
 * forecast the workloads of the new disk, by this one rule: a workload timed on a third disk is
 * never taken for either.
 */
export function sameDisk(a: Pick<RunRecord, 'target'>, b: Pick<RunRecord, 'target'>): boolean {
  const x = a.target.device;
  const y = b.target.device;
  if (!x || !y) return false;
  if (x.serial && y.serial) return x.serial === y.serial;
  return x.name === y.name && x.model === y.model;
}
