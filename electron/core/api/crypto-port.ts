// The cipher ceilings for the app: measured on request (a few seconds of the worker), kept for
// the session so Overview and Compare show the same measurement without measuring twice.
import { BenchError } from '../bench/errors.ts';
import { measureCipherCeilings, type CipherCeilings } from '../crypto/cipher-ceilings.ts';
import { ApiFailure } from './dispatch.ts';
import type { CryptoPort } from './handlers.ts';

export function cryptoPort(measure: () => Promise<CipherCeilings> = () => measureCipherCeilings({ windowSeconds: 0.2 })): CryptoPort {
  let last: CipherCeilings | null = null;
  let pending: Promise<CipherCeilings> | null = null;
  return {
    async ciphers(again) {
      if (!again) return last;
      // Two clicks share one measurement: two at once would halve each other's figures.
      pending ??= measure().finally(() => (pending = null));
      try {
        last = await pending;
      } catch (error) {
        if (error instanceof BenchError) throw new ApiFailure('FAILED', error.message);
        throw error;
      }
      return last;
    },
  };
}
