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
      const runs = library.transaction(() => {
        const found = requireRuns(library, ids);
        for (const id of ids) library.deleteRun(id);
        return found;
      });
      for (const run of runs) writeOut(`Deleted run ${run.id} "${run.label}".\n`);
      return 0;
    });
  },
};
