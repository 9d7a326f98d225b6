import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cipherRounds, parseCryptsetupLine } from './cryptsetup-rounds.ts';

const MIB = 1048576;
const cs = (enc: number, dec: number) => `    aes-xts        512b        ${enc.toFixed(1)} MiB/s        ${dec.toFixed(1)} MiB/s`;
const dd = (enc: number, dec: number, rekey?: number) =>
  JSON.stringify({
    v: 1,
    type: 'cipher',
    backend: 'af_alg',
    cipher: 'aes-xts-plain64',
    key_bits: 512,
    sector: 65536,
    threads: 1,
    encrypt_bps: enc,
    decrypt_bps: dec,
    ...(rekey ? { rekey_bytes: rekey } : {}),
  });

test("cryptsetup's line: what it reported, and what it measured (one 1 MiB pass less per second)", () => {
  const f = parseCryptsetupLine(cs(38.5, 28.7));
  assert.equal(f.reported.enc, 38.5 * MIB);
  assert.equal(f.measured.enc, 37.5 * MIB);
  assert.ok(Math.abs(f.measured.dec - 27.7 * MIB) < 1e-6);
  assert.throws(() => parseCryptsetupLine('Cipher aes-xts (with 512 bits key) is not available.'), /not a cryptsetup benchmark line/);
});

test('each round against the mean of its own two cryptsetup figures: a drift between rounds leaves the ratios alone', () => {
  // Round 2 runs at half the speed of round 1; within each the worker re-keyed equals cryptsetup's
  // measured rate, and the kept transform is 20 % faster.
  const lines = [cs(41, 41), cs(41, 41), cs(21, 21), cs(21, 21)];
  const kept = [dd(48 * MIB, 48 * MIB), dd(24 * MIB, 24 * MIB)];
  const rekeyed = [dd(40 * MIB, 40 * MIB, MIB), dd(20 * MIB, 20 * MIB, MIB)];
  const [enc, dec] = cipherRounds(lines, kept, rekeyed);
  assert.equal(enc!.dir, 'enc');
  assert.deepEqual(enc!.rekeyed, [1, 1]);
  assert.deepEqual(dec!.kept, [1.2, 1.2]);
  assert.deepEqual(enc!.rekeyCost, [1.2, 1.2]);
  assert.equal(enc!.cryptsetup, 30 * MIB);
});

test('refuses uneven rounds and an OpenSSL figure', () => {
  assert.throws(() => cipherRounds([cs(40, 40)], [dd(1, 1)], [dd(1, 1)]), /2 cryptsetup lines/);
  const openssl = JSON.stringify({ type: 'cipher', backend: 'openssl', encrypt_bps: 1, decrypt_bps: 1 });
  assert.throws(() => cipherRounds([cs(40, 40), cs(40, 40)], [openssl], [dd(1, 1)]), /with openssl, not the kernel crypto API/);
});
