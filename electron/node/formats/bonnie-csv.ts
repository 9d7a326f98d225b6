// bonnie++ CSV (what `bonnie++ -q` prints on stdout and bon_csv2txt/bon_csv2html read).
//
// Three column layouts exist, told apart by the first field and the field count:
//  - 1.0x (1.02/1.03): 27 fields, starting with the machine name, no version;
//  - 1.93–1.97: 48 fields, starting with format_version and bonnie_version, latencies at the end;
//  - 1.98 and 2.0x (format_version "1.98"): 50 fields, two more after io_chunk_size (the number
//    of seeks and seeker processes, "-s size:chunk:seeks:seekers"). bonnie++ 2.00a still prints
//    the 48-name header line with -x, so the header is skipped, never trusted for positions.
//
// Mapping (documented in README.md of this folder):
//  - "Block" sequential input  (get_block, K/sec)  → seq1m-q1t1-read
//  - "Block" sequential output (put_block, K/sec)  → seq1m-q1t1-write
//  - random seeks (seeks, /sec)                     → seeks (as IOPS)
//  bonnie++ reads and writes with read()/write() through the page cache from one process, so
//  SEQ1M Q1T1 is the nearest DiskDelta test, not the same test: each such result carries a
//  "nearest-test" warning and params null (bonnie++'s parameters are not DiskDelta's).
//  K/sec is KiB/s (×1024 to bytes/s). "+++++" means the test finished too fast to measure
//  (under 500 ms): the value is null and the result under-resolved, never zero. Latency fields
//  ("19954us", "348ms", "1s") are the worst single operation, stored in ns as latencyNs.max.
//  Every other field (per-char, rewrite, file creation, CPU %) is kept as an extra metric under
//  its CSV column name with its unit.
import { testByForeignName } from '../../shared/model/catalog.ts';
import type { ExtraMetric, LatencyNs, RunRecord, TestResult, Warning } from '../../shared/model/results.ts';
import { eachLine, emptyLatency, resultWithoutRuns, parseToolSize, scaleDecimal } from './common.ts';
import { figureProblem, type FigureKind } from './sanity.ts';
import { ImportError, MAX_RUNS_PER_IMPORT, tooManyRuns } from './import-error.ts';

const IO_FIELDS = [
  'putc',
  'putc_cpu',
  'put_block',
  'put_block_cpu',
  'rewrite',
  'rewrite_cpu',
  'getc',
  'getc_cpu',
  'get_block',
  'get_block_cpu',
  'seeks',
  'seeks_cpu',
] as const;
const FILE_FIELDS = [
  'seq_create',
  'seq_create_cpu',
  'seq_stat',
  'seq_stat_cpu',
  'seq_del',
  'seq_del_cpu',
  'ran_create',
  'ran_create_cpu',
  'ran_stat',
  'ran_stat_cpu',
  'ran_del',
  'ran_del_cpu',
] as const;
const META_TEXT_LIMIT = 4000;

const LATENCY_FIELDS = [
  'putc_latency',
  'put_block_latency',
  'rewrite_latency',
  'getc_latency',
  'get_block_latency',
  'seeks_latency',
  'seq_create_latency',
  'seq_stat_latency',
  'seq_del_latency',
  'ran_create_latency',
  'ran_stat_latency',
  'ran_del_latency',
] as const;

const LAYOUT_103 = ['name', 'file_size', ...IO_FIELDS, 'num_files', ...FILE_FIELDS];
const LAYOUT_197 = [
  'format_version',
  'bonnie_version',
  'name',
  'concurrency',
  'seed',
  'file_size',
  'io_chunk_size',
  ...IO_FIELDS,
  'num_files',
  'max_size',
  'min_size',
  'num_dirs',
  'file_chunk_size',
  ...FILE_FIELDS,
  ...LATENCY_FIELDS,
];
const LAYOUT_198 = [...LAYOUT_197.slice(0, 7), 'num_seeks', 'seek_proc_count', ...LAYOUT_197.slice(7)];

