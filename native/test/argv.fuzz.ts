// Fuzzing the worker's command line (its option table and --job parser) through the real
// binary: random mixes of real option names, boundary values and junk. Every argv must end in a
// documented exit code with protocol JSON on stdout and no sanitizer report, and never start I/O:
// a last `--target` that does not exist makes every accepted command line stop at the target check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parseWorkerLine } from '../../electron/node/bench/worker-protocol.ts';

const BUILD = fileURLToPath(new URL('../build/', import.meta.url));
/** The sanitizer build when it exists (`make -C native sanitize`), else the shipped one. */
export const FUZZ_WORKER =
  process.env.DISKDELTA_WORKER ??
  (existsSync(join(BUILD, 'diskdelta-worker-asan')) ? join(BUILD, 'diskdelta-worker-asan') : join(BUILD, 'diskdelta-worker'));
const MISSING_TARGET = '/nonexistent-diskdelta-fuzz/target';

const OPTIONS = [
  '--target',
  '--size',
  '--duration',
  '--warmup',
  '--runs',
  '--sample-ms',
  '--job',
  '--engine',
  '--buffered',
  '--file',
  '--seed',
];
const VERBS = ['run', 'prepare', 'cleanup', 'frobnicate', '', '--help', '--version'];
const numbers = [
  '0',
  '1',
  '-1',
  '49',
  '50',
  '512',
  '1048576',
  '4096',
  '1e3',
  '0x10',
  '18446744073709551615',
  '18446744073709551616',
  '3600.0001',
  'nan',
  'inf',
  ' 5',
  '5 ',
  '1125899906842624',
  '99999999999999999999999',
];
const jobParts = [
  'name=a',
  'name=',
  'name=A B',
  `name=${'n'.repeat(70)}`,
  'rw=read',
  'rw=write',
  'rw=seeks',
  'rw=randrw',
  'rw=',
  'rw=x',
  'bs=512',
  'bs=513',
  'bs=67108864',
  'bs=67109376',
  'qd=0',
  'qd=1024',
  'qd=1025',
  'threads=64',
  'threads=65',
  'read=101',
  'read=-1',
  '=',
  ',',
  'bs',
  'unknown=1',
];

const value = fc.oneof(
  fc.constantFrom(...numbers),
  fc.array(fc.constantFrom(...jobParts), { maxLength: 8 }).map((parts) => parts.join(',')),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('aio', 'psync', 'io_uring', '/tmp', '/dev/null', MISSING_TARGET),
);
const argvArb = fc
  .tuple(fc.constantFrom(...VERBS), fc.array(fc.oneof(fc.constantFrom(...OPTIONS), value), { maxLength: 14 }))
  .map(([verb, rest]) => [verb, ...rest.filter((a) => !a.includes('\0')), '--target', MISSING_TARGET]);

const DOCUMENTED = new Set([0, 2, 3]); // ok (help/version), usage, target unusable: nothing else can happen before I/O

export const workerArgv = fc.property(argvArb, (argv) => {
  const r = spawnSync(FUZZ_WORKER, argv, {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0' },
  });
  const shown = JSON.stringify(argv);
  assert.equal(r.signal, null, `killed by ${r.signal}: ${shown}\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /AddressSanitizer|LeakSanitizer|runtime error:/, `sanitizer report for ${shown}`);
  assert.ok(DOCUMENTED.has(r.status ?? -1), `exit ${r.status} for ${shown}: ${r.stderr.slice(0, 300)}`);
  if (argv[0] === '--help' || argv[0] === '--version') return;
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  for (const line of lines) assert.ok(!('invalid' in parseWorkerLine(line)), `not protocol JSON for ${shown}: ${line.slice(0, 200)}`);
  const last = lines.at(-1);
  assert.ok(last, `no output for ${shown}`);
  const done = parseWorkerLine(last);
  assert.ok(
    !('invalid' in done) && done.type === 'done' && done.exit_code === r.status,
    `last line is done with the exit code for ${shown}`,
  );
});
