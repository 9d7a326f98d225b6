// What dm-crypt costs: the forecast of a disk's figures under dm-crypt on this CPU, and the
// verdict on a measured pair (raw device vs its mapping) — which ceiling holds, disk, cipher
// or bus, and "encryption costs you N %". One implementation for the CLI, the app and reports.
//
// THE MODEL (estimated; fitted and checked in the dm-crypt lab, e2e/dm-crypt-lab.test.ts)
//
//   Every byte read through dm-crypt is read from the disk and then decrypted; every byte
//   written is encrypted and then written. The cipher's rate C is measured by the worker's
//   `ciphers` verb with 64 KiB requests (the bulk rate; `cryptsetup benchmark`'s request size).
//   Its per-sector figures (512 B, 4096 B: one request and one IV per sector, as dm-crypt
//   does) pay a round trip through the AF_ALG socket per sector that dm-crypt, inside the
//   kernel, does not: in the lab a 512 B-sector mapping read 8.9 MB/s where the per-sector
//   AF_ALG figure said 0.5 and the bulk rate ~9-12; the lab's reference run (89 MB/s over a
//   6 GB/s disk, cryptsetup 38-60 MiB/s per core on 2 vCPUs) fits the bulk rate on all CPUs too.
//
//   - Pipelined I/O (more than one request in flight: queue depth × threads > 1, or buffered
//     reads with the kernel's readahead, as bonnie++'s block input): the disk and the cipher
//     work at the same time on different requests, so the slower of the two sets the pace:
//         encrypted = min(D, C_p)
//     where D is the raw figure and C_p the cipher's rate with p = min(requests in flight,
//     CPUs) threads: dm-crypt (since Linux 4.0, an unbound workqueue) spreads requests over
//     CPUs, one request per CPU. `cipherThreads: 1` models the old single kcryptd thread
//     (Linux before 2.6.38: the 2011 laptop) or a single CPU.
//   - One request at a time (QD1, one thread, O_DIRECT): nothing overlaps, the times add:
//         1 / encrypted = 1 / D + 1 / C_1
//   The bulk AF_ALG figure also pays two copies per request that dm-crypt does not (sendmsg
//   into the kernel, read back out); they cost encrypt and decrypt alike, so they cannot make
//   reads alone forecast low. In the lab's interleaved rounds reads read 0.67× and writes 1.25×
//   the mapping (2026-12-05, not judged: load 13-22): no correction is made for them until a
//   quiet run shows a bias the copy explains (re-measure with `npm run bench:dm-crypt`).
//   IOPS follow from bytes/s and the block size. The seed's story is the first case: 132.7
//   (KiB-based) MB/s raw with a one-core ~70 MB/s cipher gives min(132.7, 70) = 70 against the
//   published 69.8.
import type { CipherCeilings, CipherFigure } from '../model/cipher-types.ts';
import { formatNumber, groupedDecimals } from './units.ts';
import type { RunRecord, TestParams, TestResult } from '../model/results.ts';

/**
 * How far the forecast may be from the mapping it forecasts in the dm-crypt lab: the tolerance
 * `npm run bench:dm-crypt` (e2e/dm-crypt-lab.test.ts) holds it to, and fails outside of. Judged
 * there on the median of forecast / measured over alternating rounds (plain disk, cipher,
 * dm-crypt, mirrored every other round; SEQ1M Q8 read and write, cipher-bound), and on the
 * disk-bound runs against QEMU's cap; a round spread past ±35 % is "not judged", never passed.
 * Re-measure: `npm run bench:dm-crypt` on a quiet host (it prints every round's ratio and the
 * load average); change N only from what a judged run prints.
 * Runs behind it, 2026-12-05 (2 cores, load 13 → 22, TCG): NOT judged: cipher-bound rounds
 * read forecast/measured 0.50 0.62 0.73 1.83 1.42 0.52 (median 0.67, ±37 %), write 1.15 1.53
 * 0.39 3.17 1.35 0.76 (median 1.25, ±46 %); the disk-bound boot did not start (the guest
 * kernel's timer check panicked under that load).
 * Judged, 2026-12-05 19:27–19:35 UTC, the CI run of 60e7235 (one test file at a time, load ~2–3): cipher-
 * bound rounds read 0.99 1.09 0.87 0.91 0.93 0.92 (median 0.92: −8 %), write 1.12 1.16 1.04 1.06
 * 1.10 0.90 (median 1.08: +8 %), both within; disk-bound pairs within 1 %. The reads-low bias
 * seen at higher load (−31 %, −12 %) did not hold, so the model is unchanged.
 */
