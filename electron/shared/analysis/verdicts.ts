// THE VERDICTS of an upgrade assessment, decided once, as data (#39): how much faster the new
// disk is, what encryption costs it (measured, or forecast from this CPU's cipher ceilings, and
// which ceiling holds), what online discard costs, and whether the data in use fits. The CLI
// (`assess show`, `assess report`, `discard-cost`), the app (renderer/src/view/verdicts-view.ts)
// and the report's first page (report/first-page.ts) only render what this returns, so the
// same library reads the same everywhere.
//
// Every comparison here is by ROLE, never by position: before → after, and after → after under
// dm-crypt. A published reference's encrypted run is another machine's story: it is shown
// beside (`published`), never as this machine's cost.
import type { Assessment, AssessmentField } from '../model/assessment.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';
import type { RunRecord, TestResult } from '../model/results.ts';
import { ASSESSMENT_FIELDS } from '../model/assessment-fields.ts';
import { usableAssessment } from '../model/assessment-usable.ts';
import { runEncrypted } from '../model/run-kind.ts';
import { deviceKindWord } from '../model/machine.ts';
import { compareRuns, type Delta } from './compare.ts';
import { allCpuCeiling, cipherRates, encryptionVerdict, forecastRun, type Ceiling } from './encryption.ts';
import { rateFigureText, type RateMetric } from './figure-text.ts';
import { formatIops, formatThroughput, groupedDecimals } from './units.ts';
import { formatDiskSize, summaryOfResult, VERDICT_DAYS, windowOf, workingSetVerdict, WORKING_SET_TEST } from './working-set.ts';
import { curveOfResult, curveVerdict, ACCESS_CURVE_TEST } from './access-trace.ts';
import { discardCostHead, judgeDiscardCost, treeWords, type DiscardCostJudgement } from './discard-judgement.ts';

/** The figures page 1 shows, in order; each slot takes the first of its tests both runs have. */
export const HEADLINE_SLOTS = [
  {
    id: 'seq-read',
    title: 'Sequential read',
    words: 'sequential read',
    tests: ['seq1m-q8t1-read', 'seq1m-q1t1-read'],
    metric: 'bytesPerSec',
  },
  {
    id: 'seq-write',
    title: 'Sequential write',
    words: 'sequential write',
    tests: ['seq1m-q8t1-write', 'seq1m-q1t1-write'],
    metric: 'bytesPerSec',
  },
  { id: 'rnd-read', title: 'Random 4K read, QD1', words: 'random 4K reads at QD1', tests: ['rnd4k-q1t1-read'], metric: 'iops' },
  { id: 'rnd-write', title: 'Random 4K write, QD1', words: 'random 4K writes at QD1', tests: ['rnd4k-q1t1-write'], metric: 'iops' },
  { id: 'seeks', title: 'Seeks', words: 'seeks', tests: ['seeks'], metric: 'iops' },
] as const satisfies ReadonlyArray<{ id: string; title: string; words: string; tests: readonly string[]; metric: RateMetric }>;
export type SlotId = (typeof HEADLINE_SLOTS)[number]['id'];

/** The warning codes that make a figure less than it claims: page 1 marks the figure, the CLI and the app too. */
export const TRUST_FLAGS = [
  'noisy',
  'under-resolved',
  'cpu-bound',
  'machine-busy',
  'size-below-ram',
  'size-below-write-cache',
  'buffered-io',
  'thermal-throttling',
] as const;

export interface VerdictFigure {
  test: string;
  metric: RateMetric;
  value: number | null;
  /** With its unit and flags, as every table prints it ("10,524 seeks/s (under-resolved)"). */
  display: string;
  /** The trust flags it carries (TRUST_FLAGS); empty: nothing to mark. */
  flags: string[];
  /** A forecast, never a measurement. */
  estimated: boolean;
}

export interface SpeedUpRow {
  slot: SlotId;
  title: string;
  /** The slot in a sentence: "random 4K reads at QD1". */
  words: string;
  before: VerdictFigure;
  after: VerdictFigure;
  /** compare.ts's delta: ratio, its text, better/worse and the one significance rule. */
  delta: Delta | null;
}

export interface SpeedUpVerdict {
  rows: SpeedUpRow[];
  sentence: string;
}

