// Building the worker the ways packagers and tests do: with the user's own CFLAGS/LDFLAGS on the
// command line (which replace a Makefile's `CFLAGS +=`), and job.c's help text in a buffer too
// small for it, under AddressSanitizer (an overrun is a report and a non-zero exit).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';

const NATIVE = fileURLToPath(new URL('..', import.meta.url));
const build = mkdtempSync(join(tmpdir(), 'dd-build-'));
after(() => rmSync(build, { recursive: true, force: true }));

test('make -C native CFLAGS="-O2 -g" LDFLAGS="" builds the worker and the helper (the flags the code needs stay)', () => {
  const make = spawnSync(
    'make',
    [
      '-s',
      '-j2',
      '-C',
      NATIVE,
      `BUILD=${build}`,
      'CFLAGS=-O2 -g',
      'LDFLAGS=',
      join(build, 'diskdelta-worker'),
      join(build, 'diskdelta-helper'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(make.status, 0, make.stderr);
  for (const binary of ['diskdelta-worker', 'diskdelta-helper']) {
    const version = spawnSync(join(build, binary), ['--version'], { encoding: 'utf8' });
    assert.match(version.stdout, new RegExp(`^${binary} \\d+\\.\\d+\\.\\d+`), `${binary} runs`);
  }
});

// (Cut at different places: where a cut falls decides whether the next write lands in ASan's red zone.)
for (const cap of [100, 200, 600]) {
  test(`job_keys_help() in a ${cap}-byte buffer, too small for it: the text is cut at the buffer's end, never written past it`, () => {
    const exe = join(build, `job-keys-help-cut-${cap}`);
    const cc = spawnSync(
      'cc',
      [
        '-std=c11',
        '-D_GNU_SOURCE',
        `-DJOB_KEYS_HELP_BYTES=${cap}`,
        '-g',
        '-fsanitize=address,undefined',
        '-fno-sanitize-recover=undefined',
        `-I${join(NATIVE, 'src')}`,
        '-o',
        exe,
        join(NATIVE, 'test', 'job-keys-help-cut.c'),
        join(NATIVE, 'src', 'job.c'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(cc.status, 0, cc.stderr);
    const cut = spawnSync(exe, [], { encoding: 'utf8' });
    assert.equal(cut.status, 0, cut.stderr);
    const whole = spawnSync(join(NATIVE, 'build', 'diskdelta-worker'), ['--help'], { encoding: 'utf8' }).stdout;
    assert.equal(Buffer.byteLength(cut.stdout), cap - 1, 'filled to the last byte but the terminator');
    assert.ok(whole.includes(cut.stdout), 'what is there is the start of the real text');
  });
}
