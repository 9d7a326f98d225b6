// `diskdelta delete ID…`: remove runs with everything measured under them. All ids are
// checked first, so a typo in one id deletes nothing.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, parseRunId, requireRuns, withLibrary } from '../library-cli.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta delete ID... [--db FILE]

Deletes the runs (results, samples, histograms, warnings included). There is no undo:
'diskdelta export ID --format json' keeps a copy that 'diskdelta import' brings back.

${DB_HELP}`;

export const deleteCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { db: { type: 'string' } }, true);
    if (positionals.length === 0) throw new UsageError('which run? Usage: diskdelta delete ID...');
    const ids = [...new Set(positionals.map(parseRunId))];
    return withLibrary('delete', values.db, (library) => {
      const labels = library.transaction(() => {
        // A run the library can no longer read (stored-row.ts) is deleted too: it is what its message tells the user to do.
        const { runs, unreadable } = library.readRuns(ids);
        const label = (id: number, i: number) => runs[i]?.label ?? unreadable.find((u) => u.id === id)?.label;
        const missing = ids.filter((id, i) => label(id, i) === undefined);
        if (missing.length > 0) requireRuns(library, missing);
        for (const id of ids) library.deleteRun(id);
        return ids.map((id, i) => [id, label(id, i)] as const);
      });
      for (const [id, label] of labels) writeOut(`Deleted run ${id} "${label}".\n`);
      return 0;
    });
  },
};
