// What the worker writes and removes when someone else shares the target folder, or when it is
// killed: a root tarball run steered by renames and symlinks, look-alikes of DiskDelta's names
// that no sweep may touch, tar outliving a killed worker, read-only folders of our own.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { exitCodeOf } from '../../electron/shared/model/failures.ts';
import { runWorker, startWorker, testFiles, untilSaid, WORKER } from './worker-harness.ts';
import { reachableCopy } from '../../scripts/other-user.ts';
import { ownProcess, signalOwn, type OwnProcess } from '../../scripts/own-process.ts';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const asNobody = { uid: NOBODY, gid: NOBODY };
const dirs: string[] = [];
/** Processes a failed test may leave, each held by pid and start time (scripts/own-process.ts). */
const strays: Array<OwnProcess | null> = [];
after(() => {
  for (const stray of strays) signalOwn(stray, 'SIGKILL'); // gone already: not signalled
  for (const d of dirs) {
    spawnSync('chmod', ['-R', 'u+rwx', d]);
    rmSync(d, { recursive: true, force: true });
  }
});
function folder(owner?: number, mode = 0o755): string {
  const d = mkdtempSync(join(tmpdir(), 'dd-safety-'));
  dirs.push(d);
  chmodSync(d, mode);
  if (owner !== undefined) chownSync(d, owner, owner);
  return d;
}

/** Every entry below root with its type, owner, mode and content (files): what "unchanged" means. */
/** A tree run killed mid-pass in `target`, as a crash leaves it; answers its work folder's name. */
async function leaveKilledTree(target: string, files: number): Promise<string> {
  const before = new Set(testFiles(target));
  const w = startWorker(
    [
      'tree',
      '--target',
      target,
      '--runs',
      '1',
      '--warmup-passes',
      '0',
      '--pause',
      '--tree-files',
      String(files),
      '--tree-bytes',
      String(1 << 20),
    ],
    'pipe',
  );
  await w.waitFor((m) => m.type === 'phase');
  w.child.kill('SIGKILL');
  await w.exited;
  const made = testFiles(target).filter((name) => !before.has(name));
  assert.equal(made.length, 1, `one work folder left by the killed run: ${made.join(', ')}`);
  return made[0]!;
}

function snapshot(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path);
      const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
      const content = kind === 'file' && st.mode & 0o400 ? createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16) : '';
      out.push(`${join(rel, name)} ${kind} ${st.uid} ${(st.mode & 0o7777).toString(8)} ${content}`);
      if (kind === 'dir') visit(path, join(rel, name));
    }
  };
  visit(root, '');
  return out;
}

