// The encryption part of every comparison, told the same way by `compare` (text and JSON), the
// report and the app: for the compared runs' sequential test, three kinds of column (a disk
// measured without dm-crypt, the same measured with it, and each unencrypted run's forecast
// under dm-crypt on this CPU, always labelled estimated), which ceiling holds in each, and the
// sentences a person reads. The model is encryption.ts's; this module only tells it.
import type { CipherCeilings } from '../model/cipher-types.ts';
import type { RunRecord } from '../model/results.ts';
import { deviceKindWord } from '../model/machine.ts';
import { allCpuCeiling, cipherRates, FORECAST_ACCURACY_SENTENCE, forecastRun, type CipherRates, type TestForecast } from './encryption.ts';
import { groupedDecimals } from './units.ts';

/** The tests the story can be told on, in the order a tie is broken (the seed's was sequential read). */
const SEQUENTIAL = ['seq1m-q8t1-read', 'seq1m-q1t1-read', 'seq1m-q8t1-write', 'seq1m-q1t1-write'] as const;

const hasFigure = (r: RunRecord, test: string) => r.results.some((x) => x.test === test && x.bytesPerSec !== null);

/**
 * The sequential test the compared runs share: the one most of them hold, a tie going to
 * SEQUENTIAL's order. bonnie++'s block read is one stream and is stored as seq1m-q1t1-read, so
 * the 2011 references share Q1T1 with a measured run (which has both), never Q8T1: taking the
 * first test any run has left their columns empty (#39 item 7). Compare's chart reads it too.
 */
export function sharedSequentialTest(records: readonly RunRecord[]): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const test of SEQUENTIAL) {
    const count = records.filter((r) => hasFigure(r, test)).length;
    if (count > bestCount) [best, bestCount] = [test, count];
  }
  return best;
}
/** A measured drop under dm-crypt above this is the cipher's doing; below, the disk still set the pace. */
const CIPHER_BOUND_DROP = 0.1;

export type StoryCeiling = 'disk' | 'cipher';

export interface StoryColumn {
  runIndex: number;
  label: string;
  /** "HDD", "SSD", "SSD + dm-crypt": what the column is, in a reader's words. */
  heading: string;
  encrypted: boolean;
  /** Where the run's figure comes from: measured here, imported, or published reference data. */
  source: RunRecord['source'];
  /** The run's own figure, bytes/s: measured, imported or reference, never estimated. */
  measured: number | null;
  /** Under dm-crypt on this CPU (estimated), for unencrypted runs when ceilings are known. */
  forecast: TestForecast | null;
  /** Which ceiling holds: in the forecast (unencrypted runs) or in the measured pair (encrypted runs). */
  ceiling: StoryCeiling | null;
}

export interface StoryCipher {
  /** One core and all cores, bytes/s, in the direction of the story's test. */
  oneCore: number;
  allCores: number;
  cpus: number;
  cipher: string;
  keyBits: number;
  estimate: boolean;
  sourceLabel: string;
  measuredAt: string;
  kernel: string | null;
  cpuModel: string | null;
  backend: string;
  rounds: number;
  /** The measurement's trust warnings (noisy, slower-than-one-thread, machine-busy, …). */
  warnings: string[];
}

export interface EncryptionStory {
  test: string;
  testWords: string;
  write: boolean;
  columns: StoryColumn[];
  /** This CPU's cipher ceiling (stored measurement), or null when never measured. */
  cipher: StoryCipher | null;
  sentences: string[];
}

const WORDS: Record<string, string> = {
  'seq1m-q8t1-read': 'sequential read',
  'seq1m-q1t1-read': 'sequential read',
  'seq1m-q8t1-write': 'sequential write',
  'seq1m-q1t1-write': 'sequential write',
};

export function isEncryptedRun(r: RunRecord): boolean {
  return (r.target.stack ?? []).some((l) => l.kind === 'dm-crypt' || l.encrypted === true) || /dm-crypt|luks/i.test(r.label);
}

const diskWord = (r: RunRecord): string => deviceKindWord(r.target.device);

const possessive = (w: string) => (w === 'HDD' ? "the hard disk's" : `the ${w}'s`);

/** "71.5 MB/s"; all in GB/s when one reaches it and none is under half of one (so "0.78 GB/s", never "0.04 GB/s"). */
function rates(values: number[]): string[] {
  const gb = values.some((v) => v >= 1e9) && values.every((v) => v >= 0.5e9);
  return values.map((v) => (gb || v >= 1e9 ? `${groupedDecimals(v / 1e9, 2)} GB/s` : `${groupedDecimals(v / 1e6, 1)} MB/s`));
}

