// The seed's 2×2 table of the discard mount option (shared/reference/seed-figures.md): for each
// pair of runs "without discard" then "with discard", extract + sync and delete + sync, and what
// discard costs (with − without); fstrim's time and bytes where the pair has them. A pair is two
// runs whose sourceMeta['mount option'] is "no discard" and "discard", as the shipped 2013
// references and `discard-cost`'s stored runs are (bench/trim/discard-runs.ts). One table, read
// by the CLI's compare, the chart registry (Compare and the report) alike.
import { testById } from '../model/catalog.ts';
import type { Figure, RunRecord, RunSource, Warning } from '../model/results.ts';
import { formatBytes, formatNumber, formatRatio } from './units.ts';

export interface DiscardCell {
  /** Seconds (or bytes for fstrim's trimmed), null when the run has no such figure. */
  value: number | null;
  display: string;
  /** How it was obtained (passes and their range, a published mean). */
  basis?: string;
}

export interface DiscardRow {
  option: 'no discard' | 'discard';
  /** Index of the run in the compared list. */
  runIndex: number;
  extract: DiscardCell;
  delete: DiscardCell;
}

export interface DiscardPair {
  /** "#4 Intel 525, ext4 on LVM on LUKS (reference)". */
  title: string;
  source: RunSource;
  /** The workload test the phases come from (the seed's tree, a scaled one). */
  test: string;
  testTitle: string;
  /** The phases across: the tree is extracted, the big file written; both deleted. */
  phases: [string, string];
  rows: DiscardRow[];
  /** With − without, per phase; null without both. */
  cost: { extract: DiscardCell; delete: DiscardCell };
  fstrim: { seconds: DiscardCell; trimmed: DiscardCell } | null;
  /** Sentences about this pair: the measured verdict, where it ran, warnings; a reference's origin. */
  notes: string[];
}

const PHASES = { extract: ['write', 'extract', 'unpack'], delete: ['delete'] } as const;

interface DiscardCase {
  test: string;
  figures: Figure[];
  warnings: Warning[];
}

/** A run's timed deletes, in its order: the tree first, then the seed's second case (the big file) where it has one. */
function deleteCases(run: RunRecord): DiscardCase[] {
  return run.results
    .filter((r) => r.figures?.some((f) => f.metric === 'phaseSeconds' && f.subject === 'delete'))
    .map((r) => ({ test: r.test, figures: r.figures ?? [], warnings: r.warnings }));
}

/**
 * What a case other than the run's first says of itself, by test: the sourceMeta keys of its
 * title (the big file's size, when it is not the catalog's 3 GB) and of its verdict.
 */
const CASE_META: Record<string, { title: string; verdict: string; seedTitle: string }> = {
  bigfile: { title: 'big file', verdict: 'big file verdict', seedTitle: "one file of 3,000 MB, the seed's size" },
};

// Milliseconds, as the seed printed them (7.368 s against 7.373 s): three significant digits would hide the difference.
const seconds = (v: number) => (Math.abs(v) >= 1000 ? `${formatNumber(v)} s` : `${v.toFixed(3)} s`);

function phaseCell(figures: Figure[], subjects: readonly string[]): DiscardCell {
  const f = figures.find((x) => x.metric === 'phaseSeconds' && subjects.includes(x.subject));
  if (!f || f.value === null) return { value: null, display: '— (not timed)' };
  return { value: f.value, display: seconds(f.value), ...(f.basis ? { basis: f.basis } : {}) };
}

function costCell(off: DiscardCell, on: DiscardCell): DiscardCell {
  if (off.value === null || on.value === null) return { value: null, display: '— (needs both settings)' };
  const d = on.value - off.value;
  const ratio = off.value > 0 ? ` (${formatRatio(on.value / off.value, 'lower')})` : '';
  return { value: d, display: `${d >= 0 ? '+' : '−'}${seconds(Math.abs(d))}${ratio}` };
}

const option = (run: RunRecord): DiscardRow['option'] | null => {
  const o = run.sourceMeta['mount option'];
  return o === 'no discard' || o === 'discard' ? o : null;
};

/**
 * The discard pairs among compared runs, in their order; runs without a mount option are left
 * out. A pair of runs gives one table per timed delete they share (the tree; the big file), the
 * tree's first: the seed's two cases, each beside the other pair's same case.
 */
export function discardTable(runs: RunRecord[]): DiscardPair[] {
  const pairs: DiscardPair[] = [];
  const marked = runs
    .map((run, index) => ({ run, index, option: option(run), cases: deleteCases(run) }))
    .filter((m) => m.option && m.cases.length > 0);
  for (let i = 0; i < marked.length; i++) {
    const first = marked[i]!;
    const next = marked[i + 1];
    const paired =
      first.option === 'no discard' && next?.option === 'discard' && next.cases[0]!.test === first.cases[0]!.test ? next : null;
    const members = paired ? [first, paired] : [first];
    if (paired) i++;
    first.cases.forEach((c, k) => pairs.push(pairOf(members, c.test, k === 0, paired !== null)));
  }
  return pairs;
}