describe('a root tarball run in a folder another user may write to', () => {
  test(
    'an attacker renaming the work folder away and symlinking its name to a root folder on every pass: nothing outside the work folder is written',
    { skip: !isRoot && 'needs root (the worker runs as root, the attacker as nobody)' },
    async () => {
      // The tarball: README at its top and 500 small files, so each pass lasts long enough for
      // the attacker to act in it.
      const src = folder();
      writeFileSync(join(src, 'README'), "the tarball's\n");
      mkdirSync(join(src, 'many'));
      for (let i = 0; i < 500; i++) writeFileSync(join(src, 'many', `f${i}`), `${i}\n`);
      const tarball = join(folder(), 'src.tar.gz');
      assert.equal(spawnSync('tar', ['-czf', tarball, '-C', src, '.']).status, 0);
      // Root's folder the attacker points the name at: its t/README must stay root's own.
      const victim = folder(0, 0o755);
      mkdirSync(join(victim, 't'));
      writeFileSync(join(victim, 't', 'README'), "root's own\n");
      const before = snapshot(victim);
      const target = folder(NOBODY, 0o755);
      // The attacker, as nobody: polls the target; each real work folder, once it has existed for
      // 10 ms (so that the run is past its own checks and inside its passes), is moved away and
      // its name made a symlink to the victim. It prints how often it struck.
      const attacker = spawn(
        reachableCopy(process.execPath, asNobody),
        [
          '-e',
          `const fs = require('node:fs'), path = require('node:path');
           const [target, victim] = process.argv.slice(1);
           let swaps = 0, n = 0;
           const seen = new Map();
           const stop = () => { process.stdout.write(String(swaps)); process.exit(0); };
           process.on('SIGTERM', stop);
           const tick = () => {
             for (const name of fs.readdirSync(target)) {
               if (!/^\\.diskdelta-.*\\.tmp$/.test(name)) continue;
               const p = path.join(target, name);
               try {
                 if (!fs.lstatSync(p).isDirectory()) continue;
                 if (!seen.has(name)) seen.set(name, Date.now());
                 if (Date.now() - seen.get(name) < 10) continue;
                 fs.renameSync(p, path.join(target, 'moved-' + n++));
                 fs.symlinkSync(victim, p);
                 swaps++;
               } catch {}
             }
             setTimeout(tick, 1);
           };
           process.stdout.write('ready\\n');
           tick();`,
          target,
          victim,
        ],
        { uid: NOBODY, gid: NOBODY, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      strays.push(ownProcess(attacker.pid!));
      let said = '';
      attacker.stdout.setEncoding('utf8').on('data', (c: string) => (said += c));
      await untilSaid(attacker, () => said, 'ready');
      const run = await runWorker(['tree', '--target', target, '--tarball', tarball, '--runs', '2', '--warmup-passes', '1']);
      const swapsDone = new Promise<number>((resolve) => attacker.on('close', () => resolve(Number(said.replace('ready\n', '')))));
      attacker.kill('SIGTERM');
      const swaps = await swapsDone;
      assert.ok(swaps >= 1, `the attacker struck (${swaps} swaps): otherwise this test tested nothing`);
      assert.deepEqual(snapshot(victim), before, "root's folder is as it was: no file replaced, none created");
      // Struck before the run's own check of the folder it made, the run refuses instead (also safe).
      const refused = run.code === exitCodeOf('target-unusable') && /was replaced by someone else's as it was made/.test(run.stdout);
      assert.ok(run.code === 0 || refused, run.stdout + run.stderr);
      // What the run made is gone from wherever the attacker moved it; only the attacker's own
      // symlink and the emptied folder it moved are left.
      for (const name of readdirSync(target).filter((n) => n.startsWith('moved-')))
        assert.deepEqual(readdirSync(join(target, name)), [], `${name} (the moved work folder) was emptied`);
      if (!refused)
        assert.ok(
          run.messages.some((m) => m.type === 'warning' && m.code === 'workdir-moved'),
          'the move is said',
        );
    },
  );
});

describe('the stale-file sweep removes only what DiskDelta made', () => {
  test(
    'look-alikes of every shape and owner survive every verb that sweeps; a killed run of our own is still removed',
    { skip: !isRoot && 'needs root (look-alikes of another owner)' },
    async () => {
      const target = folder(0, 0o1777);
      const elsewhere = folder();
      writeFileSync(join(elsewhere, 'notes.txt'), 'precious\n');
      const size = 64 * 1024;
      const plant = () => {
        // wrong pattern, the user's own folder
        mkdirSync(join(target, '.diskdelta-my-thesis-backup.tmp'));
        writeFileSync(join(target, '.diskdelta-my-thesis-backup.tmp', 'chapter1.tex'), '\\chapter{One}\n');
        // wrong pattern, another user's file
        writeFileSync(join(target, '.diskdelta-nobodys.tmp'), 'nobody’s\n');
        chownSync(join(target, '.diskdelta-nobodys.tmp'), NOBODY, NOBODY);
        // the exact pattern, but another user's file in our shape (0600, data, one link, unlocked)
        writeFileSync(join(target, '.diskdelta-4242-00000000000000aa.tmp'), Buffer.alloc(size, 1), { mode: 0o600 });
        chownSync(join(target, '.diskdelta-4242-00000000000000aa.tmp'), NOBODY, NOBODY);
        // the exact pattern, the user's own folder in our mode, without a worker's marker
        mkdirSync(join(target, '.diskdelta-4242-00000000000000bb.tmp'), { mode: 0o700 });
        writeFileSync(join(target, '.diskdelta-4242-00000000000000bb.tmp', 'data'), 'mine\n');
        // the exact pattern, a marker copied from another folder (it names that one)
        mkdirSync(join(target, '.diskdelta-4242-00000000000000cc.tmp'), { mode: 0o700 });
        writeFileSync(join(target, '.diskdelta-4242-00000000000000cc.tmp', 'made-by-diskdelta'), '.diskdelta-1-0000000000000001.tmp');
        writeFileSync(join(target, '.diskdelta-4242-00000000000000cc.tmp', 'data'), 'mine\n');
        // the exact pattern, the user's own file of another mode
        writeFileSync(join(target, '.diskdelta-4242-00000000000000dd.tmp'), Buffer.alloc(size, 2), { mode: 0o644 });
        chmodSync(join(target, '.diskdelta-4242-00000000000000dd.tmp'), 0o644);
        // the exact pattern: a symlink to the user's file elsewhere
        symlinkSync(join(elsewhere, 'notes.txt'), join(target, '.diskdelta-4242-00000000000000ee.tmp'));
        // the exact pattern: a second hard link of a 0600 file of the user's
        writeFileSync(join(elsewhere, 'keys'), Buffer.alloc(size, 3), { mode: 0o600 });
        linkSync(join(elsewhere, 'keys'), join(target, '.diskdelta-4242-00000000000000ff.tmp'));
        // the exact pattern: another user's real work folder with its marker (theirs to sweep)
        const theirs = join(target, '.diskdelta-4242-0000000000000011.tmp');
        mkdirSync(theirs, { mode: 0o700 });
        writeFileSync(join(theirs, 'made-by-diskdelta'), '.diskdelta-4242-0000000000000011.tmp');
        spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, theirs]);
      };
      plant();
      const planted = snapshot(target);
      const job = 'name=r,rw=read,bs=65536,qd=1,threads=1';
      const verbs: string[][] = [
        ['run', '--size', String(1 << 20), '--job', job, '--duration', '0.2', '--warmup', '0', '--sample-ms', '0'],
        ['prepare', '--size', String(1 << 20)],
        ['cleanup'],
        ['tree', '--runs', '1', '--warmup-passes', '0', '--tree-files', '20', '--tree-bytes', String(1 << 20)],
        ['bigfile', '--runs', '1', '--warmup-passes', '0', '--size', String(16 << 20)],
        ['app-start', '--runs', '1', '--warmup-passes', '0', '--readers', '1', '--app-mix', 'small', '--app-files', '5'],
      ];
      for (const [verb, ...rest] of verbs) {
        // A real leftover of our own before each verb: a killed workload's folder, and the file
        // a `prepare` kept (nobody holds its lock once it exits).
        await leaveKilledTree(target, 5);
        // (made aside and moved in: every verb sweeps, so the tree above would have taken it)
        const aside = folder();
        const prepared = await runWorker(['prepare', '--target', aside, '--size', String(1 << 20)]);
        assert.equal(prepared.code, 0, prepared.stdout);
        const [keptFile] = testFiles(aside);
        renameSync(join(aside, keptFile!), join(target, keptFile!));
        const ours = testFiles(target).filter((n) => !planted.some((p) => p.startsWith(`${n} `)));
        assert.equal(ours.length, 2, `a killed folder and a kept file of ours: ${ours.join(', ')}`);
        const o = await runWorker([verb!, '--target', target, ...rest]);
        assert.equal(o.code, 0, `${verb}: ${o.stdout}`);
        for (const name of ours) assert.ok(!existsSync(join(target, name)), `${verb} removed our own ${name}`);
        const removed = o.messages.filter((m) => m.type === 'warning' && m.code === 'stale-file-removed');
        assert.equal(removed.length, 2, `${verb} said what it removed`);
        // What this verb left of its own (prepare keeps its file) goes before the comparison.
        const kept = o.messages.find((m) => m.type === 'prepared');
        if (kept?.type === 'prepared') rmSync(kept.file);
        assert.deepEqual(snapshot(target), planted, `${verb}: every look-alike is as it was`);
      }
      assert.equal(readFileSync(join(elsewhere, 'notes.txt'), 'utf8'), 'precious\n');
    },
  );
});

