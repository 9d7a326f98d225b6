// Which stored warnings can affect which figures, and how many are said once (#39 item 6). A
// working-set scan carried `machine-busy` ("its figures may be lower") though its figures are
// byte counts; `size-below-ram` was on all 10 tests of a run, writes included, and the report
// listed it ten times. The report, Compare and Overview read this module: a warning is shown
// only where it can matter, and a warning many tests share is one line naming them.
import { rateTestParams } from './catalog.ts';
import type { RunRecord, Warning } from './results.ts';
import { runKind, type RunKind } from './run-kind.ts';

/** Kinds whose figures are timed: a busy machine can make them lower and wider. */
const TIMED_KINDS: ReadonlySet<RunKind> = new Set(['disk', 'fleet-host', 'workload', 'discard-cost', 'sustained-write']);

/** The rate tests that only write (a 70/30 mix still reads). */
const WRITE_ONLY: ReadonlySet<string> = new Set(['write', 'randwrite']);

/**
 * Whether a warning can affect the figures it is attached to: `machine-busy` only timed figures
 * (not a scan's byte counts, not a recording's); `size-below-ram` only timed reads, which the page
 * cache can serve (a write ends with fsync inside its timed window). Every other code: yes.
 */
export function warningApplies(code: string, kind: RunKind, test: string | null): boolean {
  if (code === 'machine-busy') return TIMED_KINDS.has(kind);
  if (code === 'size-below-ram') return TIMED_KINDS.has(kind) && (test === null || !WRITE_ONLY.has(rateTestParams(test)?.rw ?? ''));
  return true;
}

export interface WarningGroup extends Warning {
  /** The runs that carry it (indexes into the records given). */
  runIndexes: number[];
  /** The tests it is on, each once, in the order first met; [] for a warning on the run itself. */
  tests: string[];
  /** "on all 10 tests", "on 2 tests (seq1m-q8t1-read, seeks)", or "" for a run's own warning. */
  where: string;
}

/** A run's warnings that apply, run-level first, each with its test (null for the run's own). */
export function applicableWarnings(record: RunRecord): Array<Warning & { test: string | null }> {
  const kind = runKind(record);
  return [
    ...record.warnings.filter((w) => warningApplies(w.code, kind, null)).map((w) => ({ ...w, test: null })),
    ...record.results.flatMap((r) => r.warnings.filter((w) => warningApplies(w.code, kind, r.test)).map((w) => ({ ...w, test: r.test }))),
  ];
}

/** The warnings of these runs that apply, one group per code and message, naming its runs and tests. */
export function groupWarnings(records: readonly RunRecord[]): WarningGroup[] {
  const groups: WarningGroup[] = [];
  records.forEach((record, runIndex) => {
    for (const w of applicableWarnings(record)) {
      let group = groups.find((g) => g.code === w.code && g.message === w.message);
      if (!group) groups.push((group = { code: w.code, message: w.message, runIndexes: [], tests: [], where: '' }));
      if (!group.runIndexes.includes(runIndex)) group.runIndexes.push(runIndex);
      if (w.test !== null && !group.tests.includes(w.test)) group.tests.push(w.test);
    }
  });
  for (const g of groups) {
    const all = g.runIndexes.every((i) => records[i]!.results.every((r) => g.tests.includes(r.test)));
    g.where =
      g.tests.length === 0
        ? ''
        : g.tests.length === 1
          ? `on ${g.tests[0]}`
          : all
            ? `on all ${g.tests.length} tests`
            : `on ${g.tests.length} tests (${g.tests.join(', ')})`;
  }
  return groups;
}

/** The one line Compare, Overview and the report's first page show: "3 warnings on 2 runs", or null for none. */
export function warningCountText(groups: readonly WarningGroup[]): string | null {
  if (groups.length === 0) return null;
  const runs = new Set(groups.flatMap((g) => g.runIndexes)).size;
  return `${groups.length} ${groups.length === 1 ? 'warning' : 'warnings'}${runs > 1 ? ` on ${runs} runs` : ''}`;
}
