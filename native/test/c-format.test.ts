// The worker's printf-style functions take literal formats the compiler checks against their
// arguments: a format built at run time (usage_error(fmt, a, b) once) hides a wrong argument
// from -Wformat until it prints garbage or crashes. -Wformat=2 adds -Wformat-nonliteral.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

test('main.c passes -Wformat=2 -Werror: every format is a checked literal', (t) => {
  const cc = process.env.CC ?? 'cc';
  const args = ['-fsyntax-only', '-std=c11', '-D_GNU_SOURCE', '-Wformat=2', '-Werror', join(SRC, 'main.c')];
  const r = spawnSync(cc, args, { encoding: 'utf8' });
  if (r.error) return t.skip(`no C compiler (${cc}): ${r.error.message}`);
  assert.equal(r.status, 0, r.stderr);
});