describe('a killed worker leaves no child writing', () => {
  /** A gzip tarball that expands to `count` MiB of writes: one 1 MiB member, compressed once, repeated. */
  function endlessTarball(count: number): string {
    const header = Buffer.alloc(512);
    header.write('blob', 0);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write((1 << 20).toString(8).padStart(11, '0') + '\0', 124);
    header.write('00000000000\0', 136);
    header.write('0', 156);
    header.write('ustar\u000000', 257);
    header.fill(' ', 148, 156);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    const member = gzipSync(Buffer.concat([header, Buffer.alloc(1 << 20)]));
    const file = join(folder(), 'endless.tar.gz');
    writeFileSync(file, Buffer.concat([...Array<Buffer>(count).fill(member), gzipSync(Buffer.alloc(1024))]));
    return file;
  }

  /** The children of pid (from /proc), with their command names. */
  function children(pid: number): Array<{ pid: number; comm: string }> {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks
      .flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number))
      .map((c) => ({ pid: c, comm: readFileSync(`/proc/${c}/comm`, 'utf8').trim() }));
  }
  const alive = (pid: number) => existsSync(`/proc/${pid}/stat`) && !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

  test('SIGKILL of the worker mid-extract: tar dies with it and nothing more is written', async () => {
    const tarball = endlessTarball(20_000);
    const target = folder();
    const w = startWorker(['tree', '--target', target, '--tarball', tarball, '--runs', '1', '--warmup-passes', '0']);
    await w.waitFor((m) => m.type === 'hello');
    let tar: number | undefined;
    for (let i = 0; i < 500 && tar === undefined; i++) {
      tar = children(w.child.pid!).find((c) => c.comm === 'tar')?.pid;
      if (tar === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(tar !== undefined, 'tar runs');
    strays.push(ownProcess(tar));
    const [work] = testFiles(target);
    const blob = join(target, work!, 't', 'blob');
    for (let i = 0; i < 500 && !existsSync(blob); i++) await new Promise((r) => setTimeout(r, 10));
    // ('exit', not 'close': a tar that lives on would hold the worker's stderr open.)
    const killed = new Promise((resolve) => w.child.once('exit', resolve));
    w.child.kill('SIGKILL');
    await killed;
    // The kernel's parent-death signal ends tar at once; 10 s is only there so that a tar that
    // goes on (the defect) fails the test instead of hanging it.
    for (let i = 0; i < 1000 && alive(tar); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(alive(tar), false, 'tar is gone with the worker');
    const stamp = (() => {
      try {
        const st = statSync(blob);
        return `${st.ino} ${st.size} ${st.mtimeMs}`;
      } catch {
        return 'none';
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const again = existsSync(blob) ? `${statSync(blob).ino} ${statSync(blob).size} ${statSync(blob).mtimeMs}` : 'none';
    assert.equal(again, stamp, 'nothing writes in the work folder any more');
    // The next run's sweep removes what the killed one left.
    const next = await runWorker(['cleanup', '--target', target]);
    assert.ok(
      next.messages.some((m) => m.type === 'cleaned' && m.removed === 1),
      next.stdout,
    );
    assert.deepEqual(readdirSync(target), []);
  });
});

describe('read-only folders of our own (a user who is not root)', () => {
  test(
    'a tarball with 0555 and 0000 folders is extracted and removed each pass; a killed run’s read-only folders are swept, and what cannot be swept is said',
    { skip: !isRoot && 'needs root to run the worker as nobody and to plant a folder nobody cannot remove' },
    async () => {
      const src = folder();
      mkdirSync(join(src, 'ro'));
      writeFileSync(join(src, 'ro', 'f'), 'read-only folder\n');
      mkdirSync(join(src, 'none'));
      writeFileSync(join(src, 'none', 'g'), 'no-access folder\n');
      chmodSync(join(src, 'ro'), 0o555);
      chmodSync(join(src, 'none'), 0o000);
      const tarball = join(folder(NOBODY), 'ro.tar');
      assert.equal(spawnSync('tar', ['-cf', tarball, '-C', src, 'ro', 'none']).status, 0);
      chownSync(tarball, NOBODY, NOBODY);
      const target = folder(NOBODY);
      const o = await runWorker(['tree', '--target', target, '--tarball', tarball, '--runs', '2', '--warmup-passes', '0'], asNobody);
      assert.equal(o.code, 0, o.stdout + o.stderr);
      assert.deepEqual(readdirSync(target), [], 'the work folder is gone');

      // A killed run of nobody's, whose tree got folders nobody may not enter or write.
      const killed = folder(NOBODY);
      // (started as root here, so the folder is handed to nobody, as if nobody had made it)
      const work = await leaveKilledTree(killed, 30);
      spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, join(killed, work)]);
      const sub = readdirSync(join(killed, work, 't')).find((n) => n.startsWith('d'))!;
      chmodSync(join(killed, work, 't', sub), 0o000);
      chmodSync(join(killed, work, 't'), 0o555);
      const swept = await runWorker(['cleanup', '--target', killed], asNobody);
      assert.ok(
        swept.messages.some((m) => m.type === 'cleaned' && m.removed === 1),
        swept.stdout,
      );
      assert.deepEqual(readdirSync(killed), []);

      // One nobody cannot remove (a folder of root's inside it): said, not silent.
      const work2 = await leaveKilledTree(killed, 5);
      spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, join(killed, work2)]);
      mkdirSync(join(killed, work2, 'roots'));
      writeFileSync(join(killed, work2, 'roots', 'x'), 'root’s\n');
      const left = await runWorker(['cleanup', '--target', killed], asNobody);
      const said = left.messages.find((m) => m.type === 'warning' && m.code === 'stale-file-left');
      assert.ok(said?.type === 'warning' && said.message.includes(work2) && /Permission denied/.test(said.message), left.stdout);
    },
  );
});