/** "noisy, machine-busy": the codes of a measurement's trust warnings, each once. */
const flagCodes = (warnings: string[]) => [...new Set(warnings.map((w) => w.split(':')[0]))].join(', ');

/** "−47 %": whole percent, a real minus as in print. */
const pct = (p: number) => `${p < 0 ? '−' : '+'}${Math.abs(Math.round(p))} %`;

/** "~70 MB/s": the cipher's rate read off a measured pair is known roughly, and said so. */
function about(bps: number): string {
  const mb = bps / 1e6;
  return mb >= 1000 ? `~${(mb / 1000).toFixed(1)} GB/s` : `~${mb < 100 ? Math.round(mb / 10) * 10 : Number(mb.toPrecision(2))} MB/s`;
}

/** "one core" when the encrypted run says its dm-crypt ran single-threaded (kcryptd before 2.6.38). */
function coresOf(r: RunRecord): string {
  const layer = (r.target.stack ?? []).find((l) => l.kind === 'dm-crypt');
  const workers = String(layer?.details.workers ?? '');
  return /single|one/i.test(workers) ? 'one core' : 'the CPU';
}

export function encryptionStory(
  records: RunRecord[],
  ceilings: CipherCeilings | null,
  cipher = 'aes-xts-plain64',
  keyBits = 512,
): EncryptionStory | null {
  const anyEncrypted = records.some(isEncryptedRun);
  if (!anyEncrypted && !ceilings) return null;
  const test = sharedSequentialTest(records);
  if (!test) return null;
  const write = test.endsWith('write');
  const r8 = ceilings ? cipherRates(ceilings, cipher, keyBits) : null;
  const figureOf = (r: RunRecord) => r.results.find((x) => x.test === test)?.bytesPerSec ?? null;
  const sentences: string[] = [];
  // A column per run that holds the test: a discard-cost experiment or a scan has no figure to
  // show here, and a run measured on another test is not given an empty column (#39 item 2).
  const columns = records.flatMap((r, runIndex): StoryColumn[] => {
    if (figureOf(r) === null) return [];
    const encrypted = isEncryptedRun(r);
    const word = diskWord(r);
    const forecast = !encrypted && r8 ? (forecastRun(r, r8).find((f) => f.test === test) ?? null) : null;
    return [
      {
        runIndex,
        label: r.label || `run ${runIndex + 1}`,
        heading: encrypted ? `${word} + dm-crypt` : word,
        encrypted,
        source: r.source,
        measured: figureOf(r),
        forecast,
        ceiling: forecast?.ceiling ?? null,
      },
    ];
  });
  // Measured pairs: each encrypted run against the same drive unencrypted (by its model), never
  // merely the run picked before it (#39: "--baseline 2" put the 2011 hard disk there, and the
  // SSD's cost read "+73 %"); without a model on either side, the nearest unencrypted run before it.
  const modelOf = (i: number) => records[i]!.target.device?.model ?? null;
  for (const col of columns.filter((c) => c.encrypted && c.measured !== null)) {
    const unencrypted = columns.filter((c) => !c.encrypted && c.measured !== null);
    const model = modelOf(col.runIndex);
    // Among the same drive's runs, one of the same origin first (a published encrypted run beside
    // its own write-up's plain run, not beside this machine's measurement of that model).
    const sameDrive = model !== null ? unencrypted.filter((c) => modelOf(c.runIndex) === model) : [];
    const raw =
      sameDrive.find((c) => c.source === col.source) ??
      sameDrive[0] ??
      unencrypted.filter((c) => c.runIndex < col.runIndex && (model === null || modelOf(c.runIndex) === null)).reverse()[0];
    if (!raw) continue;
    const drop = 1 - col.measured! / raw.measured!;
    const [from, to] = rates([raw.measured!, col.measured!]);
    const record = records[col.runIndex]!;
    const whose = possessive(diskWord(record));
    // Pipelined I/O (bonnie++'s readahead, queue depth > 1) runs at min(disk, cipher): a figure
    // well under the raw one is the cipher's rate itself, so it is read off as "~N MB/s".
    if (drop > CIPHER_BOUND_DROP) {
      col.ceiling = 'cipher';
      sentences.push(
        `${whose[0]!.toUpperCase()}${whose.slice(1)} ${WORDS[test]} fell from ${from} to ${to} (${pct(-drop * 100)}) under dm-crypt: ` +
          `${coresOf(record)} ${write ? 'encrypting' : 'decrypting'} at ${about(col.measured!)} was the ceiling, not the disk.`,
      );
    } else {
      col.ceiling = 'disk';
      sentences.push(
        `${whose[0]!.toUpperCase()}${whose.slice(1)} ${WORDS[test]} went from ${from} to ${to} under dm-crypt (${pct(-drop * 100)}): the disk stayed the ceiling, the cipher kept up.`,
      );
    }
  }
  const storyCipher = r8 && ceilings ? describeCipher(ceilings, r8, write) : null;
  // Forecasts: every unencrypted run, on this CPU.
  for (const col of columns.filter((c) => c.forecast)) {
    const f = col.forecast!;
    const [c, d, e] = rates([f.cipherBytesPerSec, f.rawBytesPerSec, f.estimatedBytesPerSec]);
    const cores = f.cipherThreads === 1 ? 'on one core' : `on ${f.cipherThreads} cores`;
    const who = col.heading === 'disk' ? 'this disk' : `this ${col.heading}`;
    sentences.push(
      f.ceiling === 'disk'
        ? `Encryption would cost ${who} (#${col.runIndex + 1}) nothing on this CPU (estimated): the cipher runs at ${c} ${cores}, the disk at ${d}.`
        : `On this CPU dm-crypt would hold ${who} (#${col.runIndex + 1}) to about ${e} (estimated, ${pct(-f.costPercent)}): the cipher runs at ${c} ${cores}, slower than the disk's ${d}.`,
    );
  }
  // How close such a forecast came in the lab, said once wherever the story is told (compare, report, app).
  if (columns.some((c) => c.forecast)) sentences.push(FORECAST_ACCURACY_SENTENCE);
  if (storyCipher && storyCipher.warnings.length > 0) {
    sentences.push(`The cipher ceiling behind the forecasts is flagged (${flagCodes(storyCipher.warnings)}): read them as rough.`);
  }
  if (!r8) {
    sentences.push(
      ceilings
        ? `The cipher ${cipher} ${keyBits} bit was not measured on this CPU: no forecast.`
        : 'No cipher ceilings of this CPU are kept: run `diskdelta ciphers` (or Overview → Measure cipher ceilings) to forecast the unencrypted runs under dm-crypt.',
    );
  }
  return { test, testWords: WORDS[test] ?? test, write, columns, cipher: storyCipher, sentences };
}

