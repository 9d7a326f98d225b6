// The virtual filesystems the app refuses before any kind of test (virtual-fs.ts) are the ones
// the worker refuses (virtual_fs_name in native/src/fs-kinds.c): two lists, so a test holds them
// equal. The C side names its magic numbers by <linux/magic.h> macros, so the compiler says
// what each one is.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VIRTUAL_FS, virtualFsOf } from './virtual-fs.ts';
import { checkTarget } from '../bench/target-check.ts';
import { skipWarnings } from '../bench/kinds/working-set.ts';

const FS_KINDS_C = fileURLToPath(new URL('../../../native/src/fs-kinds.c', import.meta.url));

test("the app's virtual filesystems are the worker's, magic number by magic number", (t) => {
  const source = readFileSync(FS_KINDS_C, 'utf8');
  const body = /virtual_fs_name\(long type\) \{([\s\S]*?)\n\}/.exec(source)?.[1];
  assert.ok(body, 'virtual_fs_name() found in fs-kinds.c');
  const cases = [...body.matchAll(/case ([A-Za-z0-9_]+): return "([^"]+)";/g)].map(([, value, name]) => ({ value: value!, name: name! }));
  assert.equal(cases.length, body.match(/\bcase\b/g)?.length, 'every case of virtual_fs_name() read');
  const dir = mkdtempSync(join(tmpdir(), 'dd-virtual-fs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'print.c'),
    `#include <stdio.h>\n#include <linux/magic.h>\nint main(void) {\n${cases
      .map(({ value, name }) => `  printf("%lx ${name}\\n", (unsigned long)(${value}));`)
      .join('\n')}\n  return 0;\n}\n`,
  );
  const cc = process.env.CC ?? 'cc';
  const built = spawnSync(cc, ['-o', join(dir, 'print'), join(dir, 'print.c')], { encoding: 'utf8' });
  if (built.error) return t.skip(`no C compiler (${cc}): ${built.error.message}`);
  assert.equal(built.status, 0, built.stderr);
  const worker = spawnSync(join(dir, 'print'), { encoding: 'utf8' }).stdout.trim().split('\n').sort();
  const app = [...VIRTUAL_FS].map(([magic, name]) => `${magic.toString(16)} ${name}`).sort();
  assert.deepEqual(app, worker);
});

test('/dev (devtmpfs, which statfs calls tmpfs) is a virtual filesystem too; /dev/shm (tmpfs) is not one', async (t) => {
  const mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
  if (!/ \/dev [^\n]* - devtmpfs /.test(mountinfo)) return t.skip('/dev is not a devtmpfs mount here');
  assert.equal(await virtualFsOf('/dev'), 'devtmpfs');
  assert.equal(await virtualFsOf('/dev/shm'), null);
  // The working-set scan's check (read-only targets): refused with the virtual filesystem's words.
  await assert.rejects(checkTarget('/dev', { readOnly: true }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'target-virtual-fs');
    assert.match(e.message, /^\/dev is on devtmpfs, a virtual filesystem the kernel makes up: there is no disk under it/);
    return true;
  });
});

test('a scan of / names /dev among the virtual filesystems, not as another filesystem to scan on its own', () => {
  const mountinfo = [
    '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
    '23 22 0:5 / /dev rw,nosuid shared:2 - devtmpfs udev rw,size=4096k',
    '24 22 0:22 / /proc rw,nosuid shared:3 - proc proc rw',
  ].join('\n');
  const skip = (path: string, mnt_id: number) => ({ v: 1, type: 'scan-skip', path, reason: 'other-mount', mnt_id }) as const;
  const warnings = skipWarnings('/', [skip('dev', 23), skip('proc', 24)], mountinfo);
  assert.deepEqual(
    warnings.map((w) => w.code),
    ['scan-virtual-fs'],
  );
  assert.match(warnings[0]!.message, /2 folders are virtual filesystems .*\/dev \(devtmpfs\), \/proc \(proc\)/);
});
