// A run's warnings as the CLI lists them (`run`'s table, `show`): the run's own, then each test's,
// one line per distinct warning with the tests it concerns. A sweep of 36 tests whose size fits
// in RAM printed the same sentence 36 times, and the warnings that differed were lost among them.
import type { RunRecord, Warning } from '../shared/model/results.ts';

/** "seq1m-q8t1-read: …" for one test; "a, b and c (3 tests): …" for several; the code after it when asked. */
export function warningLines(run: Pick<RunRecord, 'warnings' | 'results'>, opts: { codes: boolean }): string[] {
  const tail = (w: Warning) => (opts.codes ? ` [${w.code}]` : '');
  const groups = new Map<string, { warning: Warning; tests: string[] }>();
  for (const r of run.results)
    for (const w of r.warnings) {
      const key = `${w.code}\u0000${w.message}`;
      const group = groups.get(key) ?? { warning: w, tests: [] };
      if (!group.tests.includes(r.test)) group.tests.push(r.test);
      groups.set(key, group);
    }
  const tested = [...groups.values()].map(({ warning, tests }) => {
    const which = tests.length === 1 ? tests[0]! : `${tests.slice(0, -1).join(', ')} and ${tests.at(-1)!} (${tests.length} tests)`;
    return `${which}: ${warning.message}${tail(warning)}`;
  });
  return [...run.warnings.map((w) => `${w.message}${tail(w)}`), ...tested];
}
