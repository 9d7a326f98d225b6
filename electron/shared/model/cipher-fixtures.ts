// Cipher ceilings for tests (the encryption story, the forecasts' accuracy sentence, the verdicts
// everywhere): one cipher, aes-xts-plain64 512-bit at 64 KiB requests, on one and two threads.
// SYNTHETIC: made by tests, never stored as this machine's measurement.
import type { CipherCeilings } from './cipher-types.ts';

export function syntheticCeilings(o: {
  /** Bytes/s on one thread (encrypt and decrypt alike). */
  oneCoreBps: number;
  /** Bytes/s on both threads; twice one core's when not given. */
  allCoresBps?: number;
  cpuModel?: string | null;
  warnings?: string[];
}): CipherCeilings {
  return {
    source: 'kernel',
    sourceLabel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
    backend: 'af_alg',
    cpus: 2,
    cpu: { model: o.cpuModel === undefined ? 'Test CPU' : o.cpuModel, aesNi: true, vaes: false, flags: ['aes'] },
    figures: [1, 2].map((threads) => {
      const bps = threads === 1 ? o.oneCoreBps : (o.allCoresBps ?? 2 * o.oneCoreBps);
      return {
        cipher: 'aes-xts-plain64',
        keyBits: 512,
        kernelName: 'xts(aes)',
        sectorBytes: 65536,
        threads,
        encryptBps: bps,
        decryptBps: bps,
      };
    }),
    unavailable: [],
    warnings: o.warnings ?? [],
    measuredAt: '2026-12-01T14:00:00.000Z',
    windowSeconds: 0.2,
    rounds: 5,
    kernel: '6.1.0',
  };
}
