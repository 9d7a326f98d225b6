// The cipher ceilings for the app: the newest measurement of this CPU kept in the library (the
// CLI's `diskdelta ciphers` keeps its own there too), or measured on request (some seconds of
// the worker) and then kept, so Overview, Compare and reports use the same stored measurement
// and the app can offer to measure again rather than measure each session.
import { BenchError } from '../bench/errors.ts';
import { measureCipherCeilings, thisCpu, type CipherCeilings } from '../crypto/cipher-ceilings.ts';
import { ApiFailure } from './dispatch.ts';
import type { CryptoPort } from './handlers.ts';

export interface CeilingStore {
  latestCipherCeilings(cpu: { model: string | null; cpus: number }): CipherCeilings | null;
  saveCipherCeilings(ceilings: CipherCeilings): number;
}

export function cryptoPort(
  measure: () => Promise<CipherCeilings> = () => measureCipherCeilings({ windowSeconds: 0.2 }),
  store: CeilingStore | null = null,
): CryptoPort {
  let last: CipherCeilings | null = null;
  let pending: Promise<CipherCeilings> | null = null;
  return {
    async ciphers(again) {
      if (!again) return (last ??= store?.latestCipherCeilings(await thisCpu()) ?? null);
      // Two clicks share one measurement: two at once would halve each other's figures.
      pending ??= measure().finally(() => (pending = null));
      try {
        last = await pending;
      } catch (error) {
        if (error instanceof BenchError) throw new ApiFailure('FAILED', error.message);
        throw error;
      }
      // A library this user may only read still shows the measurement for the session.
      try {
        store?.saveCipherCeilings(last);
      } catch {
        /* kept for the session only */
      }
      return last;
    },
  };
}
