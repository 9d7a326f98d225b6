// The summary of a report in plain sentences: a list of sections, each written by one
// analysis function from the runs and their comparison. A function returns null when its
// runs carry nothing for it to say, so a report never shows an empty heading or a
// placeholder. New analyses (what encryption costs, issue 9) are one more entry in
// SUMMARY_ANALYSES.
import type { RunRecord } from '../model/results.ts';
import { trimVerdict } from './trim-verdict.ts';
import { fstrimTimerWords, onlineDiscardWords } from '../model/trim-words.ts';
import type { CompareRow, Comparison, Delta } from './compare.ts';
import { formatDiskSize, summaryOfResult, VERDICT_DAYS, windowOf, workingSetVerdict, WORKING_SET_TEST } from './working-set.ts';
import type { EncryptionStory } from './encryption-story.ts';
import { ACCESS_CURVE_TEST, curveOfResult, curveVerdict } from './access-trace.ts';
import { fixedDecimals } from './units.ts';

export interface SummarySection {
  id: string;
  title: string;
  /** Each a sentence or two, in the order a reader should meet them. */
  paragraphs: string[];
}

export interface SummaryInput {
  records: RunRecord[];
  comparison: Comparison;
  /** The encryption story of the same runs (encryption-story.ts), when there is one. */
  encryption?: EncryptionStory | null;
}

export type SummaryAnalysis = (input: SummaryInput) => SummarySection | null;

/** A ratio this far from ×1 in random I/O changes how a machine feels to use. */
const FELT_RANDOM_RATIO = 10;
const FELT_SEQUENTIAL_RATIO = 2;

/**
 * What changed in each run against the baseline (#1, the run the user chose: `report --baseline`):
 * the headline figures and what they mean in use. Never run against run in the order they were
 * picked: "from #2 new SSD to #3 the 2011 hard disk … the later setup is slower" compared two
 * runs nobody meant to compare (#39).
 */
export function upgradeSummary({ comparison }: SummaryInput): SummarySection | null {
  const runs = comparison.runs;
  if (runs.length < 2) return null;
  const paragraphs: string[] = [];
  for (let i = 1; i < runs.length; i++) {
    const step = stepSentence(comparison, i);
    if (step) paragraphs.push(step);
  }
  if (paragraphs.length === 0) return null;
  return { id: 'upgrade', title: 'What changed', paragraphs };
}

interface Headline {
  row: CompareRow;
  delta: Delta;
  from: string;
  to: string;
}

/** The figures a person recognises, in this order; the first row of each kind that has a ratio. */
const HEADLINES: Array<{ name: string; match: (row: CompareRow) => boolean; random: boolean; reads: boolean }> = [
  { name: 'sequential read', match: (r) => r.kind === 'throughput' && /^seq.*-read$/.test(r.test), random: false, reads: true },
  { name: 'sequential write', match: (r) => r.kind === 'throughput' && /^seq.*-write$/.test(r.test), random: false, reads: false },
  { name: 'random 4K reads', match: (r) => r.kind === 'iops' && /^rnd.*-read$/.test(r.test), random: true, reads: true },
  { name: 'random 4K writes', match: (r) => r.kind === 'iops' && /^rnd.*-write$/.test(r.test), random: true, reads: false },
  { name: 'random seeks', match: (r) => r.kind === 'iops' && r.test === 'seeks', random: true, reads: true },
];

function stepSentence(comparison: Comparison, i: number): string | null {
  const deltaOf = (row: CompareRow) => row.cells[i]?.vsBaseline ?? null;
  const found: Array<Headline & { name: string; random: boolean; reads: boolean }> = [];
  for (const headline of HEADLINES) {
    const row = comparison.rows.find((r) => headline.match(r) && deltaOf(r) !== null);
    if (!row) continue;
    found.push({ ...headline, row, delta: deltaOf(row)!, from: row.cells[0]!.display, to: row.cells[i]!.display });
  }
  if (found.length === 0) return null;
  const baseline = comparison.runs[0]!;
  const run = comparison.runs[i]!;
  const figures = found.map((h) => `${capitalise(h.name)} ${changeText(h.delta)} (${h.from} → ${h.to})`);
  const meaning = meaningOf(found);
  return `#${i + 1} ${run.label} against #1 ${baseline.label}: ${figures.join('; ')}.${meaning ? ` ${meaning}` : ''}`;
}

function changeText(delta: Delta): string {
  const noise = delta.beyondSpread === 'no' ? ', within the runs’ spread: may be noise' : '';
  if (delta.verdict === 'same' || delta.ratioText === '×1.00') return `unchanged (${delta.ratioText}${noise})`;
  if (delta.ratio >= 1) return `${delta.ratioText} faster${noise}`;
  return `${delta.ratioText} (${fixedDecimals(Math.abs(delta.percentChange), 0)} % slower${noise})`;
}

function meaningOf(found: Array<{ delta: Delta; random: boolean; reads: boolean }>): string {
  const real = found.filter((h) => h.delta.beyondSpread !== 'no');
  // Programs start by reading: faster random writes alone do not make them start sooner.
  const randomUp = real.some((h) => h.random && h.reads && h.delta.ratio >= FELT_RANDOM_RATIO);
  const sequentialUp = real.some((h) => !h.random && h.delta.ratio >= FELT_SEQUENTIAL_RATIO);
  const down = real.some((h) => h.delta.verdict === 'worse' && h.delta.ratio <= 1 / 1.2);
  const sentences: string[] = [];
  if (randomUp)
    sentences.push('Programs that read many small files (starting applications, booting, searching a source tree) will start much faster.');
  if (sequentialUp) sentences.push('Large files copy and load in a fraction of the time.');
  if (down) sentences.push('Some figures are lower than the baseline’s: this run is slower at them.');
  return sentences.join(' ');
}

