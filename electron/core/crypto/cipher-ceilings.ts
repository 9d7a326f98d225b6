// Cipher ceilings: how fast this CPU runs dm-crypt's ciphers, measured by the worker's
// `ciphers` verb — through the kernel crypto API (AF_ALG, what dm-crypt itself runs) or, where
// the kernel has none, through OpenSSL as a *user-space estimate*. The two are never mixed: one
// measurement has one source, and every figure carries it.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { BenchError } from '../bench/errors.ts';
import { isFailureCode } from '../model/failures.ts';
import { locateWorker } from '../bench/worker-client.ts';
import { parseCpuinfo } from '../system/cpu-memory.ts';

export { SOURCE_LABEL, type CipherCeilings, type CipherFigure, type CipherSource, type CipherUnavailable } from '../model/cipher-types.ts';
import { SOURCE_LABEL, type CipherCeilings, type CipherFigure, type CipherSource, type CipherUnavailable } from '../model/cipher-types.ts';
import { appendTail, withStderr } from '../model/stderr-tail.ts';

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

/** Measure the cipher ceilings of this machine with the worker. */
export async function measureCipherCeilings(req: CipherRequest = {}, workerPath?: string): Promise<CipherCeilings> {
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
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => null);
  const ceilings = parseCipherOutput(stdout, cpuinfo, req.windowSeconds ?? 0.3);
  if (code !== 0) throw BenchError.fromWorker(undefined, withStderr(`the worker's ciphers verb exited ${code}`, stderr), code);
  return ceilings;
}

/**
 * Two measurements of the same ciphers as one: each figure the mean of both. Taken before and
 * after a measured mapping, so a CPU whose speed drifts (a shared or throttling machine) is
 * compared with the cipher's rate over the same stretch of time.
 */
export function mergeCeilings(a: CipherCeilings, b: CipherCeilings): CipherCeilings {
  const figures = a.figures.map((f) => {
    const g = b.figures.find(
      (x) => x.cipher === f.cipher && x.keyBits === f.keyBits && x.sectorBytes === f.sectorBytes && x.threads === f.threads,
    );
    return g ? { ...f, encryptBps: (f.encryptBps + g.encryptBps) / 2, decryptBps: (f.decryptBps + g.decryptBps) / 2 } : f;
  });
  return { ...a, figures, warnings: [...new Set([...a.warnings, ...b.warnings])] };
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
