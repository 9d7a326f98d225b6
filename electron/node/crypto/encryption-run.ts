// The encryption assessment of one target: the cipher ceilings of this CPU, the same tests on
// the unencrypted device and on a dm-crypt mapping over it, the verdict and the forecast.
// Two ways to get the pair:
//   - throwaway: DiskDelta's own test file → loop → plain dm-crypt mapping, torn down on
//     success, error and signals. As root: reads and writes (it is our own file). As a user
//     with `elevate`: the privileged helper makes it read-only (throwaway-held.ts): reads only;
//   - existing: the target already sits on dm-crypt (system/ finds the layer): reads on the
//     mapping and on the device beneath it, both opened read-only; writes only through
//     DiskDelta's test file in the target folder, on the mapping's filesystem. The device
//     beneath is never written, so a write's raw figure is the disk's read of the same shape
//     (analysis/encryption.ts writeStandIns), and every figure built on it says so. A user
//     with `elevate` has the helper open the mapping and the device beneath (open-ro).
import type { BenchEvent, BenchSpec } from '../../shared/model/spec.ts';
import { runBenchmark } from '../bench/orchestrator.ts';
import { BenchError } from '../bench/errors.ts';
import { PRESETS } from '../../shared/catalog/presets.ts';
import { kindOfTest, readCounterpart, testById } from '../../shared/model/catalog.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { inspectPath } from '../system/index.ts';
import { locateHelper, type LocateOptions } from '../bench/privilege/elevation.ts';
import { deviceMapperMissing, holdThrowaway, type HeldThrowaway } from './throwaway-held.ts';
import type { StackLayer } from '../../shared/model/machine.ts';
import { cipherChoiceProblem } from '../../shared/model/cipher-types.ts';
import { checkTarget } from '../bench/target-check.ts';
import {
  cipherRates,
  encryptionVerdict,
  forecastRun,
  rateDrift,
  writeStandIns,
  type CipherRates,
  type TestForecast,
  type TestVerdict,
} from '../../shared/analysis/encryption.ts';
import { measureCipherCeilings, combineRounds, type CipherCeilings } from './cipher-ceilings.ts';
import {
  openThrowaway,
  sweepThrowaways,
  sweepThrowawayFiles,
  throwawayUnavailable,
  type DmCryptFlag,
  type Throwaway,
} from './throwaway.ts';
import { formatCount } from '../../shared/analysis/units.ts';

export interface EncryptionSpec {
  /** A folder on the disk to assess. */
  target: string;
  mode: 'throwaway' | 'existing' | 'auto';
  tests?: string[];
  sizeBytes?: number;
  durationSec?: number;
  warmupSec?: number;
  runs?: number;
  cipher?: string;
  keyBits?: number;
  sectorBytes?: 512 | 4096;
  flags?: DmCryptFlag[];
  label?: string;
  /**
   * Not root: ask through polkit (the privileged helper) instead of failing. The existing
   * mapping and the device beneath are opened read-only for the user; a throwaway mapping is
   * made read-only, so only read tests run on it.
   */
  elevate?: boolean;
}

export interface EncryptionReport {
  mode: 'throwaway' | 'existing';
  /** The dm-crypt setup measured: cipher, key size, sector size, flags. */
  setup: { cipher: string; keyBits: number; sectorBytes: number; flags: string[] };
  ceilings: CipherCeilings;
  rates: CipherRates | null;
  raw: RunRecord;
  encrypted: RunRecord;
  /**
   * Existing mode: the write tests, through DiskDelta's test file in the target folder on the
   * mapping's filesystem (the raw device beneath is never written). Null otherwise.
   */
  encryptedWrites: RunRecord | null;
  verdict: TestVerdict[];
  /** The raw run's figures forecast under this dm-crypt on this CPU: estimated. */
  forecast: TestForecast[];
  /**
   * How far the cipher's rate moved between its measurements right before and right after the
   * encrypted run (0.2 = 20 %, the largest over the rates the forecast uses): a CPU shared with
   * another load moves it, and the forecast is no surer than this. Null without a ceiling.
   */
  cipherDrift: number | null;
  /** What earlier killed runs left and this run removed. */
  cleaned: string[];
  notes: string[];
}