describe("the worker's own parent-death signal", () => {
  test('a worker whose parent (DISKDELTA_PARENT_PID) is already gone stops at once; with its real parent it runs', () => {
    const target = folder();
    const args = ['tree', '--target', target, '--runs', '1', '--warmup-passes', '0', '--tree-files', '10', '--tree-bytes', String(1 << 20)];
    // pid 1 is not this worker's parent: as if the app had died before the worker asked for the signal.
    const orphan = spawnSync(WORKER, args, { encoding: 'utf8', env: { ...process.env, DISKDELTA_PARENT_PID: '1' } });
    assert.equal(orphan.status, exitCodeOf('interrupted'), orphan.stdout);
    const child = spawnSync(WORKER, args, { encoding: 'utf8', env: { ...process.env, DISKDELTA_PARENT_PID: String(process.pid) } });
    assert.equal(child.status, 0, child.stdout);
    assert.deepEqual(readdirSync(target), []);
  });
});

describe('the test file is removed through the folder it was made in', () => {
  test('SIGTERM after the target folder was renamed and another put in its place: our file goes, the other folder’s file of the same name stays', async () => {
    const parent = folder();
    const target = join(parent, 'target');
    mkdirSync(target);
    const job = 'name=r,rw=read,bs=65536,qd=1,threads=1';
    const w = startWorker(['run', '--target', target, '--size', String(256 << 20), '--job', job, '--duration', '30', '--warmup', '0']);
    const hello = await w.waitFor((m) => m.type === 'hello');
    assert.ok(hello.type === 'hello' && hello.file);
    const name = hello.file.slice(target.length + 1);
    renameSync(target, join(parent, 'moved'));
    mkdirSync(target);
    writeFileSync(join(target, name), 'not the worker’s');
    w.child.kill('SIGTERM');
    const o = await w.exited;
    assert.equal(o.code, exitCodeOf('interrupted'), o.stdout);
    assert.equal(readFileSync(join(target, name), 'utf8'), 'not the worker’s', 'the file now under that path is not ours: it stays');
    assert.deepEqual(readdirSync(join(parent, 'moved')), [], 'ours is gone from the folder it was made in');
  });
});
