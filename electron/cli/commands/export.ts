// `diskdelta export ID… --format json|csv`: runs out of the library. JSON keeps every field
// (DiskDelta's own format, which `diskdelta import` reads back); CSV is for spreadsheets.
import { rename, writeFile, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, requireRuns, withLibrary } from '../library-cli.ts';
import { exportCsv, exportJson } from '../../core/formats/index.ts';

const HELP = `Usage: diskdelta export ID... [--format json|csv] [--out FILE] [--db FILE]

Writes the runs to standard output or to FILE.

  --format F   json (default): every field, raw units; 'diskdelta import' reads it back
               csv: one row per run and test, units in the header, for spreadsheets
  --out FILE   write to FILE (replaced as a whole, never left half-written)
${DB_HELP}`;

export const exportCommand: CliCommand = {
  name: 'export',
  synopsis: 'export ID... [--format json|csv] [--out FILE]',
  summary: 'runs as DiskDelta JSON (re-importable) or CSV',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      format: { type: 'string' },
      out: { type: 'string' },
      db: { type: 'string' },
    }, true);
    const format = (values.format ?? 'json').toLowerCase();
    if (format !== 'json' && format !== 'csv') throw new UsageError(`--format '${values.format}' is not json or csv`);
    if (positionals.length === 0) throw new UsageError('which runs? Usage: diskdelta export ID... --format json|csv');
    const ids = positionals.map(parseRunId);
    return withLibrary('export', values.db, async (library) => {
      const runs = requireRuns(library, ids);
      const text = format === 'json' ? exportJson(runs) : exportCsv(runs);
      if (values.out === undefined) {
        process.stdout.write(text);
        return 0;
      }
      // Write beside the target and rename, so an interrupted export never leaves half a file.
      const tmp = join(dirname(values.out), `.${basename(values.out)}.${process.pid}.tmp`);
      try {
        await writeFile(tmp, text, { flag: 'wx' });
        await rename(tmp, values.out);
      } catch (error) {
        await rm(tmp, { force: true });
        throw new CliFailure(`cannot write ${values.out}: ${error instanceof Error ? error.message : String(error)}`);
      }
      process.stderr.write(`Exported ${runs.length} run${runs.length === 1 ? '' : 's'} to ${values.out} (${format}).\n`);
      return 0;
    });
  },
};
