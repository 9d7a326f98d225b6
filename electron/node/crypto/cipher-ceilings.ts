// Cipher ceilings: how fast this CPU runs dm-crypt's ciphers, measured by the worker's
// `ciphers` verb — through the kernel crypto API (AF_ALG, what dm-crypt itself runs) or, where
// the kernel has none, through OpenSSL as a *user-space estimate*. The two are never mixed: one
// measurement has one source, and every figure carries it.
import { spawn } from 'node:child_process';
import { readRegularFile } from '../files/read-bounded.ts';
import { z } from 'zod';
import { BenchError } from '../bench/errors.ts';
import { isFailureCode } from '../../shared/model/failures.ts';
import { locateWorker } from '../bench/worker-client.ts';
import { parseCpuinfo } from '../system/cpu-memory.ts';
import { cpus, release } from 'node:os';
import { watchOtherCpu } from '../system/index.ts';
import { machineBusyWarning } from '../bench/result-warnings.ts';
import { coefficientOfVariation, median, medianInterval, TRUST } from '../../shared/analysis/statistics.ts';

export {
  SOURCE_LABEL,
  type CipherCeilings,
  type CipherFigure,
  type CipherSource,
  type CipherUnavailable,
} from '../../shared/model/cipher-types.ts';
import {
  SOURCE_LABEL,
  type CipherCeilings,
  type CipherFigure,
  type CipherSource,
  type CipherUnavailable,
} from '../../shared/model/cipher-types.ts';
import { appendTail, withStderr } from '../../shared/model/stderr-tail.ts';
import { formatCount } from '../../shared/analysis/units.ts';

const line = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), verb: z.literal('ciphers'), backend: z.enum(['af_alg', 'openssl']), cpus: z.number() }).loose(),
  z
    .object({
      type: z.literal('cipher'),
      backend: z.enum(['af_alg', 'openssl']),
      cipher: z.string(),
      key_bits: z.number(),
      kernel_name: z.string(),
      sector: z.number().optional(),
      threads: z.number().optional(),
      encrypt_bps: z.number().optional(),
      decrypt_bps: z.number().optional(),
      unavailable: z.string().optional(),
    })
    .loose(),
  z.object({ type: z.literal('warning'), code: z.string(), message: z.string() }).loose(),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }).loose(),
  z.object({ type: z.literal('done'), status: z.string(), exit_code: z.number() }).loose(),
]);

export interface CipherRequest {
  /** NAME:BITS as the worker takes them; all when empty. */
  ciphers?: string[];
  sectors?: number[];
  threads?: number[];
  windowSeconds?: number;
  backend?: 'auto' | 'af_alg' | 'openssl';
}

export function cipherArgv(req: CipherRequest): string[] {
  const argv = ['ciphers', '--duration', String(req.windowSeconds ?? 0.3), '--backend', req.backend ?? 'auto'];
  for (const c of req.ciphers ?? []) argv.push('--cipher', c);
  for (const s of req.sectors ?? []) argv.push('--sector', String(s));
  for (const t of req.threads ?? []) argv.push('--threads', String(t));
  return argv;
}

