// `diskdelta list`: the runs in the library, one line each. Reads only the runs table
// (see store/migrations.ts v2); the filters are SQL conditions on that table, never a filter
// over every run loaded. A fleet's library holds 100,000 runs: a terminal shows a page of the
// newest, so that is all the text list reads and formats (with a count of the rest);
// --all and --json give every match (scripts want them all).
import { parseCount, parseDate, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, formatTable, withLibrary } from '../library-cli.ts';
import { RUN_SOURCES, type RunSource } from '../../shared/model/figure-terms.ts';
import type { Library, RunFilter, RunListItem } from '../../node/store/library.ts';
import { isUnreadableRun, readableRuns } from '../../shared/model/run-summary.ts';
import { RUN_KINDS, type RunKind } from '../../shared/model/run-kind.ts';
import { unreadableRunsText } from '../../node/store/stored-row.ts';
import { writeOut } from '../terminal.ts';

/** How many runs the text list shows without --limit or --all: the newest, a screenful or two. */
export const LIST_PAGE = 100;

const HELP = `Usage: diskdelta list [--source measured|imported|reference] [--kind K[,K…]] [--label TEXT] [--device TEXT]
                     [--since YYYY-MM-DD] [--limit N | --all] [--json] [--db FILE]

Lists the runs in the results library: id, date, what it is (its kind), where it comes from
(measured here, imported from another tool's file, or reference data shipped with DiskDelta),
device, label. DATE is when the run was measured, or for an import or a reference the date its
source gives (a 2013 reference is dated 2013); where the run entered this library another day,
that day follows ("saved …"). Filters combine (all must match); text filters ignore case. The
text list shows the ${LIST_PAGE} most recently saved matching runs and says how many more there
are; --json lists every match.

  --source S       only runs measured here, imported, or reference data
  --kind K         only runs of this kind (or of any of several, comma-separated): ${RUN_KINDS.join(', ')}
  --label TEXT     only runs whose label contains TEXT
  --device TEXT    only runs whose device model (or kernel name) or class contains TEXT
  --since DATE     only runs created on or after DATE (YYYY-MM-DD, UTC)
  --limit N        only the N most recently saved of the matching runs (whatever date they carry)
  --all            every matching run (the text list otherwise stops at ${LIST_PAGE})
  --json           print the list as JSON (an array of run summaries)
${DB_HELP}`;

function parseSource(text: string): RunSource {
  const source = RUN_SOURCES.find((s) => s === text.trim().toLowerCase());
  if (!source) throw new UsageError(`--source '${text}' is not a source: use ${RUN_SOURCES.join(', ')}`);
  return source;
}

function parseKinds(text: string): RunKind[] {
  const kinds = text.split(',').map((part) => {
    const kind = RUN_KINDS.find((k) => k === part.trim().toLowerCase());
    if (!kind) throw new UsageError(`--kind '${part.trim()}' is not a kind of run: use ${RUN_KINDS.join(', ')}`);
    return kind;
  });
  return [...new Set(kinds)];
}

function parseText(text: string, flag: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`${flag} is empty`);
  if (trimmed.length > 200) throw new UsageError(`${flag} is ${trimmed.length} characters long; keep it to 200`);
  return trimmed;
}

/** The run's dates: when it was measured (or published), and the day it was saved when that is another day. */
function datesText(createdAt: string, savedAt: string): string {
  const created = createdAt.slice(0, 16).replace('T', ' ');
  return savedAt.slice(0, 10) === createdAt.slice(0, 10) ? created : `${created} (saved ${savedAt.slice(0, 10)})`;
}

/** The list as terminal text; rows the library can no longer read are named below it, with what to do. */
export function formatRunList(items: RunListItem[]): string {
  const rows = readableRuns(items).map((r) => [
    String(r.id),
    datesText(r.createdAt, r.savedAt),
    r.encrypted ? `${r.kind} (dm-crypt)` : r.kind,
    r.source === 'measured' ? 'measured' : `[${r.source}] ${r.sourceFormat}`,
    // A path is not a device (a fio import names its test file): unknown is a dash.
    r.deviceModel ?? '—',
    String(r.resultCount),
    r.warningCount > 0 ? String(r.warningCount) : '',
    r.label,
  ]);
  const unreadable = items.filter(isUnreadableRun).map((r) => ({ id: r.id, label: r.label, problem: r.unreadable }));
  const table = rows.length > 0 ? formatTable(['ID', 'DATE', 'KIND', 'SOURCE', 'DEVICE', 'TESTS', 'WARNINGS', 'LABEL'], rows) : '';
  return table + (unreadable.length > 0 ? `${unreadableRunsText(unreadable)}.\n` : '');
}

/** What `diskdelta list` prints: a page of the most recently saved matches (or all), and how many match. */
export function listPage(library: Library, filter: RunFilter, all: boolean): { runs: RunListItem[]; total: number } {
  if (all || filter.limit !== undefined) {
    const runs = library.listRunItems(filter);
    return { runs, total: filter.limit !== undefined && runs.length === filter.limit ? library.countRuns(filter) : runs.length };
  }
  const runs = library.listRunItems({ ...filter, limit: LIST_PAGE });
  return { runs, total: runs.length < LIST_PAGE ? runs.length : library.countRuns(filter) };
}

/** Under a page that leaves runs out: how many, and how to see them. */
export function moreText(shown: number, total: number): string {
  return shown < total
    ? `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} runs shown, the most recently saved: --limit N shows N, --all every one, filters narrow the list.\n`
    : '';
}

export const listCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        source: { type: 'string' },
        kind: { type: 'string' },
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
    if (values.kind !== undefined) filter.kind = parseKinds(values.kind);
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
          writeOut(`${JSON.stringify(library.listRunItems(filter), null, 2)}\n`);
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
