// `diskdelta list`: every run in the library, one line each. Reads only the runs table
// (see store/migrations.ts v2), so it stays fast with thousands of runs.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, formatTable, withLibrary } from '../library-cli.ts';
import type { RunSummary } from '../../core/store/library.ts';

const HELP = `Usage: diskdelta list [--json] [--db FILE]

Lists the runs in the results library: id, date, where they come from (measured here,
imported from another tool's file, or reference data shipped with DiskDelta), label, device.

  --json       print the list as JSON (an array of run summaries)
${DB_HELP}`;

export function formatRunList(runs: RunSummary[]): string {
  const rows = runs.map((r) => [
    String(r.id),
    r.createdAt.slice(0, 16).replace('T', ' '),
    r.source === 'measured' ? 'measured' : `[${r.source}] ${r.sourceFormat}`,
    r.deviceModel ?? (r.targetPath || '—'),
    String(r.resultCount),
    r.warningCount > 0 ? String(r.warningCount) : '',
    r.label,
  ]);
  return formatTable(['ID', 'DATE', 'SOURCE', 'DEVICE', 'TESTS', 'WARNINGS', 'LABEL'], rows);
}

export const listCommand: CliCommand = {
  name: 'list',
  synopsis: 'list [--json]',
  summary: 'the runs kept in the results library',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      json: { type: 'boolean' },
      db: { type: 'string' },
    }, true);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    return withLibrary('list', values.db, (library) => {
      const runs = library.listRuns();
      if (values.json) process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      else if (runs.length === 0) process.stdout.write(`No runs in ${library.path} yet: 'diskdelta run', 'diskdelta import FILE' or 'diskdelta import --reference' add some.\n`);
      else process.stdout.write(formatRunList(runs));
      return 0;
    });
  },
};