export const FORECAST_LAB_ACCURACY_PERCENT = 15;
/** The runs behind FORECAST_LAB_ACCURACY_PERCENT, said where a reader asks how it is known. */
export const FORECAST_LAB_RUNS = 'npm run bench:dm-crypt: real dm-crypt in a QEMU guest, forecast against the measured mapping';

/** The sentence printed beside every forecast (CLI, app, report): how close the model came in the lab. */
export const FORECAST_ACCURACY_SENTENCE = `Forecasts are within ±${FORECAST_LAB_ACCURACY_PERCENT} % in the lab (${FORECAST_LAB_RUNS}); an estimate, not a measurement of this disk.`;

/** Request size the cipher's bulk rate is taken at (cryptsetup benchmark's block). */
export const BULK_REQUEST_BYTES = 65536;

/** The cipher's rates for one cipher + key size, bytes/s, from a CipherCeilings measurement. */
export interface CipherRates {
  cipher: string;
  keyBits: number;
  encrypt1: number;
  decrypt1: number;
  /** With `cpus` threads (equal to the one-thread rates on one CPU). */
  encryptAll: number;
  decryptAll: number;
  cpus: number;
  source: CipherCeilings['source'];
}

export function cipherRates(c: CipherCeilings, cipher = 'aes-xts-plain64', keyBits = 512): CipherRates | null {
  const mine = c.figures.filter((f) => f.cipher === cipher && f.keyBits === keyBits);
  if (mine.length === 0) return null;
  // The bulk request size where measured, else the largest measured.
  const size = mine.some((f) => f.sectorBytes === BULK_REQUEST_BYTES) ? BULK_REQUEST_BYTES : Math.max(...mine.map((f) => f.sectorBytes));
  const at = mine.filter((f) => f.sectorBytes === size);
  const one = at.find((f) => f.threads === 1) ?? at[0]!;
  const all = at.reduce((a, b) => (b.threads > a.threads ? b : a));
  return {
    cipher,
    keyBits,
    cpus: Math.max(all.threads, 1),
    source: c.source,
    encrypt1: one.encryptBps,
    decrypt1: one.decryptBps,
    encryptAll: all.encryptBps,
    decryptAll: all.decryptBps,
  };
}

/**
 * The cipher's ceiling on all CPUs in one direction: the figure drawn as the line. More CPUs
 * never make the cipher slower than one: an all-CPU figure under the one-CPU one is contention
 * in the measurement (another load on the machine), not a property of dm-crypt.
 */
export function allCpuCeiling(rates: CipherRates, write: boolean): number {
  return write ? Math.max(rates.encryptAll, rates.encrypt1) : Math.max(rates.decryptAll, rates.decrypt1);
}

/** The largest relative change between two measurements of the same cipher's rates, or null. */
export function rateDrift(a: CipherRates | null, b: CipherRates | null): number | null {
  if (!a || !b) return null;
  const keys = ['encrypt1', 'decrypt1', 'encryptAll', 'decryptAll'] as const;
  return Math.max(...keys.map((k) => Math.abs(a[k] - b[k]) / Math.max(Math.min(a[k], b[k]), 1)));
}

/** A cipher ceiling known only as a number (the seed's "~70 MB/s on one core"). */
export function fixedCipherRates(bytesPerSec: number, cpus = 1): CipherRates {
  return {
    cipher: 'given',
    keyBits: 0,
    cpus,
    source: 'kernel',
    encrypt1: bytesPerSec,
    decrypt1: bytesPerSec,
    encryptAll: bytesPerSec * cpus,
    decryptAll: bytesPerSec * cpus,
  };
}

export interface ForecastOptions {
  /** CPUs dm-crypt may use: 'all' (Linux ≥ 4.0, the default) or 1 (one kcryptd thread). */
  cipherThreads?: 'all' | 1;
}

export type Ceiling = 'disk' | 'cipher' | 'bus';

export interface TestForecast {
  test: string;
  /** Always "estimated": a forecast is never a measurement. */
  provenance: 'estimated';
  rawBytesPerSec: number;
  estimatedBytesPerSec: number;
  estimatedIops: number | null;
  /** The cipher rate that applies (bytes/s, p threads). */
  cipherBytesPerSec: number;
  cipherThreads: number;
  pipelined: boolean;
  ceiling: 'disk' | 'cipher';
  /** Estimated loss against the raw figure, percent (0–100). */
  costPercent: number;
  /** The read test whose raw figure stands in for this write's (see writeStandIns). */
  rawStandIn?: string;
}

