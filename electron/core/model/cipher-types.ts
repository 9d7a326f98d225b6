// The cipher ceilings' model, free of Node imports: the renderer and analysis/ use it too.

export type CipherSource = 'kernel' | 'user-space-estimate';

export interface CipherFigure {
  cipher: string;
  keyBits: number;
  /** The kernel transform dm-crypt uses for it: xts(aes). */
  kernelName: string;
  sectorBytes: number;
  threads: number;
  /** The median over the measurement's rounds (one window each). */
  encryptBps: number;
  decryptBps: number;
  /** Each round's window, bytes/s, in the order measured; absent in a measurement older than rounds. */
  encryptWindows?: number[];
  decryptWindows?: number[];
  /** Half-width of each median's 95 % interval, relative (0.03 = ±3 %); null below 2 rounds. */
  encryptCi?: number | null;
  decryptCi?: number | null;
  /** The windows disagree as much as a rate's runs must not (bench/statistics.ts, TRUST). */
  noisy?: boolean;
  /** More threads came out slower than one thread: contention from other work, not dm-crypt. */
  slowerThanOneThread?: boolean;
}

export interface CipherUnavailable {
  cipher: string;
  keyBits: number;
  kernelName: string;
  reason: string;
}

export interface CipherCeilings {
  source: CipherSource;
  /** What the source means, for every place that shows a figure. */
  sourceLabel: string;
  backend: 'af_alg' | 'openssl';
  cpus: number;
  cpu: { model: string | null; aesNi: boolean; vaes: boolean; flags: string[] };
  figures: CipherFigure[];
  unavailable: CipherUnavailable[];
  /** Why the source is what it is (AF_ALG missing …). */
  warnings: string[];
  measuredAt: string;
  windowSeconds: number;
  /** Rounds of every figure, each a window per figure, figures interleaved within a round. */
  rounds?: number;
  /** The kernel release it was measured under (uname -r): a new kernel may change the cipher's code. */
  kernel?: string;
}

export const SOURCE_LABEL: Record<CipherSource, string> = {
  kernel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
  'user-space-estimate': 'user-space estimate (OpenSSL): the kernel here has no AF_ALG, dm-crypt may differ',
};

/**
 * The dm-crypt ciphers and key sizes the worker can measure (native/src/cipher-specs.c; a test
 * holds the two lists equal): a throwaway mapping takes only these, because its cost is told
 * against the cipher's ceiling, which the worker must be able to measure.
 */
export const DM_CIPHERS: readonly { cipher: string; keyBits: number }[] = [
  { cipher: 'aes-xts-plain64', keyBits: 256 },
  { cipher: 'aes-xts-plain64', keyBits: 512 },
  { cipher: 'aes-cbc-essiv:sha256', keyBits: 256 },
  { cipher: 'serpent-xts-plain64', keyBits: 512 },
  { cipher: 'twofish-xts-plain64', keyBits: 512 },
  { cipher: 'xchacha12,aes-adiantum-plain64', keyBits: 256 },
  { cipher: 'xchacha20,aes-adiantum-plain64', keyBits: 256 },
];

/** Null for a cipher and key size of DM_CIPHERS; else what is wrong and what to give instead. */
export function cipherChoiceProblem(cipher: string, keyBits: number): string | null {
  if (DM_CIPHERS.some((c) => c.cipher === cipher && c.keyBits === keyBits)) return null;
  const sizes = DM_CIPHERS.filter((c) => c.cipher === cipher).map((c) => c.keyBits);
  if (sizes.length > 0) return `the cipher ${cipher} takes a ${sizes.join(' or ')}-bit key, not ${keyBits}`;
  const names = [...new Set(DM_CIPHERS.map((c) => c.cipher))];
  return `the cipher '${cipher}' is not one DiskDelta can measure: use ${names.join(', ')}`;
}
