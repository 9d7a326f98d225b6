// The ciphers a throwaway mapping may take are those the worker can measure: the app's list
// against native/src/cipher-specs.c, entry by entry.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DM_CIPHERS, cipherChoiceProblem } from './cipher-types.ts';

it("DM_CIPHERS is the worker's CIPHER_SPECS, name and key size", () => {
  const source = readFileSync(new URL('../../../native/src/cipher-specs.c', import.meta.url), 'utf8');
  const worker = [...source.matchAll(/\.dm_name = "([^"]+)", \.key_bits = (\d+)/g)].map((m) => ({ cipher: m[1], keyBits: Number(m[2]) }));
  assert.ok(worker.length >= 5, 'the C table was read');
  assert.deepEqual(DM_CIPHERS, worker);
});

it('a known cipher passes; a typo and a wrong key size say what to give', () => {
  assert.equal(cipherChoiceProblem('aes-xts-plain64', 512), null);
  assert.match(cipherChoiceProblem('aes-xts-plain65', 512) ?? '', /not one DiskDelta can measure: use aes-xts-plain64/);
  assert.match(cipherChoiceProblem('serpent-xts-plain64', 256) ?? '', /takes a 512-bit key, not 256/);
});