function isWrite(result: TestResult): boolean | null {
  const rw = result.params?.rw;
  if (rw === 'write' || rw === 'randwrite') return true;
  if (rw === 'read' || rw === 'randread' || rw === 'seeks') return false;
  if (/write|output/i.test(result.test)) return true;
  if (/read|input/i.test(result.test)) return false;
  return null;
}

/** Forecast one test's figure under dm-crypt; null when the test has no throughput or a mixed pattern. */
export function forecastTest(result: TestResult, rates: CipherRates, opts: ForecastOptions = {}, buffered = false): TestForecast | null {
  const write = isWrite(result);
  const blockSize = result.params?.blockSize ?? null;
  const raw = result.bytesPerSec ?? (result.iops !== null && blockSize ? result.iops * blockSize : null);
  if (write === null || raw === null || raw <= 0) return null;
  const inFlight = result.params ? result.params.queueDepth * result.params.threads : 1;
  // No params (an import) or buffered I/O: the page cache's readahead/writeback keeps requests in flight.
  const pipelined = buffered || result.params === null || inFlight > 1;
  const cpus = opts.cipherThreads === 1 ? 1 : rates.cpus;
  const p = pipelined ? Math.max(1, Math.min(inFlight > 1 ? inFlight : cpus, cpus)) : 1;
  const one = write ? rates.encrypt1 : rates.decrypt1;
  // Between 1 and all CPUs: linear between the two measured rates (allCpuCeiling: never below one CPU's).
  const cipher = p <= 1 || rates.cpus <= 1 ? one : one + ((allCpuCeiling(rates, write) - one) * (p - 1)) / (rates.cpus - 1);
  const estimated = pipelined ? Math.min(raw, cipher) : 1 / (1 / raw + 1 / cipher);
  return {
    test: result.test,
    provenance: 'estimated',
    rawBytesPerSec: raw,
    estimatedBytesPerSec: estimated,
    estimatedIops: blockSize ? estimated / blockSize : null,
    cipherBytesPerSec: cipher,
    cipherThreads: p,
    pipelined,
    ceiling: cipher < raw ? 'cipher' : 'disk',
    costPercent: Math.max(0, (1 - estimated / raw) * 100),
  };
}

/** Forecast every test of a run (measured, imported or reference) under dm-crypt on this CPU. */
export function forecastRun(
  run: RunRecord,
  rates: CipherRates,
  opts: ForecastOptions = {},
  standIns: Record<string, string> = {},
): TestForecast[] {
  const buffered = run.settings.buffered === true || run.sourceFormat === 'bonnie++';
  return run.results.flatMap((r) => {
    const f = forecastTest(r, rates, opts, buffered);
    if (!f) return [];
    return standIns[r.test] ? [{ ...f, rawStandIn: standIns[r.test] }] : [f];
  });
}

export interface TestVerdict {
  test: string;
  rawBytesPerSec: number;
  encryptedBytesPerSec: number;
  cipherBytesPerSec: number | null;
  linkBytesPerSec: number | null;
  ceiling: Ceiling;
  /** Measured loss, percent (negative: the mapping was faster, within noise). */
  costPercent: number;
  /** One sentence: "encryption costs you 47 % on sequential read here: the cipher (…) is the ceiling". */
  sentence: string;
  /** The read test whose raw figure stands in for this write's (see writeStandIns). */
  rawStandIn?: string;
}

/**
 * Raw figures for write tests where the raw device must not be written (the device beneath an
 * existing mapping): each write test's raw figure is the disk's read of the same shape
 * (`standIns`: write test → read test, both in `raw`'s results or skipped). The copy is for the
 * verdict and the forecast only, never saved: it is the raw run with the reads renamed.
 */
export function writeStandIns(raw: RunRecord, standIns: Record<string, string>): RunRecord {
  const results = Object.entries(standIns).flatMap(([write, read]) => {
    const r = raw.results.find((x) => x.test === read);
    if (!r) return [];
    const rw: TestParams['rw'] = r.params?.rw === 'randread' ? 'randwrite' : 'write';
    const standIn: TestResult = { ...r, test: write, params: r.params ? { ...r.params, rw } : null };
    return [standIn];
  });
  return { ...raw, results };
}

const TEST_WORDS: Record<string, string> = {
  'seq1m-q8t1-read': 'sequential read',
  'seq1m-q8t1-write': 'sequential write',
  'seq1m-q1t1-read': 'sequential read at QD1',
  'seq1m-q1t1-write': 'sequential write at QD1',
  'rnd4k-q32t1-read': 'random 4K read at QD32',
  'rnd4k-q32t1-write': 'random 4K write at QD32',
  'rnd4k-q1t1-read': 'random 4K read at QD1',
  'rnd4k-q1t1-write': 'random 4K write at QD1',
};

