// The worker's `ciphers` verb on this machine: one backend per run, every line labelled with
// it, OpenSSL only as a labelled user-space estimate, clear errors. Whether AF_ALG is here
// decides which branch runs; the dm-crypt lab (e2e/dm-crypt-lab.test.ts) checks the kernel
// figures against `cryptsetup benchmark`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const WORKER = join(fileURLToPath(new URL('..', import.meta.url)), 'build', 'diskdelta-worker');

interface Line {
  type: string;
  [k: string]: unknown;
}

function ciphers(args: string[]) {
  const r = spawnSync(WORKER, ['ciphers', ...args], { encoding: 'utf8' });
  const lines = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const j = JSON.parse(l) as Line & { v: number };
      assert.equal(j.v, 1, `protocol version on ${l}`);
      return j;
    });
  return { code: r.status, lines, stderr: r.stderr };
}

const QUICK = [
  '--cipher',
  'aes-xts-plain64:512',
  '--cipher',
  'serpent-xts-plain64:512',
  '--sector',
  '4096',
  '--threads',
  '1',
  '--duration',
  '0.05',
];

test('--backend openssl: every figure is labelled a user-space estimate; what OpenSSL lacks is named, not measured', (t) => {
  const r = ciphers(['--backend', 'openssl', ...QUICK]);
  if (r.code === 3 && /libcrypto/.test(r.stderr)) return t.skip('OpenSSL libcrypto is not installed (Debian libssl3)');
  assert.equal(r.code, 0, r.stderr);
  const hello = r.lines.find((l) => l.type === 'hello');
  assert.equal(hello?.['backend'], 'openssl');
  assert.equal(hello?.['label'], 'user-space estimate');
  const figures = r.lines.filter((l) => l.type === 'cipher');
  const aes = figures.find((l) => l['cipher'] === 'aes-xts-plain64');
  assert.ok(aes, 'aes-xts-plain64 measured');
  assert.equal(aes['sector'], 4096);
  assert.equal(aes['threads'], 1);
  assert.ok((aes['encrypt_bps'] as number) > 0 && (aes['decrypt_bps'] as number) > 0, JSON.stringify(aes));
  for (const f of figures) assert.equal(f['label'], 'user-space estimate', JSON.stringify(f));
  const serpent = figures.find((l) => l['cipher'] === 'serpent-xts-plain64');
  assert.match(String(serpent?.['unavailable']), /OpenSSL has no serpent/);
  assert.equal(serpent?.['encrypt_bps'], undefined);
});

test('auto: one backend for the whole run — AF_ALG where the kernel has it, else OpenSSL with a warning saying why', (t) => {
  const r = ciphers(QUICK);
  if (r.code === 3) return t.skip(`no backend at all here: ${r.stderr.trim()}`);
  assert.equal(r.code, 0, r.stderr);
  const hello = r.lines.find((l) => l.type === 'hello');
  const backends = new Set(r.lines.filter((l) => l.type === 'cipher').map((l) => l['backend']));
  assert.deepEqual([...backends], [hello?.['backend']], 'never mixed');
  const warning = r.lines.find((l) => l.type === 'warning' && l['code'] === 'af-alg-unavailable');
  if (hello?.['backend'] === 'openssl') assert.match(String(warning?.['message']), /AF_ALG.*user-space estimate/);
  else assert.equal(warning, undefined);
});

test('--backend af_alg on a kernel without AF_ALG: exit 3, the message names what is missing and what to use', (t) => {
  const r = ciphers(['--backend', 'af_alg', ...QUICK]);
  if (r.code === 0) return t.skip('this kernel has AF_ALG; the missing-AF_ALG message is checked where it is missing');
  assert.equal(r.code, 3);
  const error = r.lines.find((l) => l.type === 'error');
  assert.equal(error?.['code'], 'no-cipher-backend');
  assert.match(String(error?.['message']), /no AF_ALG.*CONFIG_CRYPTO_USER_API_SKCIPHER/);
});

test('bad options: exit 2, the message names the value, nothing measured', () => {
  for (const [args, pattern] of [
    [['--sector', '1000'], /--sector.*'1000'/],
    [['--cipher', 'rot13:8'], /--cipher.*'rot13:8'/],
    [['--threads', '0'], /--threads.*'0'/],
    [['--duration', '-1'], /--duration/],
    [['--backend', 'gpu'], /--backend.*'gpu'/],
    [['--rekey', 'x'], /--rekey.*'x'/],
    [['--rekey', '-1'], /--rekey.*'-1'/],
    [['--bogus', 'x'], /unknown option.*--bogus/],
  ] as const) {
    const r = ciphers([...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(String(r.lines.find((l) => l.type === 'error')?.['message']), pattern);
    assert.equal(r.lines.filter((l) => l.type === 'cipher').length, 0);
  }
});

test('--rekey: a figure measured with a new transform every N bytes says so; without it, none does', (t) => {
  const plain = ciphers(QUICK);
  if (plain.code === 3) return t.skip(`no backend at all here: ${plain.stderr.trim()}`);
  const rekeyed = ciphers([...QUICK, '--rekey', '1048576']);
  assert.equal(rekeyed.code, 0, rekeyed.stderr);
  const aes = (r: typeof plain) => r.lines.find((l) => l.type === 'cipher' && l['cipher'] === 'aes-xts-plain64');
  assert.equal(aes(rekeyed)?.['rekey_bytes'], 1048576, JSON.stringify(aes(rekeyed)));
  assert.ok((aes(rekeyed)?.['encrypt_bps'] as number) > 0 && (aes(rekeyed)?.['decrypt_bps'] as number) > 0);
  assert.equal(aes(plain)?.['rekey_bytes'], undefined, "the product's figure: keyed once");
});

test('--help lists the ciphers verb and every cipher it knows', () => {
  const r = spawnSync(WORKER, ['--help'], { encoding: 'utf8' });
  for (const name of [
    'ciphers',
    'aes-xts-plain64:256',
    'aes-xts-plain64:512',
    'aes-cbc-essiv:sha256:256',
    'serpent-xts-plain64:512',
    'twofish-xts-plain64:512',
    'adiantum',
  ]) {
    assert.ok(r.stdout.includes(name), name);
  }
});