/** The worker's `ciphers` output → one CipherCeilings; throws BenchError on failure. */
export function parseCipherOutput(stdout: string, cpuinfo: string | null, windowSeconds: number): CipherCeilings {
  let hello: { backend: 'af_alg' | 'openssl'; cpus: number } | null = null;
  const figures: CipherFigure[] = [];
  const unavailable: CipherUnavailable[] = [];
  const warnings: string[] = [];
  for (const text of stdout.split('\n')) {
    if (!text.trim()) continue;
    const parsed = line.safeParse(JSON.parse(text));
    if (!parsed.success) continue; // progress or future message types
    const m = parsed.data;
    if (m.type === 'hello') hello = { backend: m.backend, cpus: m.cpus };
    else if (m.type === 'warning') warnings.push(m.message);
    else if (m.type === 'error') throw new BenchError(isFailureCode(m.code) ? m.code : 'internal', m.message);
    else if (m.type === 'cipher') {
      if (m.unavailable !== undefined) {
        if (!unavailable.some((u) => u.cipher === m.cipher && u.keyBits === m.key_bits)) {
          unavailable.push({ cipher: m.cipher, keyBits: m.key_bits, kernelName: m.kernel_name, reason: m.unavailable });
        }
      } else if (m.sector !== undefined && m.threads !== undefined && m.encrypt_bps !== undefined && m.decrypt_bps !== undefined) {
        figures.push({
          cipher: m.cipher,
          keyBits: m.key_bits,
          kernelName: m.kernel_name,
          sectorBytes: m.sector,
          threads: m.threads,
          encryptBps: m.encrypt_bps,
          decryptBps: m.decrypt_bps,
        });
      }
    }
  }
  if (!hello) throw new BenchError('internal', 'the worker printed no ciphers hello line');
  const cpu = cpuinfo === null ? null : parseCpuinfo(cpuinfo);
  const flags = cpu?.cryptoFlags ?? [];
  const source: CipherSource = hello.backend === 'af_alg' ? 'kernel' : 'user-space-estimate';
  return {
    source,
    sourceLabel: SOURCE_LABEL[source],
    backend: hello.backend,
    cpus: hello.cpus,
    cpu: { model: cpu?.model ?? null, aesNi: flags.includes('aes'), vaes: flags.includes('vaes'), flags },
    figures,
    unavailable,
    warnings,
    measuredAt: new Date().toISOString(),
    windowSeconds,
  };
}

/** Rounds of windows per figure unless asked otherwise: enough for a median and its interval. */
export const DEFAULT_ROUNDS = 5;

/**
 * Measure the cipher ceilings of this machine with the worker: `rounds` runs of the verb, each
 * one window per figure, so every figure's windows are spread over the whole measurement and
 * a stretch of other work on the CPU lands in one window of each, not in all windows of one.
 */
export async function measureCipherCeilings(req: CipherRequest & { rounds?: number } = {}, workerPath?: string): Promise<CipherCeilings> {
  const rounds = Math.max(1, req.rounds ?? DEFAULT_ROUNDS);
  const cpuinfo = await readRegularFile('/proc/cpuinfo').then(String, () => null);
  const watch = watchOtherCpu();
  const measured: CipherCeilings[] = [];
  for (let i = 0; i < rounds; i++) measured.push(await measureOneRound(req, cpuinfo, workerPath));
  const combined = combineRounds(measured);
  const busy = machineBusyWarning(watch.stop(), 'the cipher measurement');
  return {
    ...combined,
    kernel: release(),
    warnings: busy ? [...combined.warnings, `machine-busy: ${busy.message}`] : combined.warnings,
  };
}

async function measureOneRound(req: CipherRequest, cpuinfo: string | null, workerPath?: string): Promise<CipherCeilings> {
  const argv = cipherArgv(req);
  const { stdout, code, stderr } = await new Promise<{ stdout: string; code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(workerPath ?? locateWorker(), argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err = appendTail(err, c)));
    child.on('error', (e) => reject(new BenchError('internal', `cannot start the worker: ${e.message}`)));
    child.on('close', (exit) => resolve({ stdout: out, code: exit, stderr: err }));
  });
  const ceilings = parseCipherOutput(stdout, cpuinfo, req.windowSeconds ?? 0.3);
  if (code !== 0) throw BenchError.fromWorker(undefined, withStderr(`the worker's ciphers verb exited ${code}`, stderr), code);
  return ceilings;
}

const sameFigure = (f: CipherFigure, g: CipherFigure) =>
  g.cipher === f.cipher && g.keyBits === f.keyBits && g.sectorBytes === f.sectorBytes && g.threads === f.threads;

/** A figure's windows judged as a rate's runs are: median, its interval, noisy past the same thresholds. */
function judgeWindows(f: CipherFigure, encrypt: number[], decrypt: number[]): CipherFigure {
  const wide = (values: number[]) => {
    const ci = medianInterval(values);
    const cv = coefficientOfVariation(values);
    return { ci, noisy: (cv !== null && cv > TRUST.maxCv) || (values.length >= 3 && ci !== null && ci > TRUST.maxCiRelative) };
  };
  const e = wide(encrypt);
  const d = wide(decrypt);
  return {
    ...f,
    encryptBps: median(encrypt),
    decryptBps: median(decrypt),
    encryptWindows: encrypt,
    decryptWindows: decrypt,
    encryptCi: e.ci,
    decryptCi: d.ci,
    noisy: e.noisy || d.noisy,
  };
}