export interface PublishedStory {
  runId: number | null;
  label: string;
  test: string;
  raw: number;
  encrypted: number;
  costPercent: number;
  ceiling: 'cipher' | 'disk';
  /** Per slot, the published encrypted figure (the third column when nothing of this machine's is known). */
  column: Partial<Record<SlotId, VerdictFigure>>;
  sentence: string;
}

export interface EncryptionCostVerdict {
  /** measured: a run of this machine through dm-crypt; forecast: from this CPU's cipher ceilings; none: neither. */
  basis: 'measured' | 'forecast' | 'none';
  encryptedRunId: number | null;
  test: string | null;
  after: number | null;
  underCrypt: number | null;
  costPercent: number | null;
  ceiling: Ceiling | null;
  /** The ceiling named: "this CPU's cipher on 2 cores, 1,210 MB/s". */
  ceilingText: string | null;
  /** Per slot, the after disk under dm-crypt: measured, or estimated. */
  column: Partial<Record<SlotId, VerdictFigure>>;
  published: PublishedStory | null;
  sentence: string;
}

export interface TrimCostVerdict {
  state: 'not-measured' | DiscardCostJudgement['state'];
  judgement: DiscardCostJudgement | null;
  fstrimSeconds: number | null;
  sentence: string;
}

export interface SizeVerdict {
  state: 'not-measured' | 'fits' | 'short' | 'no-disk-size';
  /** The data in use: a scan's 90-day working set, or a recording's distinct bytes. */
  workingSetBytes: number | null;
  diskBytes: number | null;
  sentence: string;
}

export interface AssessmentVerdicts {
  /** The runs by role, after the roles' check; a field that does not fit is in `ignored`, never used. */
  roles: Partial<Record<AssessmentField, RunRecord>>;
  /** A field set but not used, and why ("run 4 is not used as the new disk (after): it is a working-set scan; …"). */
  ignored: Array<{ field: AssessmentField; runId: number; text: string }>;
  speedUp: SpeedUpVerdict;
  encryption: EncryptionCostVerdict;
  trim: TrimCostVerdict;
  size: SizeVerdict;
}

/**
 * The assessment's runs by role, through the model's one check (model/assessment-usable.ts): a
 * stored field that no longer fits (or whose run is not among `records`) is dropped with the
 * reason in words, never used. A published encrypted run accepted beside its own write-up's
 * after run is no role here: the encryption verdict tells it beside, as the published story.
 */
export function runsByRole(a: Assessment, records: readonly RunRecord[]): Pick<AssessmentVerdicts, 'roles' | 'ignored'> {
  // A run not among `records` is not judged here (the report is given the checked assessment's
  // runs only): it simply has no role.
  const byId = new Map<number, RunRecord | null>(records.flatMap((r) => (r.id === undefined ? [] : [[r.id, r] as const])));
  const check = usableAssessment(a, byId);
  const roles: AssessmentVerdicts['roles'] = {};
  for (const field of ASSESSMENT_FIELDS) {
    const id = check.assessment[field];
    const run = id === null ? undefined : byId.get(id);
    if (!run || (field === 'encrypted' && check.encryptedIsReference)) continue;
    roles[field] = run;
  }
  const ignored = ASSESSMENT_FIELDS.flatMap((field) => {
    const text = check.problems[field];
    return text && !(field === 'discardOn' && check.problems.discardOff === text) ? [{ field, runId: a[field]!, text }] : [];
  });
  return { roles, ignored };
}

/** A field set but not used, as the CLI, the app and page 1 all say it. */
export function ignoredSentence(i: AssessmentVerdicts['ignored'][number]): string {
  return `${i.text.charAt(0).toUpperCase()}${i.text.slice(1)}; it is left out of every verdict.`;
}

/** Every verdict of the assessment; `library` is searched for the published story beside a reference's after run. */
export function assessmentVerdicts(
  a: Assessment,
  records: readonly RunRecord[],
  ceilings: CipherCeilings | null,
  library: readonly RunRecord[] = records,
): AssessmentVerdicts {
  const { roles, ignored } = runsByRole(a, records);
  return {
    roles,
    ignored,
    speedUp: speedUpVerdict(roles.before ?? null, roles.after ?? null),
    encryption: encryptionCost(roles.after ?? null, roles.encrypted ?? null, ceilings, library),
    trim: trimCostVerdict(roles.discardOff ?? null, roles.discardOn ?? null),
    size: sizeVerdict(roles.workingSet ?? null, roles.after ?? null),
  };
}

