// Issue #38 item 1: a fleet run must never write through a path someone else placed on the host.
// A root `fio --server` on 127.0.0.21 (started here, killed in after()), a folder of group
// nogroup that `nobody` may write in, and a root-owned 0600 file of 20 MiB elsewhere whose
// content must be the same after the run. `nobody` places symbolic links to it at the fixed
// name the fleet used before (diskdelta-fleet.fio.tmp) and at 256 guesses of the new name's
// shape; in a sticky folder it also races the run, trying to swap the run's file for a link
// the moment it appears. Needs root (to be the server's user and to act as nobody) and fio.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRESETS } from '../../../shared/catalog/presets.ts';
import { parseHostsFile } from './hosts.ts';
import { runFleet } from './fleet-run.ts';
import { startFioServer, type FioServer } from './fixtures/fio-servers.ts';

const NOBODY = 65534;
const OLD_FIXED_NAME = 'diskdelta-fleet.fio.tmp';
const isRoot = process.getuid?.() === 0;
const hasFio = spawnSync('fio', ['--version']).status === 0;
const reason = !isRoot ? 'needs root: the fio server runs as root and the attacker as nobody' : !hasFio ? 'fio missing' : null;

const base = mkdtempSync(join(tmpdir(), 'dd-fleet-symlink-'));
const secret = join(base, 'secret');
const victim = join(secret, 'target');
const port = 30_000 + (process.pid % 10_000);
let server: FioServer | null = null;

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Runs argv as nobody (uid and gid 65534, no other group); its exit status. */
function asNobody(argv: string[]): number | null {
  return spawnSync(argv[0]!, argv.slice(1), { uid: NOBODY, gid: NOBODY, stdio: 'ignore', timeout: 30_000 }).status;
}

/** A folder of group nogroup, writable by that group, sticky or not; nobody is its attacker. */
function sharedFolder(name: string, mode: number): string {
  const folder = join(base, name);
  mkdirSync(folder);
  chownSync(folder, 0, NOBODY);
  chmodSync(folder, mode);
  return folder;
}

/** nobody's links to the victim: the old fixed name and 256 names of the new shape. */
function plantLinks(folder: string): string[] {
  const names = [OLD_FIXED_NAME, ...Array.from({ length: 256 }, () => `.diskdelta-fleet-${randomBytes(16).toString('hex')}.tmp`)];
  for (const name of names) assert.equal(asNobody(['ln', '-s', victim, join(folder, name)]), 0, `nobody links ${name}`);
  return names.sort();
}

function assertLinksUntouched(folder: string, planted: string[]): void {
  assert.deepEqual(readdirSync(folder).sort(), planted, 'only nobody’s links are left: the run’s own file is removed, no link of nobody’s');
  for (const name of planted) {
    assert.ok(lstatSync(join(folder, name)).isSymbolicLink(), name);
    assert.equal(readlinkSync(join(folder, name)), victim);
  }
}

async function fleetOn(folder: string) {
  const hosts = parseHostsFile(`${server!.line}\n`, 'hosts');
  return runFleet({ hosts, preset: PRESETS.quick, folder, sizeBytes: 16 * 2 ** 20, durationSec: 0.3 });
}

before(() => {
  if (reason) return;
  chmodSync(base, 0o755); // nobody must reach the shared folders inside
  mkdirSync(secret, { mode: 0o700 });
  writeFileSync(victim, randomBytes(20 * 2 ** 20), { mode: 0o600 });
  server = startFioServer('127.0.0.21', port, secret);
});

after(() => {
  server?.stop();
  rmSync(base, { recursive: true, force: true });
});

describe('fleet run against a root fio server, with nobody’s links in the folder', () => {
  it('in a group-writable, non-sticky folder, links at the old name and at guesses of the new one are neither followed nor removed', async (t) => {
    if (reason) return t.skip(reason);
    const folder = sharedFolder('group-writable', 0o775);
    const planted = plantLinks(folder);
    const before = sha256(victim);
    const result = await fleetOn(folder);
    assert.deepEqual(result.problems, []);
    assert.equal(result.runs.length, 1, 'the run measured its own file');
    assert.ok(result.runs[0]!.results.every((r) => (r.bytesPerSec ?? 0) > 0));
    assert.equal(sha256(victim), before, 'the root-owned file is unchanged');
    assert.equal(lstatSync(victim).mode & 0o777, 0o600);
    assertLinksUntouched(folder, planted);
  });

  it('in a sticky group-writable folder, nobody racing to swap the run’s file for a link is refused by the kernel', async (t) => {
    if (reason) return t.skip(reason);
    const folder = sharedFolder('sticky', 0o1775);
    const planted = plantLinks(folder);
    const before = sha256(victim);
    const stop = join(base, 'stop-racer');
    // For every regular file of the fleet's shape (the run's own: nobody's are links), move it
    // away and put a link in its place. The sticky bit lets only its owner (root) do that.
    const racer = spawn(
      'sh',
      [
        '-c',
        `end=$(( $(date +%s) + 120 )); refused=0; won=0
         while [ ! -e "$1" ] && [ "$(date +%s)" -lt "$end" ]; do
           for f in "$2"/.diskdelta-fleet-*.tmp; do
             [ -f "$f" ] && [ ! -L "$f" ] || continue
             if mv -f "$f" "$f.stolen" 2>/dev/null; then ln -s "$3" "$f"; won=$((won+1)); else refused=$((refused+1)); fi
           done
           sleep 0.01
         done
         echo "$refused $won"`,
        'racer',
        stop,
        folder,
        victim,
      ],
      { uid: NOBODY, gid: NOBODY, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let said = '';
    racer.stdout.setEncoding('utf8').on('data', (d: string) => (said += d));
    const racerDone = new Promise<void>((resolve) => racer.on('close', () => resolve()));
    try {
      const result = await fleetOn(folder);
      assert.deepEqual(result.problems, []);
      assert.equal(result.runs.length, 1);
    } finally {
      writeFileSync(stop, ''); // in base, which nobody may search: the racer sees that it exists
      await racerDone;
    }
    const [refused, won] = said.trim().split(' ').map(Number);
    console.log(`racer: ${refused} swaps of the run's file refused, ${won} done`);
    assert.equal(won, 0, 'no swap succeeded');
    assert.ok((refused ?? 0) > 0, 'the racer saw the run’s file and tried');
    assert.equal(sha256(victim), before, 'the root-owned file is unchanged');
    assertLinksUntouched(folder, planted);
  });
});