/**
 * Several measurements of the same ciphers as one: each figure's windows pooled, its median and
 * interval from them. Rounds of one `measureCipherCeilings`, or the measurements taken before
 * and after a mapping's runs, so a CPU whose speed drifts is judged over the same stretch of time.
 */
export function combineRounds(measurements: CipherCeilings[]): CipherCeilings {
  const first = measurements[0];
  if (!first) throw new Error('combineRounds needs at least one measurement');
  const figures = first.figures.map((f) => {
    const same = measurements.flatMap((m) => m.figures.filter((g) => sameFigure(f, g)));
    const encrypt = same.flatMap((g) => g.encryptWindows ?? [g.encryptBps]);
    const decrypt = same.flatMap((g) => g.decryptWindows ?? [g.decryptBps]);
    return judgeWindows(f, encrypt, decrypt);
  });
  const flagged = figures.map((f) => {
    const one = figures.find((g) => sameFigure({ ...f, threads: 1 }, g));
    const slower = one !== undefined && f.threads > 1 && (f.encryptBps < one.encryptBps || f.decryptBps < one.decryptBps);
    return slower ? { ...f, slowerThanOneThread: true } : f;
  });
  // Earlier rounds' judgements are recomputed above, never carried: drop their trust lines.
  const warnings = [...new Set(measurements.flatMap((m) => m.warnings))].filter((w) => !/^(noisy|slower-than-one-thread): /.test(w));
  const noisy = flagged.filter((f) => f.noisy).length;
  if (noisy > 0) {
    warnings.push(
      `noisy: ${noisy} of ${flagged.length} figures vary by more than ${TRUST.maxCv * 100} % between rounds (or their median is known only within more than ±${TRUST.maxCiRelative * 100} %): another load on this CPU? measure again on a quiet machine`,
    );
  }
  for (const f of flagged.filter((x) => x.slowerThanOneThread)) {
    warnings.push(
      `slower-than-one-thread: ${f.cipher} ${f.keyBits} bit, ${formatCount(f.sectorBytes)} B sectors ran slower on ${f.threads} threads than on one: other work took the CPUs; forecasts use one thread's figure where it is higher`,
    );
  }
  return { ...first, figures: flagged, warnings, rounds: measurements.reduce((n, m) => n + (m.rounds ?? 1), 0) };
}

/**
 * The ceiling a dm-crypt mapping with this cipher can reach, bytes/s: the figure for the
 * sector size (nearest measured), with the given number of threads (1 = one core, the
 * 2011 laptop's story; dm-crypt spreads work over CPUs through its workqueues).
 */
export function ceilingFor(
  c: CipherCeilings,
  want: { cipher: string; keyBits: number; sectorBytes: number; threads?: number },
): CipherFigure | null {
  const candidates = c.figures.filter((f) => f.cipher === want.cipher && f.keyBits === want.keyBits);
  if (candidates.length === 0) return null;
  const threads = want.threads ?? 1;
  const byThreads = candidates.filter((f) => f.threads === threads);
  const pool = byThreads.length > 0 ? byThreads : candidates;
  return pool.reduce((best, f) =>
    Math.abs(Math.log2(f.sectorBytes / want.sectorBytes)) < Math.abs(Math.log2(best.sectorBytes / want.sectorBytes)) ? f : best,
  );
}

/** This machine's CPU as a stored measurement names it: the one whose ceilings apply here. */
export async function thisCpu(): Promise<{ model: string | null; cpus: number }> {
  const cpuinfo = await readRegularFile('/proc/cpuinfo').then(String, () => null);
  return { model: cpuinfo === null ? null : parseCpuinfo(cpuinfo).model, cpus: cpus().length || 1 };
}
