// Builds native/test/without-syscalls.c (a seccomp wrapper: a kernel without io_uring or
// kernel AIO, for one process tree) with the C compiler the worker is built with.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('without-syscalls.c', import.meta.url));

/** The helper's path, or why it could not be built. */
export function buildWithoutSyscalls(): { path: string } | { reason: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'diskdelta-without-syscalls-')), 'without-syscalls');
  const cc = spawnSync(process.env.CC ?? 'cc', ['-O2', '-Wall', '-o', path, SOURCE], { encoding: 'utf8' });
  if (cc.error || cc.status !== 0) return { reason: `cannot build the seccomp helper: ${cc.error?.message ?? cc.stderr.trim()}` };
  return { path };
}