const SETTINGS_FIELDS = new Set([
  'format_version',
  'bonnie_version',
  'name',
  'concurrency',
  'seed',
  'file_size',
  'io_chunk_size',
  'num_seeks',
  'seek_proc_count',
  'num_files',
  'max_size',
  'min_size',
  'num_dirs',
  'file_chunk_size',
]);

/** What bonnie++'s own report calls each figure, kept as the extra's note. */
const LABELS: Record<string, string> = {
  putc: 'Sequential Output, Per Chr',
  put_block: 'Sequential Output, Block',
  rewrite: 'Sequential Output, Rewrite',
  getc: 'Sequential Input, Per Chr',
  get_block: 'Sequential Input, Block',
  seeks: 'Random Seeks',
  seq_create: 'Sequential Create, Create',
  seq_stat: 'Sequential Create, Read',
  seq_del: 'Sequential Create, Delete',
  ran_create: 'Random Create, Create',
  ran_stat: 'Random Create, Read',
  ran_del: 'Random Create, Delete',
};

/** The bonnie++ fields that map to a catalog test (model/catalog.ts names.bonnie). */
const MAPPED = Object.fromEntries(
  (['get_block', 'put_block', 'seeks'] as const).map((field) => {
    const test = testByForeignName('bonnie', field);
    if (!test) throw new Error(`the catalog maps no test from bonnie++'s ${field}`);
    return [field, test.id];
  }),
) as Record<'get_block' | 'put_block' | 'seeks', string>;

type Layout = { name: '1.0x' | '1.9x' | '1.98+'; fields: string[] };

function layoutFor(cells: string[]): Layout | null {
  const first = cells[0] ?? '';
  // A trailing comma adds one empty field; tolerate exactly that.
  const n = cells.length > 0 && cells[cells.length - 1] === '' ? [cells.length, cells.length - 1] : [cells.length];
  const versioned = /^\d+\.\d+[a-z]?$/.test(first);
  if (versioned) {
    const fmt = Number(/^\d+\.\d+/.exec(first)?.[0]);
    if (fmt >= 1.98 && n.includes(LAYOUT_198.length)) return { name: '1.98+', fields: LAYOUT_198 };
    if (fmt < 1.98 && n.includes(LAYOUT_197.length)) return { name: '1.9x', fields: LAYOUT_197 };
    return null;
  }
  if (n.includes(LAYOUT_103.length)) return { name: '1.0x', fields: LAYOUT_103 };
  return null;
}

/**
 * A line that is meant as a CSV row: many commas and the start of one of the layouts (a
 * version pair "1.97,1.97," or, for 1.0x, "name,size,"). bonnie++ run without -q prints its
 * progress lines and text table before the row ("Using uid:65534, gid:65534." has a comma
 * too), so lines that are not meant as rows are text, while a meant-as-row line that does not
 * fit a layout stays an error: a row cut short is never mistaken for text.
 */
function isRowCandidate(line: string): boolean {
  const cells = cellsOf(line);
  if (cells.length < 8) return false;
  const [a = '', b = ''] = cells;
  if (/^\d+\.\d+[a-z]?$/.test(a) && /^\d+\.\d+[a-z]?$/.test(b)) return true;
  return /^\d+[KMGT]?(:\d+[kKmM]?)*$/i.test(b) && !/\s{2,}/.test(a);
}

/** The most cells a row of any layout has: the 1.98 layout and a trailing comma. */
const MAX_CELLS = LAYOUT_198.length + 1;

/**
 * The comma-separated cells of a line, at most MAX_CELLS + 1 of them: enough to tell that a
 * line has too many for any layout, without an array of every comma of a 45 MB line (755 MB).
 */
function cellsOf(line: string): string[] {
  return line.split(',', MAX_CELLS + 1);
}

