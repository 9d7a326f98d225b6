import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ceilingFor, cipherArgv, combineRounds, parseCipherOutput } from './cipher-ceilings.ts';
import { formatCipherCeilings } from '../../cli/cipher-text.ts';
import { BenchError } from '../bench/errors.ts';

const CPUINFO =
  'processor\t: 0\nmodel name\t: Intel(R) Core(TM) i5 CPU M 430\nflags\t\t: fpu sse2 aes pclmulqdq\n\nprocessor\t: 1\nmodel name\t: Intel(R) Core(TM) i5 CPU M 430\nflags\t\t: fpu sse2 aes pclmulqdq\n';

const lines = (backend: 'af_alg' | 'openssl', label: string) =>
  [
    JSON.stringify({ v: 1, type: 'hello', verb: 'ciphers', backend, label, cpus: 2 }),
    ...[512, 4096].flatMap((sector) =>
      [1, 2].map((threads) =>
        JSON.stringify({
          v: 1,
          type: 'cipher',
          backend,
          label,
          cipher: 'aes-xts-plain64',
          key_bits: 512,
          kernel_name: 'xts(aes)',
          sector,
          threads,
          encrypt_bps: sector * 1e4 * threads,
          decrypt_bps: sector * 1.1e4 * threads,
          seconds: 0.3,
        }),
      ),
    ),
    JSON.stringify({
      v: 1,
      type: 'cipher',
      backend,
      label,
      cipher: 'serpent-xts-plain64',
      key_bits: 512,
      kernel_name: 'xts(serpent)',
      unavailable: 'the kernel offers no xts(serpent) (No such file or directory)',
    }),
    JSON.stringify({ v: 1, type: 'done', status: 'ok', exit_code: 0 }),
  ].join('\n');

test('kernel figures: source, AES-NI from cpuinfo, every figure kept in bytes/s, unavailable ciphers with the reason', () => {
  const c = parseCipherOutput(lines('af_alg', 'kernel'), CPUINFO, 0.3);
  assert.equal(c.source, 'kernel');
  assert.equal(c.cpu.aesNi, true);
  assert.equal(c.cpu.vaes, false);
  assert.equal(c.figures.length, 4);
  assert.equal(c.figures[0]?.encryptBps, 512e4);
  assert.deepEqual(
    c.unavailable.map((u) => u.cipher),
    ['serpent-xts-plain64'],
  );
  const text = formatCipherCeilings(c);
  assert.match(text, /AES-NI: yes, VAES: no/);
  assert.match(text, /kernel crypto API \(AF_ALG\)/);
  assert.doesNotMatch(text, /estimate/);
  assert.match(text, /serpent-xts-plain64 512 bit: the kernel offers no xts\(serpent\)/);
});

test('OpenSSL figures are a user-space estimate in the model, the heading and every column', () => {
  const c = parseCipherOutput(lines('openssl', 'user-space estimate'), CPUINFO, 0.3);
  assert.equal(c.source, 'user-space-estimate');
  assert.match(c.sourceLabel, /user-space estimate/);
  const text = formatCipherCeilings(c);
  const header = text.split('\n').find((l) => l.startsWith('cipher'));
  assert.equal(header?.match(/user-space estimate/g)?.length, 2, header);
});

test('a worker error becomes a BenchError with its code and message', () => {
  const out = [
    JSON.stringify({ v: 1, type: 'error', code: 'no-cipher-backend', message: 'no way to measure ciphers here: no AF_ALG' }),
  ].join('\n');
  assert.throws(
    () => parseCipherOutput(out, null, 0.3),
    (e) => e instanceof BenchError && e.code === 'no-cipher-backend',
  );
});