const resultOf = (run: RunRecord, test: string): TestResult | undefined => run.results.find((r) => r.test === test);

function figure(run: RunRecord, test: string, metric: RateMetric): VerdictFigure {
  const result = resultOf(run, test)!;
  const flags = TRUST_FLAGS.filter(
    (code) => (code === 'under-resolved' && result.underResolved) || result.warnings.some((w) => w.code === code),
  );
  return {
    test,
    metric,
    value: result[metric],
    display: rateFigureText(result, metric, 'MB', { seeks: test === 'seeks' }),
    flags,
    estimated: false,
  };
}

function estimatedFigure(test: string, metric: RateMetric, bytesPerSec: number, iops: number | null): VerdictFigure {
  const value = metric === 'bytesPerSec' ? bytesPerSec : iops;
  const text = value === null ? '—' : metric === 'bytesPerSec' ? formatThroughput(value, 'MB') : formatIops(value, 'IOPS');
  return { test, metric, value, display: `${text} (estimated)`, flags: [], estimated: true };
}

/** The slot's test both runs have (with a figure), or null. */
function slotTest(slot: (typeof HEADLINE_SLOTS)[number], ...runs: RunRecord[]): string | null {
  return slot.tests.find((t) => runs.every((r) => resultOf(r, t) !== undefined)) ?? null;
}

export function speedUpVerdict(before: RunRecord | null, after: RunRecord | null): SpeedUpVerdict {
  if (!before || !after)
    return {
      rows: [],
      sentence: `How much faster: not known yet: the ${before ? 'new disk (after)' : 'current disk (before)'} is not in the assessment.`,
    };
  const comparison = compareRuns([before, after]);
  const rows: SpeedUpRow[] = [];
  for (const slot of HEADLINE_SLOTS) {
    const test = slotTest(slot, before, after);
    if (!test) continue;
    const kind = slot.metric === 'bytesPerSec' ? 'throughput' : 'iops';
    const row = comparison.rows.find((r) => r.test === test && r.kind === kind);
    rows.push({
      slot: slot.id,
      title: slot.title,
      words: slot.words,
      before: figure(before, test, slot.metric),
      after: figure(after, test, slot.metric),
      delta: row?.cells[1]?.vsBaseline ?? null,
    });
  }
  return { rows, sentence: speedUpSentence(rows) };
}

/** "×3.29 faster", "2.1× slower", "no measurable change (within the runs' spread)". */
export function changeWords(delta: Delta): string {
  if (delta.beyondSpread === 'no') return `no measurable change, ${delta.ratioText} within the runs' spread`;
  if (delta.verdict === 'same') return 'unchanged';
  const words = delta.ratio >= 1 ? `${delta.ratioText} faster` : `${(1 / delta.ratio).toFixed(1)}× slower`;
  return delta.beyondSpread === 'unknown' ? `${words}, spread unknown` : words;
}

function speedUpSentence(rows: SpeedUpRow[]): string {
  if (rows.length === 0) return 'How much faster: the two disks have no rate test in common, so nothing can be compared.';
  // Programs start by reading many small files: random reads at QD1 (or seeks) say it; else sequential read.
  const start = rows.find((r) => r.slot === 'rnd-read') ?? rows.find((r) => r.slot === 'seeks') ?? rows.find((r) => r.slot === 'seq-read');
  const lead = start?.delta
    ? `Programs will ${startWords(start.delta)}: ${start.words} ${start.before.display} → ${start.after.display}, ${changeWords(start.delta)}.`
    : '';
  const others = rows
    .filter((r) => r !== start && r.delta)
    .map((r) => `${r.words} ${r.before.display} → ${r.after.display}, ${changeWords(r.delta!)}`);
  const unknown = rows.some((r) => r.delta?.beyondSpread === 'unknown')
    ? ' Where the spread is unknown (one figure a side, as published or imported), the ratio cannot be told from noise.'
    : '';
  const flags = [...new Set(rows.flatMap((r) => [...r.before.flags, ...r.after.flags]))];
  // The flag's name and reason are said once, where the warnings are (#39 item 6); here, the mark.
  const flagged = flags.length ? ' A figure marked ⚑ carries a trust flag and may be less than it claims: read it as rough.' : '';
  return `${lead}${others.length ? ` ${capital(others.join('; '))}.` : ''}${unknown}${flagged}`.trim();
}