/** True when `text` holds a bonnie++ CSV row in a known layout (with or without the text report around it). */
export function looksLikeBonnieCsv(text: string): boolean {
  for (const [raw] of eachLine(text)) {
    const line = raw.trim();
    if (line === '' || isHeader(line) || !isRowCandidate(line)) continue;
    const cells = cellsOf(line);
    const layout = layoutFor(cells);
    // A row that starts with bonnie++'s version pair but has the wrong number of fields is a
    // damaged bonnie++ file: recognised, so that the error names the row's line.
    if (!layout) return /^\d+\.\d+[a-z]?,\d+\.\d+[a-z]?,/.test(line);
    // The size field must look like a size: this keeps other CSVs from matching by field count.
    const size = cells[layout.fields.indexOf('file_size')] ?? '';
    return size === '' || /^\d+[KMGT]?(:\d+[kKmM]?)*$/i.test(size);
  }
  return false;
}

function isHeader(line: string): boolean {
  return line.startsWith('format_version,') || line.startsWith('name,');
}

/** "19954us" → 19954000 ns; "348ms"; "1s"; "" or "+++++" → null. */
function latencyNs(value: string, fail: (m: string) => never, field: string): number | null {
  if (value === '' || /^\++$/.test(value)) return null;
  const m = /^(\d+(?:\.\d+)?)(ns|us|ms|s)$/.exec(value);
  if (!m) fail(`field ${field}: "${value}" is not a latency with a unit (ns, us, ms or s)`);
  const shift = { ns: 0, us: 3, ms: 6, s: 9 }[m[2] as 'ns' | 'us' | 'ms' | 's'];
  const ns = scaleDecimal(m[1] as string, shift);
  if (ns === null) fail(`field ${field}: "${value}" is out of range`);
  refuse(fail, field, value, 'latency', ns);
  return Math.round(ns);
}

/** Fails on a figure past FIGURE_LIMITS (sanity.ts), naming the field and what the file says. */
function refuse(fail: (m: string) => never, field: string, text: string, kind: FigureKind, value: number | null): void {
  const problem = figureProblem(kind, value);
  if (problem) fail(`field ${field}: "${text}" ${problem}`);
}

type Cell = { kind: 'empty' } | { kind: 'too-fast' } | { kind: 'value'; value: number };

function numberCell(value: string, fail: (m: string) => never, field: string): Cell {
  if (value === '') return { kind: 'empty' };
  if (/^\++$/.test(value)) return { kind: 'too-fast' };
  const n = scaleDecimal(value, 0);
  if (n === null) fail(`field ${field}: "${value}" is not a number`);
  return { kind: 'value', value: n };
}

function unitOf(field: string): string {
  if (field.endsWith('_cpu')) return '% CPU';
  if (field === 'putc' || field === 'put_block' || field === 'rewrite' || field === 'getc' || field === 'get_block') {
    return 'K/sec';
  }
  return '/sec';
}

const UNDER_RESOLVED: Warning = {
  code: 'under-resolved',
  message: 'bonnie++ printed +++++: the test finished too fast to measure (under 0.5 s); use a larger test size.',
};

function nearestWarning(field: keyof typeof MAPPED): Warning {
  const what = {
    get_block: 'bonnie++ "Block" sequential input (read() calls through the page cache, one process)',
    put_block: 'bonnie++ "Block" sequential output (write() calls through the page cache, one process)',
    seeks: 'bonnie++ random seeks (reads of one block at random offsets, several seeker processes)',
  }[field];
  return {
    code: 'nearest-test',
    message: `${what} is shown as ${MAPPED[field]}, the nearest DiskDelta test; it is not the same test.`,
  };
}