export interface EncryptionOptions {
  onEvent?: (event: BenchEvent & { stage?: 'raw' | 'encrypted' }) => void;
  signal?: AbortSignal;
  workerPath?: string;
  /** Called once the throwaway exists, so a caller can tear it down from a signal handler. */
  onThrowaway?: (t: Throwaway | null) => void;
  /** Where to look for the privileged helper (tests, packagers); see bench/privilege/elevation.ts. */
  helper?: LocateOptions;
}

/** The dm-crypt layer under a path and the device right beneath it, from system/'s stack. */
export function existingCrypt(layers: StackLayer[]): { mapping: string; beneath: string; layer: StackLayer } | null {
  const i = layers.findIndex((l) => l.kind === 'dm-crypt');
  const below = i >= 0 ? layers[i + 1] : undefined;
  if (i < 0 || !below) return null;
  const layer = layers[i]!;
  const device = (l: StackLayer) => `/dev/${String(l.details.device ?? l.name)}`;
  return { mapping: device(layer), beneath: device(below), layer };
}

/** Whether a test writes (the catalog says; an existing mapping is only ever read). */
const writesTo = (test: string): boolean => testById(test)?.writes ?? true;

const DEFAULT_TESTS: string[] = ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q1t1-read'];

export async function measureEncryptionCost(spec: EncryptionSpec, opts: EncryptionOptions = {}): Promise<EncryptionReport> {
  const notes: string[] = [];
  // What was asked is checked before what the machine can do: a missing folder or a mistyped
  // cipher is said as such, not hidden behind "this kernel has no device-mapper".
  await checkTarget(spec.target);
  // Encryption's cost is the same I/O without and through dm-crypt: rate tests. A workload, the
  // sustained write or a surface scan measures something else (New run's other presets).
  const notRate = (spec.tests ?? DEFAULT_TESTS).filter((t) => kindOfTest(t) !== 'rate');
  if (notRate.length > 0)
    throw new BenchError(
      'usage',
      `${notRate.join(', ')}: what encryption costs is measured with rate tests (sequential and random reads and writes, seeks); measure ${notRate.length > 1 ? 'those' : 'that'} in a run of ${notRate.length > 1 ? 'their' : 'its'} own, without encryption`,
    );
  if (spec.mode !== 'existing') {
    const problem = cipherChoiceProblem(spec.cipher ?? 'aes-xts-plain64', spec.keyBits ?? 512);
    if (problem) throw new BenchError('usage', problem);
  }
  const report = await inspectPath(spec.target);
  const existing = existingCrypt(report.target.stack ?? []);
  if (spec.mode === 'existing' && !existing) {
    throw new BenchError(
      'no-dm-crypt',
      `${spec.target} is not on a dm-crypt mapping (diskdelta inspect shows its stack); use the throwaway mapping instead`,
    );
  }
  const mode: 'throwaway' | 'existing' = spec.mode === 'auto' ? (existing ? 'existing' : 'throwaway') : spec.mode;
  const asUser = process.getuid?.() !== 0;
  if (asUser && !spec.elevate) {
    throw new BenchError(
      'needs-root',
      mode === 'existing'
        ? `reading the raw device beneath ${existing?.mapping} needs administrator rights: DiskDelta can ask once through polkit (only opening the devices is privileged), or run as root; the cipher ceilings and the forecast still work`
        : `a throwaway dm-crypt mapping needs administrator rights: DiskDelta's helper can make a read-only one through polkit (read tests only), or run as root (reads and writes); the cipher ceilings and the forecast still work`,
    );
  }
  if (mode === 'throwaway') {
    const why = asUser ? await deviceMapperMissing() : await throwawayUnavailable();
    if (why) throw new BenchError('dm-crypt-unavailable', why);
  }

  const setup =
    mode === 'existing'
      ? {
          cipher: String(existing!.layer.details.cipher ?? 'aes-xts-plain64'),
          keyBits: Number(existing!.layer.details.keyBits ?? 512),
          sectorBytes: Number(existing!.layer.details.sectorSize ?? 512),
          flags: String(existing!.layer.details.flags ?? '')
            .split(' ')
            .filter(Boolean),
        }
      : {
          cipher: spec.cipher ?? 'aes-xts-plain64',
          keyBits: spec.keyBits ?? 512,
          sectorBytes: spec.sectorBytes ?? 512,
          flags: spec.flags ?? [],
        };

  const measureCiphers = () =>
    measureCipherCeilings({ ciphers: [`${setup.cipher}:${setup.keyBits}`], sectors: [65536], windowSeconds: 0.4 }, opts.workerPath).catch(
      (error: unknown) => {
        if (error instanceof BenchError && error.code === 'usage') {
          throw new BenchError(
            'usage',
            `the worker cannot measure the cipher ${setup.cipher} with ${setup.keyBits}-bit keys: ${error.message}`,
          );
        }
        throw error;
      },
    );
  // Measured right before and right after the encrypted run (below), so the forecast's cipher
  // rate and the measurement it is compared with come from the same stretch of time.
  let tests = spec.tests ?? DEFAULT_TESTS;
  // Existing mode: each write test runs through the filesystem, and the disk's read of the same
  // shape is measured raw to stand in for its write (write test → read test).
  const standIns: Record<string, string> = {};
  if (mode === 'throwaway' && asUser) {
    // The helper's mapping is read-only (it opens nothing writable): the write tests need root.
    const writes = tests.filter(writesTo);
    if (writes.length > 0)
      notes.push(
        `${writes.join(', ')} left out: without root the throwaway mapping is made read-only by DiskDelta's helper (it opens nothing writable); run as root to measure writes through a throwaway mapping`,
      );
    tests = tests.filter((t) => !writesTo(t));
    if (tests.length === 0)
      throw new BenchError('usage', 'without root the throwaway mapping is read-only: choose at least one read test, or run as root');
  }
  if (mode === 'existing') {
    const writes = tests.filter(writesTo);
    const reads = tests.filter((t) => !writesTo(t));
    for (const w of writes) {
      const read = readCounterpart(w);
      if (read) standIns[w] = read;
    }
    const without = writes.filter((w) => !standIns[w]);
    if (without.length > 0)
      notes.push(
        `${without.join(', ')} left out: the device beneath an existing mapping is never written, and these have no read of the same shape to stand in for it; measure through a throwaway mapping instead (its own test file, read and written)`,
      );
    const withStandIn = Object.keys(standIns);
    if (withStandIn.length > 0)
      notes.push(
        `${withStandIn.join(', ')} written through DiskDelta's test file in ${spec.target} (on the mapping's filesystem); the device beneath is never written, so its read of the same shape (${[...new Set(Object.values(standIns))].join(', ')}) stands in for its write speed: the cost on writes includes any gap between the disk's own read and write speeds`,
      );
    tests = [...new Set([...reads, ...Object.values(standIns)])];
    if (tests.length === 0) throw new BenchError('usage', 'an existing dm-crypt mapping is only read: choose at least one read test');
  }
  const base: Omit<BenchSpec, 'target'> = {
    tests,
    sizeBytes: spec.sizeBytes ?? 256 * 1024 * 1024,
    durationSec: spec.durationSec ?? PRESETS.quick.durationSec,
    warmupSec: spec.warmupSec ?? PRESETS.quick.warmupSec,
    runs: spec.runs ?? 1,
    ...(asUser ? { elevate: true } : {}),
  };
  const label = spec.label ?? `${spec.target}`;
  const bench = (target: string, stage: 'raw' | 'encrypted', what: string, only: string[] = tests, fdFrom?: string) =>
    runBenchmark(
      { ...base, tests: only, target, label: `${label} — ${what}` },
      {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.workerPath ? { workerPath: opts.workerPath } : {}),
        ...(opts.helper ? { helper: opts.helper } : {}),
        ...(fdFrom ? { fdFrom } : {}),
        onEvent: (e) => opts.onEvent?.({ ...e, stage }),
      },
    );

  const cleaned: string[] = [];
  let raw: RunRecord;
  let encrypted: RunRecord;
  let encryptedWrites: RunRecord | null = null;
  let before: CipherCeilings;
  if (mode === 'existing') {
    raw = await bench(existing!.beneath, 'raw', `raw ${existing!.beneath} (beneath ${existing!.layer.name})`);
    before = await measureCiphers();
    encrypted = await bench(existing!.mapping, 'encrypted', `dm-crypt ${existing!.layer.name}`);
    const writes = Object.keys(standIns);
    if (writes.length > 0)
      encryptedWrites = await bench(spec.target, 'encrypted', `dm-crypt ${existing!.layer.name}, writes through the filesystem`, writes);
  } else {
    const throwawayOptions = {
      folder: spec.target,
      sizeBytes: base.sizeBytes!,
      cipher: setup.cipher,
      keyBits: setup.keyBits,
      sectorBytes: setup.sectorBytes === 4096 ? (4096 as const) : (512 as const),
      flags: setup.flags as DmCryptFlag[],
      ...(opts.workerPath ? { workerPath: opts.workerPath } : {}),
    };
    let t: Throwaway | HeldThrowaway;
    if (asUser) {
      t = await holdThrowaway({ ...throwawayOptions, helper: (await locateHelper(opts.helper)).path });
    } else {
      cleaned.push(...(await sweepThrowaways()), ...(await sweepThrowawayFiles(spec.target)));
      t = await openThrowaway(throwawayOptions);
    }
    opts.onThrowaway?.(t);
    const held = 'socket' in t ? t : null;
    try {
      raw = await bench(t.loop, 'raw', `raw (loop over DiskDelta's file)`, tests, held?.rawSocket);
      before = await measureCiphers();
      encrypted = await bench(
        t.mapping,
        'encrypted',
        `dm-crypt ${setup.cipher} ${setup.keyBits} bit, ${formatCount(setup.sectorBytes)} B sectors${setup.flags.length ? `, ${setup.flags.join(' ')}` : ''}${held ? ', read-only (made by the helper)' : ''}`,
        tests,
        held?.socket,
      );
    } finally {
      await t.teardown();
      opts.onThrowaway?.(null);
    }
  }
  // The cipher again after the mapping's runs: the forecast uses the median of both's windows.
  const after = await measureCiphers();
  const ceilings = combineRounds([before, after]);
  const rates = cipherRates(ceilings, setup.cipher, setup.keyBits);
  if (!rates) notes.push(`the cipher ${setup.cipher} ${setup.keyBits} bit could not be measured here: no ceiling, no forecast`);
  const cipherDrift = rateDrift(cipherRates(before, setup.cipher, setup.keyBits), cipherRates(after, setup.cipher, setup.keyBits));
  if (cipherDrift !== null && cipherDrift > 0.1) {
    notes.push(
      `the cipher's rate moved ${Math.round(cipherDrift * 100)} % during the run (another load on this CPU?): the forecast is that much less sure; run again on a quiet machine`,
    );
  }
  const verdict = encryptionVerdict(raw, encrypted, rates);
  const forecast = rates ? forecastRun(raw, rates) : [];
  if (encryptedWrites) {
    const standInRaw = writeStandIns(raw, standIns);
    verdict.push(...encryptionVerdict(standInRaw, encryptedWrites, rates, {}, standIns));
    if (rates) forecast.push(...forecastRun(standInRaw, rates, {}, standIns));
  }
  return { mode, setup, ceilings, rates, raw, encrypted, encryptedWrites, cipherDrift, cleaned, notes, verdict, forecast };
}