type Member = { run: RunRecord; index: number; option: DiscardRow['option'] | null; cases: DiscardCase[] };

/** One case's table of a pair (or a lone half): rows, cost, fstrim where its figures have it, notes. */
function pairOf(all: Member[], test: string, firstCase: boolean, paired: boolean): DiscardPair {
  const members = all.flatMap((m) => {
    const c = m.cases.find((x) => x.test === test);
    return c ? [{ ...m, option: m.option!, c }] : [];
  });
  const rows: DiscardRow[] = members.map((m) => ({
    option: m.option,
    runIndex: m.index,
    extract: phaseCell(m.c.figures, PHASES.extract),
    delete: phaseCell(m.c.figures, PHASES.delete),
  }));
  const off = rows.find((r) => r.option === 'no discard');
  const on = rows.find((r) => r.option === 'discard');
  const none: DiscardCell = { value: null, display: '— (needs both settings)' };
  const offCase = members.find((m) => m.option === 'no discard')?.c;
  const trimFigure = (metric: string) => offCase?.figures.find((f) => f.metric === metric && f.subject === 'fstrim') ?? null;
  const trimSeconds = trimFigure('phaseSeconds');
  const trimmed = trimFigure('trimmedBytes');
  const head = all[0]!;
  const run = head.run;
  const meta = CASE_META[test];
  // The run's own sentences under its first case; a later case says only what is its own.
  const notes = [
    ...new Set(
      members.flatMap((m) =>
        firstCase
          ? [
              ...(m.run.sourceMeta.verdict ? [m.run.sourceMeta.verdict] : []),
              ...(m.run.sourceMeta.where ? [`Measured ${m.run.sourceMeta.where}.`] : []),
              ...(m.run.sourceMeta.fstrim ? [`fstrim: ${m.run.sourceMeta.fstrim}.`] : []),
              ...m.run.warnings.map((w) => `${w.message}.`),
            ]
          : [
              ...(meta && m.run.sourceMeta[meta.verdict] ? [m.run.sourceMeta[meta.verdict]!] : []),
              ...m.c.warnings.filter((w) => !m.run.warnings.some((r) => r.message === w.message)).map((w) => `${w.message}.`),
            ],
      ),
    ),
  ];
  if (!paired)
    notes.push(`Only the run ${head.option === 'discard' ? 'with' : 'without'} discard is compared: add its other half for the cost.`);
  // A big file of another size than the catalog's 3 GB says its own size (sourceMeta['big file']).
  const ownTitle = meta ? run.sourceMeta[meta.title] : undefined;
  const catalogTitle = testById(test)?.label;
  return {
    title: `#${run.id ?? head.index + 1} ${pairName(run)}${run.source === 'measured' ? '' : ` (${run.source})`}`,
    source: run.source,
    test,
    // A tree of another size than the catalog's says its own size (sourceMeta.tree).
    phases: [test === 'bigfile' ? 'write + sync' : 'extract + sync', 'delete + sync'],
    testTitle:
      ownTitle && ownTitle !== meta?.seedTitle && catalogTitle
        ? `${catalogTitle.replace(/\s*\(.*\)$/, '')}: ${ownTitle}`
        : (catalogTitle ?? run.sourceMeta.tree ?? test),
    rows,
    cost: { extract: off && on ? costCell(off.extract, on.extract) : none, delete: off && on ? costCell(off.delete, on.delete) : none },
    fstrim: trimSeconds
      ? {
          seconds:
            trimSeconds.value === null
              ? { value: null, display: '— (not timed)' }
              : { value: trimSeconds.value, display: seconds(trimSeconds.value) },
          trimmed:
            trimmed?.value == null
              ? { value: null, display: '— (fstrim did not say)' }
              : { value: trimmed.value, display: formatBytes(trimmed.value) },
        }
      : null,
    notes,
  };
}

/** A pair's name: the run's label without the part that names its setting. */
function pairName(run: RunRecord): string {
  return run.label
    .replace(/:\s*(without discard|mounted with discard|with discard)\b\s*/i, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The table as terminal text: the seed's shape (mount option down, phases across), one block per pair. */
export function discardTableText(pairs: DiscardPair[]): string {
  if (pairs.length === 0) return '';
  const out: string[] = ["Online discard (the seed's 2×2: mount option × phase, seconds, lower is better)"];
  for (const p of pairs) {
    out.push('', `  ${p.title} — ${p.testTitle}`);
    const rows: string[][] = [
      ['mount option', ...p.phases],
      ...p.rows.map((r) => [r.option, r.extract.display, r.delete.display]),
      ['discard costs', p.cost.extract.display, p.cost.delete.display],
    ];
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const r of rows)
      out.push(
        `    ${r
          .map((cell, c) => cell.padEnd(widths[c]!))
          .join('  ')
          .trimEnd()}`,
      );
    if (p.fstrim) out.push(`    fstrim afterwards: ${p.fstrim.seconds.display}, ${p.fstrim.trimmed.display} trimmed`);
    for (const n of p.notes) out.push(`    ${n}`);
  }
  return out.join('\n') + '\n';
}
