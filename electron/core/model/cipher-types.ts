// The cipher ceilings' model, free of Node imports: the renderer and analysis/ use it too.

export type CipherSource = 'kernel' | 'user-space-estimate';

export interface CipherFigure {
  cipher: string;
  keyBits: number;
  /** The kernel transform dm-crypt uses for it: xts(aes). */
  kernelName: string;
  sectorBytes: number;
  threads: number;
  encryptBps: number;
  decryptBps: number;
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
}

export const SOURCE_LABEL: Record<CipherSource, string> = {
  kernel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
  'user-space-estimate': 'user-space estimate (OpenSSL): the kernel here has no AF_ALG, dm-crypt may differ',
};
