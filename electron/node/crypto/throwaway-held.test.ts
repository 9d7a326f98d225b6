// The throwaway mapping without root (throwaway-held.ts), as far as it runs without
// device-mapper: the helper's operands, the check that spares a password prompt on a kernel
// that cannot map, and that a refusal leaves nothing behind. The mapping itself is made in the
// dm-crypt lab (e2e/dm-crypt-lab.test.ts, as nobody through a real pkexec and polkitd).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { BenchError } from '../bench/errors.ts';
import { cryptOperands, deviceMapperMissing, holdThrowaway } from './throwaway-held.ts';
import { cannotReachCheckout, reachableCopy } from '../../../scripts/other-user.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HELPER = join(ROOT, 'native', 'build', 'diskdelta-helper');
const isRoot = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), 'dd-held-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("crypt-hold's --crypt: the helper's four operands, flags comma-joined or 'none'", () => {
  assert.equal(cryptOperands({ cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 4096, flags: [] }), 'aes-xts-plain64 512 4096 none');
  assert.equal(
    cryptOperands({ cipher: 'aes-cbc-essiv:sha256', keyBits: 256, sectorBytes: 512, flags: ['no_read_workqueue', 'same_cpu_crypt'] }),
    'aes-cbc-essiv:sha256 256 512 no_read_workqueue,same_cpu_crypt',
  );
});

test('device-mapper: loaded, or a module the kernel can load, or missing (said, with what still works)', async () => {
  const root = join(dir, 'kernel');
  mkdirSync(join(root, 'md'), { recursive: true });
  const where = { misc: join(root, 'misc'), loaded: join(root, 'dm_mod'), modules: join(root, 'md') };
  writeFileSync(where.misc, '237 loop-control\n229 fuse\n');
  assert.match(
    (await deviceMapperMissing(where)) ?? '',
    /this kernel has no device-mapper .*the cipher ceilings and the forecast still work/,
  );
  writeFileSync(join(where.modules, 'dm-mod.ko.xz'), '');
  assert.equal(await deviceMapperMissing(where), null, 'a module on disk: the kernel loads it on first use');
  rmSync(join(where.modules, 'dm-mod.ko.xz'));
  writeFileSync(where.misc, '237 loop-control\n236 device-mapper\n');
  assert.equal(await deviceMapperMissing(where), null, 'loaded');
});

test('a dismissed authentication: elevate-dismissed, and neither the test file nor the socket folder stays', async (t) => {
  if (!isRoot) return t.skip('needs root: the stand-in pkexec below stands for the real one only as root');
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pkexec'), '#!/bin/sh\nexit 126\n');
  chmodSync(join(bin, 'pkexec'), 0o755);
  const folder = join(dir, 'target');
  const runtime = join(dir, 'runtime');
  mkdirSync(folder, { recursive: true });
  mkdirSync(runtime, { recursive: true });
  const saved = { PATH: process.env.PATH, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
  process.env.PATH = `${bin}:${saved.PATH}`;
  process.env.XDG_RUNTIME_DIR = runtime;
  try {
    await assert.rejects(
      holdThrowaway({ folder, sizeBytes: 8 << 20, cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 512, flags: [], helper: HELPER }),
      (e: BenchError) =>
        e instanceof BenchError &&
        e.code === 'elevate-dismissed' &&
        /set up a throwaway dm-crypt mapping over .*\.diskdelta-/.test(e.message),
    );
    assert.deepEqual(readdirSync(folder), [], 'the test file is removed');
    assert.deepEqual(readdirSync(runtime), [], 'the socket folder is removed');
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.XDG_RUNTIME_DIR === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved.XDG_RUNTIME_DIR;
  }
});

test('as a user without --elevate the CLI says to pass it (or run as root); with it, a kernel without device-mapper is said before any prompt', async (t) => {
  if (!isRoot) return t.skip('needs root (to run the CLI as nobody)');
  const unreachable = cannotReachCheckout(ROOT);
  if (unreachable) return t.skip(unreachable);
  const folder = join(dir, 'nobody');
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  // The target is checked first (encryption-run.ts): nobody must be able to reach it.
  chmodSync(dir, 0o711);
  const bin = join(dir, 'bin-never');
  mkdirSync(bin, { recursive: true });
  const ran = join(folder, 'pkexec-ran');
  writeFileSync(join(bin, 'pkexec'), `#!/bin/sh\ntouch '${ran}'\nexit 1\n`);
  chmodSync(join(bin, 'pkexec'), 0o755);
  const cli = (extra: string[]) =>
    spawnSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        'env',
        '-i',
        `PATH=${bin}:/usr/bin:/bin`,
        `HOME=${folder}`,
        reachableCopy(process.execPath),
        join(ROOT, 'bin', 'diskdelta.js'),
        'encryption',
        '--target',
        folder,
        '--mode',
        'throwaway',
        '--no-save',
        '--tests',
        'seq1m-q8t1-read',
        ...extra,
      ],
      { encoding: 'utf8' },
    );
  const plain = cli([]);
  assert.equal(plain.status, 3, plain.stderr);
  assert.match(
    plain.stderr,
    /needs administrator rights: DiskDelta's helper can make .* \(read tests only\), or run as root[\s\S]*pass --elevate/,
  );
  if ((await deviceMapperMissing()) === null)
    return t.skip('this kernel has device-mapper: the dm-crypt lab runs the elevated path for real');
  const elevated = cli(['--elevate']);
  assert.equal(elevated.status, 3, elevated.stderr);
  assert.match(elevated.stderr, /this kernel has no device-mapper/);
  assert.deepEqual(readdirSync(folder), [], 'no pkexec asked, no test file made');
});
