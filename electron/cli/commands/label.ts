// `diskdelta label ID TEXT`: rename a run (the label is what lists and comparisons show).
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, withLibrary, checkLabel } from '../library-cli.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta label ID TEXT [--db FILE]

Gives run ID a new label. Words after ID are joined with spaces, so quotes are optional.

${DB_HELP}`;

export const labelCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { db: { type: 'string' } }, true);
    const [idText, ...words] = positionals;
    if (idText === undefined) throw new UsageError('which run? Usage: diskdelta label ID TEXT');
    const id = parseRunId(idText);
    const label = words.join(' ').trim();
    if (label === '') throw new UsageError('the new label is empty. Usage: diskdelta label ID TEXT');
    if (label.length > 200) throw new UsageError(`the label is ${label.length} characters long; keep it to 200`);
    checkLabel(label, 'the label');
    return withLibrary('label', values.db, (library) => {
      if (!library.relabel(id, label)) throw new CliFailure(`no run ${id} in the library ${library.path} ('diskdelta list' shows the ids)`);
      writeOut(`Run ${id} is now labelled "${label}".\n`);
      return 0;
    });
  },
};