function parseRow(
  cells: string[],
  layout: Layout,
  fail: (m: string) => never,
  now: Date,
): Omit<RunRecord, 'label'> & { machine: string; size: string } {
  const get = (f: string) => (cells[layout.fields.indexOf(f)] ?? '').trim();
  const meta: Record<string, string> = { csvLayout: layout.name };
  for (const f of layout.fields) {
    if (SETTINGS_FIELDS.has(f) && get(f) !== '') meta[f] = get(f);
  }
  meta.date = startWindowText(startWindowFromSeed(get('seed'), now));

  const latencies = new Map<string, number | null>();
  if (layout.name !== '1.0x') {
    for (const f of LATENCY_FIELDS) latencies.set(f, latencyNs(get(f), fail, f));
  }

  const results: TestResult[] = [];
  const extras: ExtraMetric[] = [];
  for (const f of [...IO_FIELDS, ...FILE_FIELDS]) {
    const cell = numberCell(get(f), fail, f);
    if (cell.kind === 'empty') continue; // test not run (e.g. -f skips per-char)
    if (cell.kind === 'value' && unitOf(f) !== '% CPU')
      // K/sec is KiB/s; the other counts are per second (seeks, files created…).
      refuse(fail, f, get(f), unitOf(f) === 'K/sec' ? 'rate' : 'iops', unitOf(f) === 'K/sec' ? cell.value * 1024 : cell.value);
    const mapped = (MAPPED as Record<string, string>)[f];
    if (mapped) {
      const key = f as keyof typeof MAPPED;
      const lat: LatencyNs = { ...emptyLatency(), max: latencies.get(`${f}_latency`) ?? null };
      const value = cell.kind === 'value' ? cell.value : null;
      results.push(
        resultWithoutRuns({
          test: mapped,
          params: null,
          bytesPerSec: key === 'seeks' || value === null ? null : value * 1024,
          iops: key === 'seeks' ? value : null,
          latencyNs: lat,
          underResolved: cell.kind === 'too-fast',
          // Each CSV line is one bonnie++ run (its -x repeats are lines of their own).
          statistic: 'single',
          warnings: cell.kind === 'too-fast' ? [UNDER_RESOLVED, nearestWarning(key)] : [nearestWarning(key)],
        }),
      );
      continue;
    }
    const label = LABELS[f.replace(/_cpu$/, '')];
    const note = cell.kind === 'too-fast' ? `under-resolved: bonnie++ printed ${get(f)} (too fast to measure)` : undefined;
    const extra: ExtraMetric = {
      name: f,
      value: cell.kind === 'value' ? cell.value : null,
      unit: unitOf(f),
    };
    const notes = [label && (f.endsWith('_cpu') ? `${label}, CPU use` : label), note].filter(Boolean);
    if (notes.length > 0) extra.note = notes.join('; ');
    extras.push(extra);
  }
  // Latencies of unmapped tests are kept as extras, converted to ns (the raw unit).
  for (const f of LATENCY_FIELDS) {
    const base = f.replace(/_latency$/, '');
    if (base in MAPPED) continue;
    const raw = get(f);
    if (raw === '') continue;
    extras.push({
      name: f,
      value: latencies.get(f) ?? null,
      unit: 'ns',
      note: `${LABELS[base] ?? base}, worst single operation; the file says ${raw}`,
    });
  }
  if (results.length === 0 && extras.length === 0) fail('the row holds no results');

  const [sizePart, chunkPart] = get('file_size').split(':');
  const sizeBytes = sizePart ? parseToolSize(sizePart) : null;
  refuse(fail, 'file_size', sizePart ?? '', 'size', sizeBytes);
  if (chunkPart) meta.io_chunk_size = chunkPart;
  const settings: RunRecord['settings'] = { runs: 1 };
  if (sizeBytes !== null) settings.sizeBytes = sizeBytes;

  const warnings: Warning[] = results.some((r) => r.underResolved)
    ? [{ code: 'under-resolved', message: 'Some bonnie++ figures were +++++ (too fast to measure); they are kept as null, not zero.' }]
    : [];
  return {
    createdAt: now.toISOString(),
    notes: '',
    source: 'imported',
    sourceFormat: 'bonnie++',
    sourceMeta: meta,
    target: { path: '', kind: 'unknown' },
    settings,
    engine: { name: 'bonnie++', version: get('bonnie_version') || 'unknown (1.0x CSV layout)' },
    results,
    extras,
    warnings,
    machine: get('name'),
    size: get('file_size'),
  };
}

// bonnie++ 1.93 and later write the seed of their random numbers. It is not time(NULL):
// bonnie++.cpp seeds with `getpid() ^ time(NULL)` (checked here: a 2.00a run as pid 5425 at
// 1796135352 wrote seed 1796131977, and 1796131977 ^ 5425 = 1796135352). Without the pid the
// start is known only to the bits above any pid: Linux pids stay under 2^22 (PID_MAX_LIMIT on
// 64-bit), so the seed dates a run to a window of 2^22 s (48.5 days), never to an instant. The
// run's createdAt is therefore the import time, and the window is said beside it. A window
// that begins after the import (a -z seed, a clock ahead) is no start time: no day's grace.
const EARLIEST_START = Date.UTC(1999, 0, 1);
const PID_BITS_SECONDS = 2 ** 22;

