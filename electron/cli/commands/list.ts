// `diskdelta list`: the runs in the library, one line each. Reads only the runs table
// (see store/migrations.ts v2); the filters are SQL conditions on that table, never a filter
// over every run loaded. A fleet's library holds 100,000 runs: a terminal shows a page of the
// newest, so that is all the text list reads and formats (with a count of the rest);
// --all and --json give every match (scripts want them all).
import { parseCount, parseDate, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, formatTable, withLibrary } from '../library-cli.ts';
import { RUN_SOURCES, type RunSource } from '../../shared/model/figure-terms.ts';
import type { Library, RunFilter, RunSummary } from '../../node/store/library.ts';
import { writeOut } from '../terminal.ts';

/** How many runs the text list shows without --limit or --all: the newest, a screenful or two. */
export const LIST_PAGE = 100;

const HELP = `Usage: diskdelta list [--source measured|imported|reference] [--label TEXT] [--device TEXT]
                     [--since YYYY-MM-DD] [--limit N | --all] [--json] [--db FILE]

Lists the runs in the results library: id, date, where they come from (measured here,
imported from another tool's file, or reference data shipped with DiskDelta), label, device.
Filters combine (all must match); text filters ignore case. The text list shows the newest
${LIST_PAGE} matching runs and says how many more there are; --json lists every match.

  --source S       only runs measured here, imported, or reference data
  --label TEXT     only runs whose label contains TEXT
  --device TEXT    only runs whose device model (or kernel name) or class contains TEXT
  --since DATE     only runs created on or after DATE (YYYY-MM-DD, UTC)
  --limit N        only the N newest of the matching runs
  --all            every matching run (the text list otherwise stops at ${LIST_PAGE})
  --json           print the list as JSON (an array of run summaries)
${DB_HELP}`;

function parseSource(text: string): RunSource {
  const source = RUN_SOURCES.find((s) => s === text.trim().toLowerCase());
  if (!source) throw new UsageError(`--source '${text}' is not a source: use ${RUN_SOURCES.join(', ')}`);
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

/** What `diskdelta list` prints: a page of the newest matches (or all), and how many match. */
export function listPage(library: Library, filter: RunFilter, all: boolean): { runs: RunSummary[]; total: number } {
  if (all || filter.limit !== undefined) {
    const runs = library.listRuns(filter);
    return { runs, total: filter.limit !== undefined && runs.length === filter.limit ? library.countRuns(filter) : runs.length };
  }
  const runs = library.listRuns({ ...filter, limit: LIST_PAGE });
  return { runs, total: runs.length < LIST_PAGE ? runs.length : library.countRuns(filter) };
}

/** Under a page that leaves runs out: how many, and how to see them. */
export function moreText(shown: number, total: number): string {
  return shown < total
    ? `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} runs shown, the newest: --limit N shows N, --all every one, filters narrow the list.\n`
    : '';
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
        all: { type: 'boolean' },
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
    if (values.limit !== undefined && values.all) throw new UsageError('--limit and --all contradict each other: give one');
    const filtered = Object.keys(filter).length > 0;
    return withLibrary(
      'list',
      values.db,
      (library) => {
        if (values.json) {
          writeOut(`${JSON.stringify(library.listRuns(filter), null, 2)}\n`);
          return 0;
        }
        const { runs, total } = listPage(library, filter, values.all === true);
        if (runs.length === 0 && filtered) writeOut(`No runs in ${library.path} match these filters.\n`);
        else if (runs.length === 0)
          writeOut(
            `No runs in ${library.path} yet: 'diskdelta run', 'diskdelta import FILE' or 'diskdelta import --reference' add some.\n`,
          );
        else writeOut(formatRunList(runs) + moreText(runs.length, total));
        return 0;
      },
      { readOnly: true },
    );
  },
};