/** What programs will do: "start many times faster", "not start measurably faster" (within the runs' spread). */
function startWords(delta: Delta): string {
  if (delta.beyondSpread === 'no' || delta.verdict === 'same') return 'not start measurably faster';
  if (delta.ratio < 1) return 'start slower';
  return `start ${delta.ratio >= 10 ? 'many times faster' : delta.ratio >= 2 ? 'noticeably faster' : 'slightly faster'}`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "71.5 MB/s", "1.21 GB/s": the encryption story's figures, as its published write-up rounded them. */
const mb = (bps: number) => (bps >= 1e9 ? `${groupedDecimals(bps / 1e9, 2)} GB/s` : `${groupedDecimals(bps / 1e6, 1)} MB/s`);
/** "~70 MB/s": a cipher's rate read off a measured pair is known roughly, and said so. */
const about = (bps: number) =>
  bps >= 1e9
    ? `~${groupedDecimals(bps / 1e9, 1)} GB/s`
    : `~${bps < 1e8 ? Math.round(bps / 1e7) * 10 : Number((bps / 1e6).toPrecision(2))} MB/s`;
const pct = (p: number) => `${p < 0 ? '+' : '−'}${Math.abs(Math.round(p))} %`;

/** A published encrypted run from the same write-up and the same drive as `after` (the 2011 story's third run). */
export function publishedPartner(after: RunRecord, library: readonly RunRecord[]): RunRecord | null {
  if (after.source !== 'reference' || runEncrypted(after) === true) return null;
  return (
    library.find(
      (r) =>
        r.source === 'reference' &&
        runEncrypted(r) === true &&
        r.sourceMeta.source === after.sourceMeta.source &&
        (r.target.device?.model ?? null) === (after.target.device?.model ?? null),
    ) ?? null
  );
}

function publishedStory(after: RunRecord, partner: RunRecord): PublishedStory | null {
  const slot = HEADLINE_SLOTS[0];
  const test = slotTest(slot, after, partner);
  const raw = test ? resultOf(after, test)?.bytesPerSec : null;
  const enc = test ? resultOf(partner, test)?.bytesPerSec : null;
  if (!test || raw == null || enc == null || raw <= 0) return null;
  const costPercent = (1 - enc / raw) * 100;
  const ceiling = costPercent > 10 ? 'cipher' : 'disk';
  const layer = (partner.target.stack ?? []).find((l) => l.kind === 'dm-crypt');
  const oneCore = /single|one/i.test(String(layer?.details.workers ?? ''));
  // Pipelined reads run at min(disk, cipher): a figure well under the raw one is the cipher's rate itself.
  const who = `${oneCore ? 'one core' : 'the CPU'} decrypting at ${about(enc)}`;
  const year = partner.createdAt.slice(0, 4);
  const column: PublishedStory['column'] = {};
  for (const s of HEADLINE_SLOTS) {
    const t = slotTest(s, partner);
    if (t && resultOf(partner, t)![s.metric] != null) column[s.id] = figure(partner, t, s.metric);
  }
  return {
    runId: partner.id ?? null,
    label: partner.label,
    test,
    raw,
    encrypted: enc,
    costPercent,
    ceiling,
    column,
    sentence:
      ceiling === 'cipher'
        ? `The published story (${year}, another machine): the same drive's sequential read fell from ${mb(raw)} to ${mb(enc)} under dm-crypt (${pct(costPercent)}): ${who} was the ceiling, not the disk.`
        : `The published story (${year}, another machine): the same drive's sequential read went from ${mb(raw)} to ${mb(enc)} under dm-crypt (${pct(costPercent)}): the disk stayed the ceiling.`,
  };
}

export function encryptionCost(
  after: RunRecord | null,
  encrypted: RunRecord | null,
  ceilings: CipherCeilings | null,
  library: readonly RunRecord[] = [],
): EncryptionCostVerdict {
  const partner = after ? publishedPartner(after, library) : null;
  const published = after && partner ? publishedStory(after, partner) : null;
  const rates = ceilings ? cipherRates(ceilings) : null;
  const none: EncryptionCostVerdict = {
    basis: 'none',
    encryptedRunId: null,
    test: null,
    after: null,
    underCrypt: null,
    costPercent: null,
    ceiling: null,
    ceilingText: null,
    column: {},
    published,
    sentence: '',
  };
  if (!after) return { ...none, sentence: 'What encryption costs: not known yet: the new disk (after) is not in the assessment.' };
  const kind = deviceKindWord(after.target.device);
  const theDisk = kind === 'disk' ? 'the new disk' : `the new ${kind}`;
  if (encrypted) {
    const verdicts = encryptionVerdict(after, encrypted, rates);
    const head =
      HEADLINE_SLOTS.flatMap((s) => s.tests)
        .map((t) => verdicts.find((v) => v.test === t))
        .find(Boolean) ?? verdicts[0];
    const column: EncryptionCostVerdict['column'] = {};
    for (const s of HEADLINE_SLOTS) {
      const t = slotTest(s, after, encrypted);
      if (t) column[s.id] = figure(encrypted, t, s.metric);
    }
    if (!head)
      return {
        ...none,
        basis: 'measured',
        encryptedRunId: encrypted.id ?? null,
        column,
        sentence: `What encryption costs: the run under dm-crypt and ${theDisk} have no throughput test in common, so it cannot be said.`,
      };
    const ceilingText =
      head.ceiling === 'cipher' && head.cipherBytesPerSec !== null
        ? `this CPU's cipher, ${mb(head.cipherBytesPerSec)}`
        : head.ceiling === 'bus' && head.linkBytesPerSec !== null
          ? `the bus, ${mb(head.linkBytesPerSec)}`
          : `the disk, ${mb(head.rawBytesPerSec)}`;
    return {
      ...none,
      basis: 'measured',
      encryptedRunId: encrypted.id ?? null,
      test: head.test,
      after: head.rawBytesPerSec,
      underCrypt: head.encryptedBytesPerSec,
      costPercent: head.costPercent,
      ceiling: head.ceiling,
      ceilingText,
      column,
      sentence: `Measured under dm-crypt on this machine: ${head.sentence.charAt(0).toLowerCase()}${head.sentence.slice(1)}`,
    };
  }
  if (rates) {
    const forecasts = forecastRun(after, rates);
    const column: EncryptionCostVerdict['column'] = {};
    for (const s of HEADLINE_SLOTS) {
      const f = forecasts.find((x) => (s.tests as readonly string[]).includes(x.test));
      if (f) column[s.id] = estimatedFigure(f.test, s.metric, f.estimatedBytesPerSec, f.estimatedIops);
    }
    const head =
      HEADLINE_SLOTS.flatMap((s) => s.tests)
        .map((t) => forecasts.find((f) => f.test === t))
        .find(Boolean) ?? forecasts[0];
    if (!head) return { ...none, column, sentence: `What encryption costs: ${theDisk} has no throughput figure to forecast from.` };
    const cores = head.cipherThreads === 1 ? 'on one core' : `on ${head.cipherThreads} cores`;
    const all = allCpuCeiling(rates, !head.test.endsWith('read'));
    const ceilingText = `this CPU's cipher ${cores}, ${mb(head.cipherBytesPerSec)}${head.cipherThreads < rates.cpus ? ` (all ${rates.cpus} cores ${mb(all)})` : ''}`;
    const what = head.test.includes('write') ? 'sequential write' : 'sequential read';
    return {
      ...none,
      basis: 'forecast',
      test: head.test,
      after: head.rawBytesPerSec,
      underCrypt: head.estimatedBytesPerSec,
      costPercent: head.costPercent,
      ceiling: head.ceiling,
      ceilingText,
      column,
      sentence:
        head.ceiling === 'disk'
          ? `Encryption would cost ${theDisk} nothing measurable on this CPU (forecast, estimated): the cipher runs at ${mb(head.cipherBytesPerSec)} ${cores}, faster than the disk's ${mb(head.rawBytesPerSec)} ${what}.`
          : `On this CPU dm-crypt would hold ${theDisk}'s ${what} to about ${mb(head.estimatedBytesPerSec)} (forecast, estimated, ${pct(head.costPercent)}): the cipher runs at ${mb(head.cipherBytesPerSec)} ${cores}, slower than the disk's ${mb(head.rawBytesPerSec)}.`,
    };
  }
  return {
    ...none,
    sentence: `What encryption costs ${theDisk} on this machine is not known: it was not measured under dm-crypt here and no cipher ceilings of this CPU are kept (diskdelta ciphers measures them)${published ? '; the published story beside is another machine’s' : ''}.`,
  };
}

/** The tree's file count from the stored words ("… (45,168 files, 592 MB)"); null when not said. */
function treeFiles(run: RunRecord): number | null {
  const m = /([\d,]+) files/.exec(run.sourceMeta.tree ?? '');
  return m ? Number(m[1]!.replace(/,/g, '')) : null;
}

function deletePhase(run: RunRecord): { seconds: number | null; passes: number[] } {
  for (const r of run.results)
    for (const f of r.figures ?? [])
      if (f.metric === 'phaseSeconds' && f.subject === 'delete') return { seconds: f.value, passes: f.passes ?? [] };
  return { seconds: null, passes: [] };
}

/** What online discard costs, from the discard pair, by the rule `diskdelta discard-cost` says it with (discard-judgement.ts). */
export function trimCostVerdict(off: RunRecord | null, on: RunRecord | null): TrimCostVerdict {
  if (!off || !on)
    return {
      state: 'not-measured',
      judgement: null,
      fstrimSeconds: null,
      sentence: 'What online discard costs was not measured (sudo diskdelta discard-cost DIR on the new disk measures it).',
    };
  const judgement = judgeDiscardCost(deletePhase(off), deletePhase(on));
  const fstrim =
    off.results.flatMap((r) => r.figures ?? []).find((f) => f.metric === 'phaseSeconds' && f.subject === 'fstrim')?.value ?? null;
  const files = treeFiles(off);
  // A published pair is another machine's: never "here".
  const place = off.source === 'measured' ? 'here' : `on the published ${off.createdAt.slice(0, 4)} machine`;
  const head = discardCostHead(judgement, files === null ? 'tree delete' : treeWords(files), place);
  return {
    state: judgement.state,
    judgement,
    fstrimSeconds: fstrim,
    sentence: `${capital(head)}${fstrim !== null ? `; a fstrim afterwards took ${fstrim.toFixed(2)} s` : ''}.`,
  };
}

export function sizeVerdict(scan: RunRecord | null, after: RunRecord | null): SizeVerdict {
  const diskBytes = after?.target.device?.sizeBytes ?? null;
  const none = { workingSetBytes: null, diskBytes };
  if (!scan)
    return {
      ...none,
      state: 'not-measured',
      sentence: 'Whether your data fits was not measured (diskdelta working-set DIR scans it).',
    };
  const scanned = scan.results.find((r) => r.test === WORKING_SET_TEST);
  const summary = scanned ? summaryOfResult(scanned) : null;
  const recorded = scan.results.find((r) => r.test === ACCESS_CURVE_TEST);
  const curve = recorded ? curveOfResult(recorded) : null;
  const bytes = summary ? windowOf(summary, VERDICT_DAYS).touchedBytes : curve ? curve.distinctBytes : null;
  const state: SizeVerdict['state'] = bytes === null || diskBytes === null ? 'no-disk-size' : bytes <= diskBytes ? 'fits' : 'short';
  const sentence = summary
    ? workingSetVerdict(summary, diskBytes ?? undefined)
    : curve
      ? `${curveVerdict(curve, formatDiskSize)}${diskBytes !== null && bytes !== null ? ` The ${formatDiskSize(diskBytes)} disk ${bytes <= diskBytes ? 'holds it' : 'is too small for it'}.` : ''}`
      : 'The size run holds no working-set figures.';
  const unsized = diskBytes === null ? ' The new disk’s size is not known, so whether it fits cannot be said.' : '';
  return { workingSetBytes: bytes, diskBytes, state, sentence: `${sentence}${unsized}` };
}

/** The verdicts as plain lines, as `assess show` and `assess report` print them. */
export function verdictLines(v: AssessmentVerdicts): string[] {
  return [
    v.speedUp.sentence,
    v.encryption.sentence,
    ...(v.encryption.published ? [v.encryption.published.sentence] : []),
    v.trim.sentence,
    v.size.sentence,
    ...v.ignored.map(ignoredSentence),
  ].map((line) => `- ${line}`);
}
