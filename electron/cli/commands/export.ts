// `diskdelta export ID… --format json|csv`: runs out of the library. JSON keeps every field
// (DiskDelta's own format, which `diskdelta import` reads back); CSV is for spreadsheets.
import { UserFileError, writeUserFile } from '../../node/files/write-user-file.ts';
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, requireRuns, withLibrary } from '../library-cli.ts';
import { exportCsv, exportJson } from '../../node/formats/index.ts';
import { writeOut, writeErr } from '../terminal.ts';
import { counted } from '../../shared/model/display.ts';

const HELP = `Usage: diskdelta export ID... [--format json|csv] [--out FILE [--force]] [--db FILE]

Writes the runs to standard output or to FILE.

  --format F   json (default): every field, raw units; 'diskdelta import' reads it back
               csv: one row per run and test, units in the header, for spreadsheets
  --out FILE   write to FILE: a new file appears whole or not at all; a device, pipe or
               terminal (/dev/stdout, a FIFO) is written directly; a symlink is followed
  --force      replace FILE if it exists (rewritten in place: owner, mode and hard links kept)
${DB_HELP}`;

export const exportCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        format: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean' },
        db: { type: 'string' },
      },
      true,
    );
    const format = (values.format ?? 'json').toLowerCase();
    if (format !== 'json' && format !== 'csv') throw new UsageError(`--format '${values.format}' is not json or csv`);
    if (positionals.length === 0) throw new UsageError('which runs? Usage: diskdelta export ID... --format json|csv');
    const ids = positionals.map(parseRunId);
    return withLibrary(
      'export',
      values.db,
      async (library) => {
        const runs = requireRuns(library, ids);
        const text = format === 'json' ? exportJson(runs) : exportCsv(runs);
        if (values.out === undefined) {
          // The exporters neutralize control characters (formats/csv-export.ts, diskdelta-json.ts):
          // a pipe, a file and a terminal get the same bytes, none of which a terminal obeys.
          writeOut(text);
          return 0;
        }
        try {
          await writeUserFile(values.out, text, { force: values.force === true });
        } catch (error) {
          if (!(error instanceof UserFileError)) throw error;
          throw new CliFailure(error.code === 'exists' ? `${error.message}: add --force to replace it` : error.message);
        }
        writeErr(`Exported ${counted(runs.length, 'run')} to ${values.out} (${format}).\n`);
        return 0;
      },
      { readOnly: true },
    );
  },
};
