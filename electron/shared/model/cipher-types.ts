// The cipher ceilings' model, free of Node imports: the renderer and analysis/ use it too.

import type { z } from 'zod';
import type { cipherCeilingsSchema, cipherFigureSchema, cipherUnavailableSchema } from './cipher-schema.ts';

// The types are inferred from the schemas (cipher-schema.ts), written once; this module keeps
// the values the page needs without zod.
export type CipherCeilings = z.infer<typeof cipherCeilingsSchema>;
export type CipherFigure = z.infer<typeof cipherFigureSchema>;
export type CipherUnavailable = z.infer<typeof cipherUnavailableSchema>;
export type CipherSource = CipherCeilings['source'];

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