/** TRIM: whether discards reach each measured disk, online or by a periodic fstrim. */
export function trimSummary({ records, comparison }: SummaryInput): SummarySection | null {
  const paragraphs: string[] = [];
  records.forEach((record, i) => {
    const stack = record.target.stack;
    // Only a stack read from a live machine (a mount or a disk in it) can answer; a published
    // run's one-line stack cannot, and "unknown, unknown, unknown" tells a reader nothing.
    // A reference's stack is its write-up's (no mount read, no timer): it cannot answer either.
    if (record.source !== 'measured' || !stack || !stack.some((l) => l.kind === 'mount' || l.kind === 'disk')) return;
    const verdict = trimVerdict(stack, record.system?.fstrimTimer ?? null);
    const online = onlineDiscardWords(verdict.onlineDiscard);
    // A setting DiskDelta's discard-cost had put there while this run measured is not the machine's own.
    const whose = verdict.onlineDiscardNote ? " (DiskDelta's discard-cost had remounted it so, not the machine's own setting)" : '';
    const reaches =
      verdict.reachesDisk === true
        ? 'discards reach the disk'
        : verdict.reachesDisk === false
          ? `discards stop at ${verdict.blockedAt ?? 'a layer above the disk'}, so neither online discard nor fstrim reaches the disk`
          : `whether discards reach the disk is unknown${verdict.blockedAt ? ` (${verdict.blockedAt})` : ''}`;
    const timer = fstrimTimerWords(verdict.fstrimTimer);
    paragraphs.push(`#${i + 1} ${comparison.runs[i]?.label ?? record.label}: online discard ${online}${whose}; ${reaches}; ${timer}.`);
  });
  if (paragraphs.length === 0) return null;
  return { id: 'trim', title: 'TRIM', paragraphs };
}

/**
 * How big an SSD: each working-set run's verdict, said against the smallest SSD among the
 * report's other runs (the drive being considered) when there is one, and the change between
 * the first and the last scan (this month against last).
 */
export function workingSetSummary({ records, comparison }: SummaryInput): SummarySection | null {
  const scans = records.flatMap((record, i) => {
    const result = record.results.find((r) => r.test === WORKING_SET_TEST);
    const summary = result ? summaryOfResult(result) : null;
    return summary ? [{ i, record, summary }] : [];
  });
  if (scans.length === 0) return null;
  const ssds = records
    .map((record, i) => ({ i, device: record.target.device }))
    .filter(
      (d) =>
        d.device?.rotational === false && d.device.class !== 'virtual' && (d.device.sizeBytes ?? 0) > 0 && !scans.some((s) => s.i === d.i),
    );
  const ssd = ssds.sort((a, b) => (a.device!.sizeBytes ?? 0) - (b.device!.sizeBytes ?? 0))[0];
  const tag = (i: number) => `#${i + 1} ${comparison.runs[i]?.label ?? records[i]?.label ?? ''}`;
  const paragraphs = scans.map(({ i, summary }) => {
    const verdict = workingSetVerdict(summary, ssd?.device?.sizeBytes ?? undefined);
    const against = ssd ? ` (against the SSD of #${ssd.i + 1}, ${ssd.device?.model ?? ssd.device?.name})` : '';
    return `${tag(i)}${against}: ${verdict}`;
  });
  if (scans.length >= 2) {
    const first = scans[0]!;
    const last = scans.at(-1)!;
    const a = windowOf(first.summary, VERDICT_DAYS).touchedBytes;
    const b = windowOf(last.summary, VERDICT_DAYS).touchedBytes;
    const change = b >= a ? `grew by ${formatDiskSize(b - a)}` : `shrank by ${formatDiskSize(a - b)}`;
    paragraphs.push(
      `From #${first.i + 1} to #${last.i + 1} the ${VERDICT_DAYS}-day working set ${change}: ${formatDiskSize(a)} → ${formatDiskSize(b)}; everything stored ${formatDiskSize(first.summary.totalBytes)} → ${formatDiskSize(last.summary.totalBytes)}.`,
    );
  }
  return { id: 'working-set', title: 'How big an SSD', paragraphs };
}

/** What dm-crypt cost or would cost, and which ceiling holds: the story's own sentences. */
export function encryptionSummary({ encryption }: SummaryInput): SummarySection | null {
  if (!encryption || encryption.sentences.length === 0) return null;
  return { id: 'encryption', title: 'What encryption costs', paragraphs: encryption.sentences };
}

/** The recorded accesses (diskdelta record): what share an SSD cache of which size would have served. */
export function cacheCurveSummary({ records, comparison }: SummaryInput): SummarySection | null {
  const paragraphs = records.flatMap((record, i) => {
    const result = record.results.find((r) => r.test === ACCESS_CURVE_TEST);
    const kept = result ? curveOfResult(result) : null;
    return kept ? [`#${i + 1} ${comparison.runs[i]?.label ?? record.label}: ${curveVerdict(kept, formatDiskSize)}`] : [];
  });
  return paragraphs.length ? { id: 'cache-curve', title: 'How big an SSD cache', paragraphs } : null;
}

/** Every analysis that can speak in a report's summary, in the order they are shown. */
export const SUMMARY_ANALYSES: SummaryAnalysis[] = [upgradeSummary, encryptionSummary, trimSummary, workingSetSummary, cacheCurveSummary];

export function summarize(input: SummaryInput, analyses: SummaryAnalysis[] = SUMMARY_ANALYSES): SummarySection[] {
  return analyses.map((analysis) => analysis(input)).filter((s): s is SummarySection => s !== null && s.paragraphs.length > 0);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
