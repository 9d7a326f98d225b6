// A library this user can read but not write (#23 item 8), and one on a full disk (item 14):
// the reading commands list and show it; the writing ones say why they cannot, in one line,
// never "disk I/O error … repair or move the library" or a stack trace. Both need root: to
// run the commands as `nobody`, and to mount a small tmpfs and fill it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));
const FIO = fileURLToPath(new URL('../../node/formats/fixtures/fio-3.33-json.json', import.meta.url));
import { cannotReachCheckout, reachableCopy } from '../../../scripts/other-user.ts';

const isRoot = process.getuid?.() === 0;
const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => existsSync(p));

function cli(args: string[], asNobody = false) {
  const argv = asNobody
    ? [runuser as string, '-u', 'nobody', '--', reachableCopy(process.execPath), CLI, ...args]
    : [process.execPath, CLI, ...args];
  const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

function assertOneLine(err: string, what: RegExp) {
  assert.match(err, what);
  assert.doesNotMatch(err, /\n\s+at |node:internal|file:\/\//, 'no stack trace');
}

test(
  'a library this user may only read: list, show, compare, export work; writes say why not',
  { skip: !isRoot ? 'needs root (to run the commands as nobody)' : !runuser ? 'no runuser here' : cannotReachCheckout(CLI) },
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-ro-lib-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    chmodSync(dir, 0o755);
    const db = join(dir, 'lib', 'library.sqlite');
    assert.equal(cli(['import', FIO, '--db', db]).status, 0);
    chmodSync(join(dir, 'lib'), 0o755); // nobody may read the folder and file, not write them
    chmodSync(db, 0o644);
    const list = cli(['list', '--db', db], true);
    assert.equal(list.status, 0, list.err);
    assert.match(list.out, /fio seq1m-q8-read/);
    const show = cli(['show', '1', '--db', db], true);
    assert.equal(show.status, 0, show.err);
    assert.match(show.out, /seq1m-q8t1-read/);
    assert.equal(cli(['compare', '1', '1', '--db', db], true).status, 0);
    const exported = cli(['export', '1', '--db', db], true);
    assert.equal(exported.status, 0, exported.err);
    assert.match(exported.out, /"diskdelta-results"/);
    const label = cli(['label', '1', 'x', '--db', db], true);
    assert.equal(label.status, 1);
    assertOneLine(label.err, /cannot be written by this user.*(--db|owner)/);
    const imported = cli(['import', FIO, '--db', db], true);
    assert.equal(imported.status, 1);
    assertOneLine(imported.err, /cannot be written by this user/);
  },
);

test('a library on a full disk: reads work, writes say the disk is full', { skip: isRoot ? false : 'needs root (mounts a tmpfs)' }, (t) => {
  const mount = mkdtempSync(join(tmpdir(), 'dd-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
  if (mounted.status !== 0) {
    rmSync(mount, { recursive: true, force: true });
    t.skip(`cannot mount a tmpfs here: ${mounted.stderr.toString().trim()}`);
    return;
  }
  t.after(() => {
    spawnSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });
  const db = join(mount, 'library.sqlite');
  assert.equal(cli(['import', FIO, '--db', db]).status, 0);
  // Fill what is left, as a full disk is: the library's WAL index (-shm) cannot be made.
  mkdirSync(join(mount, 'fill'));
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(mount, 'fill', String(i)), Buffer.alloc(4096));
    } catch {
      break;
    }
  }
  const list = cli(['list', '--db', db]);
  assert.equal(list.status, 0, list.err);
  assert.match(list.out, /fio seq1m-q8-read/);
  assert.equal(cli(['show', '1', '--db', db]).status, 0);
  const label = cli(['label', '1', 'x', '--db', db]);
  assert.equal(label.status, 1);
  assertOneLine(label.err, /disk .*is full/);
  assert.doesNotMatch(label.err, /I\/O error|repair/);
  const run = cli(['run', '--target', tmpdir(), '--tests', 'seq1m-q1t1-read', '--db', db]);
  assert.equal(run.status, 1);
  assertOneLine(run.err, /disk .*is full.*free some space/);
  assert.doesNotMatch(run.err, /I\/O error|repair/);
});