export interface StartWindow {
  from: Date;
  to: Date;
}

export function startWindowFromSeed(seed: string, now: Date): StartWindow | null {
  if (!/^\d{9,10}$/.test(seed)) return null;
  const high = Number(seed) - (Number(seed) % PID_BITS_SECONDS);
  const from = high * 1000;
  const to = Math.min((high + PID_BITS_SECONDS - 1) * 1000, now.getTime());
  return from >= EARLIEST_START && from <= now.getTime() ? { from: new Date(from), to: new Date(to) } : null;
}

function startWindowText(window: StartWindow | null): string {
  if (!window) return 'not in the file: createdAt is the time of the import';
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return (
    `began between ${day(window.from)} and ${day(window.to)} (UTC), from the seed field; createdAt is the time of the import: ` +
    'bonnie++ seeds with its process id XOR time(NULL), so the seed dates a run only to about 48 days'
  );
}

/** Every bonnie++ CSV row of the file becomes one run; the text report around rows is kept, not parsed. */
export function parseBonnieCsv(text: string, fileName: string, now: Date): RunRecord[] {
  const rows: Array<ReturnType<typeof parseRow>> = [];
  // One line at a time: the runs are capped (MAX_RUNS_PER_IMPORT) and the text kept is capped,
  // so a file of millions of lines never becomes an array of them.
  const reportLines: string[] = [];
  let reportChars = 0;
  let last: [string, number] = ['', 0];
  for (const [raw, index] of eachLine(text)) {
    last = [raw, index];
    const line = raw.trim();
    if (line === '' || isHeader(line)) continue;
    if (!isRowCandidate(line)) {
      // Only what is kept (META_TEXT_LIMIT) is collected.
      if (reportChars <= META_TEXT_LIMIT) reportLines.push(raw.slice(0, META_TEXT_LIMIT));
      reportChars += raw.length + 1;
      continue;
    }
    const fail = (problem: string): never => {
      throw new ImportError(fileName, index + 1, problem);
    };
    const cells = cellsOf(line);
    const layout = layoutFor(cells);
    if (!layout) {
      fail(
        `not a bonnie++ CSV row: ${cells.length > MAX_CELLS ? `more than ${MAX_CELLS}` : cells.length} fields (the 1.0x layout has ${LAYOUT_103.length}, ` +
          `1.93–1.97 have ${LAYOUT_197.length}, 1.98 and 2.0x have ${LAYOUT_198.length})`,
      );
    }
    if (rows.length === MAX_RUNS_PER_IMPORT) throw tooManyRuns(fileName, `more than ${MAX_RUNS_PER_IMPORT}`);
    rows.push(parseRow(cells, layout as Layout, fail, now));
  }
  if (rows.length === 0) throw new ImportError(fileName, null, 'no bonnie++ result rows in the file');
  // bonnie++ ends every row with a line break. Without one the last row may have been cut
  // inside its last field ("…,+++" → "…,+", "…,45" → "…,4"), which no field count can show.
  if (last[0].trim() !== '') {
    throw new ImportError(
      fileName,
      last[1] + 1,
      'the last row does not end with a line break: the file looks truncated (bonnie++ ends every row with one; add it if the file was edited by hand)',
    );
  }
  // The text report (bonnie++ without -q) says nothing the rows do not; it is kept for reference.
  const report = reportLines.join('\n').trim().slice(0, META_TEXT_LIMIT);
  return rows.map(({ machine, size, ...run }, i) => ({
    ...run,
    sourceMeta: report ? { ...run.sourceMeta, textReport: report } : run.sourceMeta,
    label: `${machine || 'bonnie++'} ${size}`.trim() + (rows.length > 1 ? ` #${i + 1}` : ''),
  }));
}