test('ceilingFor: the threads asked for, the nearest sector size; null for a cipher never measured', () => {
  const c = parseCipherOutput(lines('af_alg', 'kernel'), CPUINFO, 0.3);
  assert.equal(ceilingFor(c, { cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 4096 })?.encryptBps, 4096e4);
  assert.equal(ceilingFor(c, { cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 512, threads: 2 })?.encryptBps, 512e4 * 2);
  assert.equal(ceilingFor(c, { cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 1024 })?.sectorBytes, 512);
  assert.equal(ceilingFor(c, { cipher: 'aes-xts-plain64', keyBits: 256, sectorBytes: 512 }), null);
});

test('cipherArgv: the worker gets numbers and names from the request only', () => {
  assert.deepEqual(cipherArgv({ ciphers: ['aes-xts-plain64:512'], sectors: [4096], threads: [1], windowSeconds: 1 }), [
    'ciphers',
    '--duration',
    '1',
    '--backend',
    'auto',
    '--cipher',
    'aes-xts-plain64:512',
    '--sector',
    '4096',
    '--threads',
    '1',
  ]);
});

/** One round's output with the given 64 KiB rates (MB/s) for one thread and two. */
const round = (one: number, two: number) =>
  [
    JSON.stringify({ v: 1, type: 'hello', verb: 'ciphers', backend: 'af_alg', cpus: 2 }),
    ...[
      [1, one],
      [2, two],
    ].map(([threads, mbps]) =>
      JSON.stringify({
        v: 1,
        type: 'cipher',
        backend: 'af_alg',
        cipher: 'aes-xts-plain64',
        key_bits: 512,
        kernel_name: 'xts(aes)',
        sector: 65536,
        threads,
        encrypt_bps: mbps! * 1e6,
        decrypt_bps: mbps! * 1e6,
      }),
    ),
  ].join('\n');

test('rounds: each figure the median of its windows with its interval; wide windows noisy; all threads slower than one flagged', () => {
  const quiet = combineRounds(
    [round(70, 140), round(71, 139), round(69, 141), round(70, 142), round(70.5, 138)].map((r) => parseCipherOutput(r, CPUINFO, 0.2)),
  );
  const [one, two] = quiet.figures;
  assert.equal(one!.encryptBps, 70e6);
  assert.deepEqual(one!.encryptWindows, [70e6, 71e6, 69e6, 70e6, 70.5e6]);
  assert.ok(one!.encryptCi! > 0 && one!.encryptCi! < 0.02, `interval ${one!.encryptCi}`);
  assert.equal(one!.noisy, false);
  assert.equal(two!.slowerThanOneThread, undefined);
  assert.equal(quiet.rounds, 5);
  assert.deepEqual(quiet.warnings, []);
  assert.match(formatCipherCeilings(quiet), /70 ±2 % \/ 70 ±2 %/);
  assert.match(formatCipherCeilings(quiet), /median of 5 rounds of a 0\.2 s window/);

  // The five repeats of one figure: 1,419 – 3,054 MB/s, two threads often under one.
  const busy = combineRounds(
    [round(2234, 1419), round(1419, 2100), round(3054, 1500), round(2500, 1800), round(1600, 3000)].map((r) =>
      parseCipherOutput(r, CPUINFO, 0.2),
    ),
  );
  assert.equal(busy.figures[0]!.noisy, true);
  assert.equal(busy.figures[1]!.slowerThanOneThread, true);
  assert.ok(busy.warnings.some((w) => /^noisy: 2 of 2 figures/.test(w)));
  assert.ok(
    busy.warnings.some((w) => /^slower-than-one-thread: aes-xts-plain64 512 bit, 65,536 B sectors ran slower on 2 threads/.test(w)),
  );
  assert.match(formatCipherCeilings(busy), /\[noisy, slower than 1 thread\]/);
  // Combining again (before and after a mapping) judges the pooled windows afresh, once.
  const again = combineRounds([busy, quiet]);
  assert.equal(again.figures[0]!.encryptWindows!.length, 10);
  assert.equal(again.warnings.filter((w) => w.startsWith('noisy: ')).length, 1);
});