function describeCipher(c: CipherCeilings, r: CipherRates, write: boolean): StoryCipher {
  return {
    oneCore: write ? r.encrypt1 : r.decrypt1,
    allCores: allCpuCeiling(r, write),
    cpus: r.cpus,
    cipher: r.cipher,
    keyBits: r.keyBits,
    estimate: c.source === 'user-space-estimate',
    sourceLabel: c.sourceLabel,
    measuredAt: c.measuredAt,
    kernel: c.kernel ?? null,
    cpuModel: c.cpu.model,
    backend: c.backend,
    rounds: c.rounds ?? 1,
    warnings: c.warnings.filter((w) => /^(noisy|slower-than-one-thread|machine-busy): /.test(w)),
  };
}

/** The story as `compare` prints it: one line per column, the ceiling, then the sentences. */
export function encryptionStoryText(story: EncryptionStory): string {
  const out = [`Encryption (${story.testWords}, dm-crypt aes-xts-plain64 512 bit):`];
  const mb = (bps: number) => `${groupedDecimals(bps / 1e6, 1)} MB/s`;
  for (const c of story.columns) {
    const how = c.source === 'reference' ? 'published (reference)' : c.source === 'imported' ? 'imported' : 'measured';
    const measured = c.measured === null ? '—' : `${mb(c.measured)} ${how}${c.encrypted ? ' with dm-crypt' : ''}`;
    const forecast = c.forecast
      ? `; under dm-crypt on this CPU ${mb(c.forecast.estimatedBytesPerSec)} (estimated), ceiling: ${c.forecast.ceiling}`
      : c.encrypted && c.ceiling
        ? `; ceiling: ${c.ceiling}`
        : '';
    out.push(`  #${c.runIndex + 1} ${c.heading}: ${measured}${forecast}`);
  }
  const k = story.cipher;
  if (k) {
    out.push(
      `  Cipher ceiling on this CPU: ${mb(k.oneCore)} on one core, ${mb(k.allCores)} on ${k.cpus} (${k.estimate ? 'user-space estimate, ' : ''}` +
        `median of ${k.rounds} rounds, measured ${k.measuredAt.slice(0, 16).replace('T', ' ')} on ${k.cpuModel ?? 'an unknown CPU'}` +
        `${k.kernel ? `, kernel ${k.kernel}` : ''}, ${k.backend})${k.warnings.length ? ` — flagged: ${flagCodes(k.warnings)}` : ''}`,
    );
  }
  for (const s of story.sentences) out.push(`  ${s}`);
  return `${out.join('\n')}\n`;
}
