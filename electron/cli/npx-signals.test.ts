// Signals through `npx diskdelta` (the README's way to run it), issue #40 item 6: real `npx`
// processes, a real run on the disk under the temp folder. npm runs the command through
// `sh -c` and passes a SIGINT it gets to that shell only, which (dash) catches it and waits: a
// `kill -INT` of the npx process alone used to leave DiskDelta measuring and saving the run.
// Both a SIGINT to npx alone and one to the whole group (a terminal's Ctrl-C) must stop the
// run: its test file removed, nothing saved, every process of the group gone. (npx itself then
// ends of the SIGINT, 130 to a shell: npm re-raises it whatever its child's status; the
// documented 7 is DiskDelta's own, docs/terminal-output-and-signals.md.)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const npxMissing = spawnSync('npx', ['--version'], { encoding: 'utf8' }).status === 0 ? null : 'npx (npm) is not on the PATH';

/** Pids of the processes still in process group `pgid`. */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(what: string, seconds: number, done: () => boolean): Promise<void> {
  for (const end = Date.now() + seconds * 1000; !done();) {
    if (Date.now() > end) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopMidRun(to: 'npx' | 'group') {
  const dir = mkdtempSync(join(tmpdir(), 'dd-npx-sig-'));
  const target = join(dir, 'target');
  spawnSync('mkdir', [target]);
  const db = join(dir, 'library.sqlite');
  // Its own group, as a terminal's foreground job is; signal dispositions reset to the default.
  const npx = spawn(
    'npx',
    [
      'diskdelta',
      'run',
      '--target',
      target,
      '--tests',
      'seq1m-q1t1-read,rnd4k-q1t1-read',
      '--size',
      '64MiB',
      '--runs',
      '3',
      '--duration',
      '3',
      '--db',
      db,
    ],
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  npx.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  npx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npx.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const testFiles = () => readdirSync(target).filter((name) => name.startsWith('.diskdelta-'));
  try {
    // The measuring has begun once the worker's test file exists (after any wait for the disk).
    await until('the run starting to measure', 150, () => testFiles().length > 0 || npx.exitCode !== null);
    assert.equal(npx.exitCode, null, `npx ended before it measured: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    process.kill(to === 'npx' ? npx.pid! : -npx.pid!, 'SIGINT');
    const end = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000))]);
    assert.ok(end, 'npx ended within 30 s of the SIGINT');
    await until('every process of the group ending', 15, () => groupMembers(npx.pid!).length === 0);
    return { end, stdout, stderr, left: testFiles() };
  } finally {
    if (groupMembers(npx.pid!).length > 0) process.kill(-npx.pid!, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('signals through npx', { skip: npxMissing ?? false }, () => {
  for (const to of ['npx', 'group'] as const) {
    it(
      `a SIGINT to ${to === 'npx' ? 'the npx process alone' : "npx's process group (Ctrl-C)"} stops the run: nothing saved, its test file removed`,
      { timeout: 240_000 },
      async () => {
        const { end, stdout, stderr, left } = await stopMidRun(to);
        assert.match(stderr, /diskdelta run: the run was cancelled; its test file was removed/);
        assert.doesNotMatch(stdout, /saved as run/);
        assert.deepEqual(left, [], 'the test file is removed');
        // npm re-raises the SIGINT on itself once its child is done: npx ends of it.
        assert.equal(end.signal ?? end.code, end.signal ? 'SIGINT' : 130);
      },
    );
  }
});

describe('a DiskDelta another program starts under npx', { skip: npxMissing ?? false }, () => {
  it('is that program’s child, not npm’s: the ancestor watch leaves it alone (every serve a test runner’s worker started under npx was stopped)', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'dd-npx-child-')), 'library.sqlite');
    // npx runs node, which runs `diskdelta serve` and reports after 3 s whether it still runs;
    // meanwhile it wakes every 50 ms, as a busy parent does (a test runner's worker).
    const script = `const { spawn } = require('node:child_process');
      const serve = spawn(process.execPath, [${JSON.stringify(join(ROOT, 'bin', 'diskdelta.js'))}, 'serve', '--db', ${JSON.stringify(db)}], { stdio: 'ignore' });
      let ended = null; serve.on('exit', (code, signal) => (ended = signal ?? code));
      const busy = setInterval(() => {}, 50);
      setTimeout(() => { console.log(ended === null ? 'running' : 'ended ' + ended); serve.kill('SIGTERM'); clearInterval(busy); }, 3000);`;
    const r = spawnSync('npx', ['--no-install', 'node', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    rmSync(join(db, '..'), { recursive: true, force: true });
    assert.equal(r.stdout.trim(), 'running', r.stderr);
  });
});
