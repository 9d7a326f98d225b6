// The CPU's dm-crypt cipher ceilings (crypto/cipher-ceilings.ts) as the library keeps them and
// the API returns them, written once as zod schemas; cipher-types.ts infers the types. Bytes/s.
import { z } from 'zod';

export const cipherFigureSchema = z.object({
  cipher: z.string(),
  keyBits: z.number().int(),
  /** The kernel transform dm-crypt uses for it: xts(aes). */
  kernelName: z.string(),
  sectorBytes: z.number().int(),
  threads: z.number().int(),
  /** The median over the measurement's rounds (one window each). */
  encryptBps: z.number(),
  decryptBps: z.number(),
  /** Each round's window, bytes/s, in the order measured; absent in a measurement older than rounds. */
  encryptWindows: z.array(z.number()).optional(),
  decryptWindows: z.array(z.number()).optional(),
  /** Half-width of each median's 95 % interval, relative (0.03 = ±3 %); null below 2 rounds. */
  encryptCi: z.number().nullable().optional(),
  decryptCi: z.number().nullable().optional(),
  /** The windows disagree as much as a rate's runs must not (bench/statistics.ts, TRUST). */
  noisy: z.boolean().optional(),
  /** More threads came out slower than one thread: contention from other work, not dm-crypt. */
  slowerThanOneThread: z.boolean().optional(),
});

export const cipherUnavailableSchema = z.object({
  cipher: z.string(),
  keyBits: z.number().int(),
  kernelName: z.string(),
  reason: z.string(),
});

export const cipherCeilingsSchema = z.object({
  source: z.enum(['kernel', 'user-space-estimate']),
  /** What the source means, for every place that shows a figure. */
  sourceLabel: z.string(),
  backend: z.enum(['af_alg', 'openssl']),
  cpus: z.number().int(),
  cpu: z.object({ model: z.string().nullable(), aesNi: z.boolean(), vaes: z.boolean(), flags: z.array(z.string()) }),
  figures: z.array(cipherFigureSchema),
  unavailable: z.array(cipherUnavailableSchema),
  /** Why the source is what it is (AF_ALG missing …). */
  warnings: z.array(z.string()),
  measuredAt: z.string(),
  windowSeconds: z.number(),
  /** Rounds of every figure, each a window per figure, figures interleaved within a round. */
  rounds: z.number().int().optional(),
  /** The kernel release it was measured under (uname -r): a new kernel may change the cipher's code. */
  kernel: z.string().optional(),
});
