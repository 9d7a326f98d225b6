// `diskdelta list`: every run in the library, one line each. Reads only the runs table
// (see store/migrations.ts v2), so it stays fast with thousands of runs; the filters are
// SQL conditions on that table, never a filter over every run loaded.
import { parseCount, parseDate, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, formatTable, withLibrary } from '../library-cli.ts';
import type { RunSource } from '../../core/model/results.ts';
import type { RunFilter, RunSummary } from '../../core/store/library.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta list [--source measured|imported|reference] [--label TEXT] [--device TEXT]
                     [--since YYYY-MM-DD] [--limit N] [--json] [--db FILE]

Lists the runs in the results library: id, date, where they come from (measured here,
imported from another tool's file, or reference data shipped with DiskDelta), label, device.
Filters combine (all must match); text filters ignore case.

  --source S       only runs measured here, imported, or reference data
  --label TEXT     only runs whose label contains TEXT
  --device TEXT    only runs whose device model (or kernel name) or class contains TEXT
  --since DATE     only runs created on or after DATE (YYYY-MM-DD, UTC)
  --limit N        only the N newest of the matching runs
  --json           print the list as JSON (an array of run summaries)
${DB_HELP}`;

const SOURCES: readonly RunSource[] = ['measured', 'imported', 'reference'];

function parseSource(text: string): RunSource {
  const source = SOURCES.find((s) => s === text.trim().toLowerCase());
  if (!source) throw new UsageError(`--source '${text}' is not a source: use ${SOURCES.join(', ')}`);
  return source;
}

function parseText(text: string, flag: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`${flag} is empty`);
  if (trimmed.length > 200) throw new UsageError(`${flag} is ${trimmed.length} characters long; keep it to 200`);
  return trimmed;
}

export function formatRunList(runs: RunSummary[]): string {
  const rows = runs.map((r) => [
    String(r.id),
    r.createdAt.slice(0, 16).replace('T', ' '),
    r.source === 'measured' ? 'measured' : `[${r.source}] ${r.sourceFormat}`,
    // A path is not a device (a fio import names its test file): unknown is a dash.
    r.deviceModel ?? '—',
    String(r.resultCount),
    r.warningCount > 0 ? String(r.warningCount) : '',
    r.label,
  ]);
  return formatTable(['ID', 'DATE', 'SOURCE', 'DEVICE', 'TESTS', 'WARNINGS', 'LABEL'], rows);
}

export const listCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        source: { type: 'string' },
        label: { type: 'string' },
        device: { type: 'string' },
        since: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
        db: { type: 'string' },
      },
      true,
    );
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const filter: RunFilter = {};
    if (values.source !== undefined) filter.source = parseSource(values.source);
    if (values.label !== undefined) filter.label = parseText(values.label, '--label');
    if (values.device !== undefined) filter.device = parseText(values.device, '--device');
    if (values.since !== undefined) filter.since = parseDate(values.since, '--since');
    if (values.limit !== undefined) filter.limit = parseCount(values.limit, '--limit', 1, 1_000_000);
    const filtered = Object.keys(filter).length > 0;
    return withLibrary(
      'list',
      values.db,
      (library) => {
        const runs = library.listRuns(filter);
        if (values.json) writeOut(`${JSON.stringify(runs, null, 2)}\n`);
        else if (runs.length === 0 && filtered) writeOut(`No runs in ${library.path} match these filters.\n`);
        else if (runs.length === 0)
          writeOut(
            `No runs in ${library.path} yet: 'diskdelta run', 'diskdelta import FILE' or 'diskdelta import --reference' add some.\n`,
          );
        else writeOut(formatRunList(runs));
        return 0;
      },
      { readOnly: true },
    );
  },
};
