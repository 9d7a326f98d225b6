// Input paths the user names are read only when they are regular files (#38 item 6): a FIFO
// given as `run --tarball` waited in open(2) for a writer, with no message, until killed. Each
// command here is bounded by the test's timeout: the old code never returned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli-in-process.ts';

function fifoIn(t: { after(fn: () => void): void }, name: string): { dir: string; fifo: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dd-input-fifo-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const fifo = join(dir, name);
  execFileSync('mkfifo', [fifo]);
  return { dir, fifo };
}

test('run --tarball FIFO: refused at once with what it is (exit 2), nothing left in the target', { timeout: 60_000 }, async (t) => {
  const { dir, fifo } = fifoIn(t, 'src.tar');
  const target = mkdtempSync(join(dir, 'target-'));
  const r = await runCli(['run', '--target', target, '--tarball', fifo, '--no-save']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /cannot use the tarball .*src\.tar: it is a FIFO \(named pipe\), not a regular file: give a \.tar, \.tar\.gz or \.tar\.xz file/,
  );
  assert.deepEqual(readdirSync(target), []);
});

test('fleet run --hosts FIFO: refused at once with what it is (exit 2)', { timeout: 60_000 }, async (t) => {
  const { fifo } = fifoIn(t, 'hosts.txt');
  const r = await runCli(['fleet', 'run', '--hosts', fifo, '--folder', '/var/tmp', '--no-save']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /cannot read the hosts file .*hosts\.txt: .*hosts\.txt is a FIFO \(named pipe\), not a regular file: it was not read/,
  );
});

test('import FIFO: refused at once with what it is', { timeout: 60_000 }, async (t) => {
  const { dir, fifo } = fifoIn(t, 'result.json');
  const r = await runCli(['import', fifo, '--db', join(dir, 'lib.sqlite')]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /a FIFO \(named pipe\), not a file/);
});
