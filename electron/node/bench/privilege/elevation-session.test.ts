// One authentication per device per session: the holder runs pkexec once, and every later run
// on the device measures on the descriptor it serves. A stand-in pkexec (a script first on the
// PATH that counts its calls, then runs the helper as root) replaces polkit here; the real
// pkexec is in e2e/polkit-lab.test.ts. Needs root (the helper runs as root) and a loop device.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BenchError } from '../errors.ts';
import { ElevationSessions } from './elevation-session.ts';
import { runBenchmark } from '../orchestrator.ts';

const HELPER = fileURLToPath(new URL('../../../../native/build/diskdelta-helper', import.meta.url));
const isRoot = process.getuid?.() === 0;
let dir = '';
let loop = '';
let calls = '';
const saved = { PATH: process.env.PATH, DISKDELTA_HELPER: process.env.DISKDELTA_HELPER };

function usePkexec(body: string) {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pkexec'), `#!/bin/sh\necho call >> '${calls}'\n${body}\n`);
  chmodSync(join(bin, 'pkexec'), 0o755);
  process.env.PATH = `${bin}:/usr/bin:/bin`;
}
const callCount = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'diskdelta-session-test-'));
  calls = join(dir, 'calls');
  if (!isRoot) return;
  writeFileSync(join(dir, 'disk.img'), Buffer.alloc(32 * 2 ** 20, 5));
  const l = spawnSync('losetup', ['-f', '--show', join(dir, 'disk.img')], { encoding: 'utf8' });
  if (l.status === 0) loop = l.stdout.trim();
  process.env.DISKDELTA_HELPER = HELPER;
});

after(() => {
  process.env.PATH = saved.PATH;
  if (saved.DISKDELTA_HELPER === undefined) delete process.env.DISKDELTA_HELPER;
  else process.env.DISKDELTA_HELPER = saved.DISKDELTA_HELPER;
  if (loop) spawnSync('losetup', ['-d', loop]);
  rmSync(dir, { recursive: true, force: true });
});

const spec = () => ({
  target: loop,
  tests: ['seq1m-q8t1-read' as const],
  sizeBytes: 16 * 2 ** 20,
  durationSec: 0.3,
  warmupSec: 0,
  runs: 1,
});

test('two runs on one device: pkexec is asked once, both measure on the held descriptor', { timeout: 60_000 }, async (t) => {
  if (!isRoot || !loop) return t.skip('needs root (the helper runs as root) and a loop device');
  usePkexec('exec "$@"');
  const sessions = new ElevationSessions();
  try {
    const { socket, warnings } = await sessions.socketFor(loop);
    assert.deepEqual(warnings, []);
    assert.equal((await sessions.socketFor(loop)).socket, socket, 'the same holder serves the second request');
    for (let i = 0; i < 2; i++) {
      const record = await runBenchmark(spec(), { fdFrom: socket });
      assert.equal(record.target.kind, 'block-device');
      assert.ok((record.results[0]?.bytesPerSec ?? 0) > 0, `run ${i + 1} measured`);
    }
    assert.equal(callCount(), 1, 'one authentication for the session');
    assert.equal(sessions.heldCount, 1);
    sessions.closeAll();
    for (let i = 0; i < 50 && existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(existsSync(socket), false, 'closing the session removes the socket');
    await assert.rejects(runBenchmark(spec(), { fdFrom: socket }), (e: BenchError) => e.code === 'holder-gone');
  } finally {
    sessions.closeAll();
  }
});

test('a refused authentication is not kept: the error names it, and the next run asks again', { timeout: 60_000 }, async (t) => {
  if (!isRoot || !loop) return t.skip('needs root and a loop device');
  rmSync(calls, { force: true });
  usePkexec('echo "Error executing command as another user: Not authorized" >&2; exit 127');
  const sessions = new ElevationSessions();
  try {
    await assert.rejects(
      sessions.socketFor(loop),
      (e: BenchError) => e.code === 'elevate-denied' && /polkit did not authorise/.test(e.message),
    );
    assert.equal(sessions.heldCount, 0);
    await assert.rejects(sessions.socketFor(loop), (e: BenchError) => e.code === 'elevate-denied');
    assert.equal(callCount(), 2);
  } finally {
    sessions.closeAll();
  }
});