const mb = (bps: number) => `${groupedDecimals(bps / 1e6, 1)} MB/s`;

/**
 * The verdict on a measured pair: the same test on the raw device (or loop device) and on the
 * dm-crypt mapping over it. The ceiling is the cipher when the encrypted figure sits at or
 * below the cipher's rate and well under the raw one; the bus when the raw figure reaches the
 * link's ceiling and encryption costs nothing; the disk otherwise.
 */
export function encryptionVerdict(
  raw: RunRecord,
  encrypted: RunRecord,
  rates: CipherRates | null,
  opts: ForecastOptions = {},
  standIns: Record<string, string> = {},
): TestVerdict[] {
  const link = raw.target.device?.linkCeilingBytesPerSec ?? null;
  const verdicts: TestVerdict[] = [];
  for (const r of raw.results) {
    const e = encrypted.results.find((x) => x.test === r.test);
    if (!e || r.bytesPerSec === null || e.bytesPerSec === null || r.bytesPerSec <= 0) continue;
    const forecast = rates ? forecastTest(r, rates, opts, raw.settings.buffered === true) : null;
    const cipher = forecast?.cipherBytesPerSec ?? null;
    const cost = (1 - e.bytesPerSec / r.bytesPerSec) * 100;
    let ceiling: Ceiling = 'disk';
    if (cipher !== null && cost > 10 && cipher < r.bytesPerSec) ceiling = 'cipher';
    else if (link !== null && r.bytesPerSec >= 0.85 * link) ceiling = 'bus';
    const what = TEST_WORDS[r.test] ?? r.test;
    const standIn = standIns[r.test];
    // A stand-in raw figure is the disk's read: said in the sentence, next to the number.
    const disk = standIn ? `the disk (${mb(r.bytesPerSec)} read; the device beneath is never written)` : `the disk (${mb(r.bytesPerSec)})`;
    const costText =
      cost >= 1 ? `encryption costs you ${Math.round(cost)} % on ${what} here` : `encryption costs nothing measurable on ${what} here`;
    const why =
      ceiling === 'cipher'
        ? `the cipher (${cipher !== null ? mb(cipher) : '?'}) is the ceiling, not ${disk}`
        : ceiling === 'bus'
          ? `the bus (${mb(link!)}) is the ceiling, and the cipher keeps up`
          : `${disk} is the ceiling${cipher !== null ? `, the cipher (${mb(cipher)}) keeps up` : ''}`;
    verdicts.push({
      test: r.test,
      rawBytesPerSec: r.bytesPerSec,
      encryptedBytesPerSec: e.bytesPerSec,
      cipherBytesPerSec: cipher,
      linkBytesPerSec: link,
      ceiling,
      costPercent: cost,
      sentence: `${costText}: ${why}.`,
      ...(standIn ? { rawStandIn: standIn } : {}),
    });
  }
  return verdicts;
}

/** "1,419 ±4 %": a median with its interval; no interval from a single window. */
function rateText(bps: number, ci: number | null | undefined): string {
  return ci == null ? formatNumber(bps / 1e6) : `${formatNumber(bps / 1e6)} ±${Math.max(1, Math.round(ci * 100))} %`;
}

/** "1,239 ±4 % / 1,335 ±3 % [noisy]": encrypt / decrypt MB/s with their intervals and flags (the CLI and the app). */
export function cipherFigureText(f: CipherFigure): string {
  const marks = [f.noisy ? 'noisy' : '', f.slowerThanOneThread ? 'slower than 1 thread' : ''].filter(Boolean);
  const mark = marks.length ? ` [${marks.join(', ')}]` : '';
  return `${rateText(f.encryptBps, f.encryptCi)} / ${rateText(f.decryptBps, f.decryptCi)}${mark}`;
}

/** When, where and how a measurement was taken: "median of 5 rounds … measured DATE on kernel K with af_alg". */
export function cipherMeasurementText(c: CipherCeilings): string {
  const rounds = c.rounds ?? 1;
  const how =
    rounds > 1
      ? `the median of ${rounds} rounds of a ${c.windowSeconds} s window (± its 95 % interval), the figures interleaved within each round`
      : `one ${c.windowSeconds} s window (no interval: a single round)`;
  return `Each figure: ${how}. Measured ${c.measuredAt}${c.kernel ? ` on kernel ${c.kernel}` : ''} with ${c.backend}.`;
}
