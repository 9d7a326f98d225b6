// The worker's workload verbs (tree, bigfile, app-start) on the real binary: what they write is
// inspected on disk, every exit path leaves the folder as it was, and a killed run's leftovers
// are removed by the next run. Timings are printed, never asserted (they depend on the machine).
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readShippedShape } from '../../electron/node/bench/tree-shape-file.ts';
import { exitCodeOf } from '../../electron/shared/model/failures.ts';
import type { WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';
import { runWorker, startWorker, testFiles, type Outcome } from './worker-harness.ts';

const isRoot = process.getuid?.() === 0;
// The whole release's tree is 1.3 GB: written to memory (tmpfs) where there is one, so that the
// test measures the shape, not this machine's disk.
const FAST = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function folder(base = tmpdir()): string {
  const d = mkdtempSync(join(base, 'dd-workload-'));
  dirs.push(d);
  return d;
}

type Phase = Extract<WorkerMessage, { type: 'phase' }>;
const phases = (o: { messages: WorkerMessage[] }) => o.messages.filter((m): m is Phase => m.type === 'phase');

/** Every file below `root`: relative path, size and content hash; and the folders, with their depth. */
function walk(root: string) {
  const files: Array<{ path: string; size: number; hash: string }> = [];
  let folders = 0;
  let deepest = 0;
  const visit = (dir: string, rel: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        folders++;
        deepest = Math.max(deepest, depth);
        visit(path, join(rel, e.name), depth + 1);
      } else {
        const content = readFileSync(path);
        files.push({ path: join(rel, e.name), size: content.length, hash: createHash('sha256').update(content).digest('hex') });
      }
    }
  };
  visit(root, '', 1);
  return { files, folders, deepest, bytes: files.reduce((n, f) => n + f.size, 0) };
}

/** Runs `tree --pause`, inspects the tree written by the first timed pass, then lets the worker finish. */
async function inspectTree(target: string, extra: string[]) {
  const w = startWorker(['tree', '--target', target, '--runs', '1', '--warmup-passes', '0', '--pause', ...extra], 'pipe');
  const written = (await w.waitFor((m) => m.type === 'phase' && m.phase === 'write', 120_000)) as Phase;
  const [work] = testFiles(target);
  assert.ok(work, 'the tree lies in one DiskDelta work folder');
  const tree = walk(join(target, work, 't'));
  // Incompressible: the largest file does not shrink under deflate (which then stores it).
  const largest = tree.files.reduce((a, b) => (b.size > a.size ? b : a));
  const deflated = deflateSync(readFileSync(join(target, work, 't', largest.path))).length / largest.size;
  w.child.stdin!.end('\n');
  const outcome = await w.exited;
  return { written, tree, outcome, deflated };
}

describe('workload: tree', () => {
  test("the release's tree: file count and total size within 1 % of Linux 6.1 (the shipped shape), on disk", async () => {
    const shape = readShippedShape();
    const target = folder(FAST);
    const { written, tree, outcome, deflated } = await inspectTree(target, []);
    assert.equal(outcome.code, 0, outcome.stderr);
    const info = outcome.messages.find((m) => m.type === 'workload');
    assert.ok(info?.type === 'workload' && info.shape === 'linux-6.1.192' && info.scaled === false, 'the release is named, not scaled');
    assert.ok(Math.abs(tree.files.length - shape.files) <= shape.files * 0.01, `${tree.files.length} files on disk vs ${shape.files}`);
    assert.ok(Math.abs(tree.bytes - shape.bytes) <= shape.bytes * 0.01, `${tree.bytes} bytes on disk vs ${shape.bytes}`);
    assert.ok(Math.abs(tree.folders - shape.dirs) <= shape.dirs * 0.01, `${tree.folders} folders vs ${shape.dirs}`);
    assert.equal(tree.deepest, shape.depths.filter((d) => d.dirs > 0).length, 'as deep as the release');
    assert.equal(written.files, tree.files.length, 'the phase reports the files it wrote');
    assert.equal(written.bytes, tree.bytes);
    assert.ok(deflated >= 0.99, `deflate keeps ${(deflated * 100).toFixed(1)} % of the largest file`);
    assert.deepEqual(readdirSync(target), [], 'the work folder is gone after the run');
    console.log(
      `# release tree: ${tree.files.length} files, ${tree.bytes} bytes, ${tree.folders} folders; write ${written.seconds.toFixed(2)} s`,
    );
  });

  test("a scaled tree (the seed's Linux 3.9.1: 45,168 files, 592 MB) says so, and its content is the same on every run and does not compress", async () => {
    const target = folder(FAST);
    const args = ['--tree-files', '45168', '--tree-bytes', '592000000'];
    const first = await inspectTree(target, args);
    assert.equal(first.outcome.code, 0, first.outcome.stderr);
    const info = first.outcome.messages.find((m) => m.type === 'workload');
    assert.ok(info?.type === 'workload' && info.scaled === true && info.shape === 'linux-6.1.192');
    assert.ok(Math.abs(first.tree.files.length - 45168) <= 452, `${first.tree.files.length} files`);
    assert.ok(Math.abs(first.tree.bytes - 592e6) <= 5.92e6, `${first.tree.bytes} bytes`);
    const second = await inspectTree(target, args);
    const digest = (t: typeof first.tree) =>
      createHash('sha256')
        .update(
          t.files
            .map((f) => `${f.path} ${f.size} ${f.hash}`)
            .sort()
            .join('\n'),
        )
        .digest('hex');
    assert.equal(digest(second.tree), digest(first.tree), 'the same paths, sizes and bytes');
    const filled = first.tree.files.filter((f) => f.size > 0);
    assert.equal(new Set(filled.map((f) => f.hash)).size, filled.length, 'no two files alike');
    assert.ok(first.deflated >= 0.99, `deflate keeps ${(first.deflated * 100).toFixed(1)} %`);
    assert.deepEqual(readdirSync(target), []);
  });

  test('phases: a warm-up pass (run 0), then --runs timed passes, each a write and a delete with syncfs inside', async () => {
    const target = folder();
    const o = await runWorker(['tree', '--target', target, '--runs', '2', '--tree-files', '300', '--tree-bytes', '3000000']);
    assert.equal(o.code, 0, o.stderr);
    assert.deepEqual(
      phases(o).map((p) => `${p.phase}:${p.run}:${p.warmup}`),
      ['write:0:true', 'delete:0:true', 'write:1:false', 'delete:1:false', 'write:2:false', 'delete:2:false'],
    );
    for (const p of phases(o)) {
      assert.equal(p.files, 300);
      assert.equal(p.bytes, 3_000_000);
      assert.ok(p.seconds >= p.sync_seconds, 'syncfs is inside the phase');
    }
    assert.deepEqual(readdirSync(target), []);
  });

  test('SIGKILL mid-write leaves the work folder; the next run removes it, saying so', async () => {
    const target = folder();
    writeFileSync(join(target, 'mine.txt'), 'the user’s');
    const w = startWorker(['tree', '--target', target, '--runs', '3', '--tree-files', '20000', '--tree-bytes', '400000000']);
    await w.waitFor((m) => m.type === 'workload');
    // Some of the tree is on disk, then the worker dies without a chance to clean up.
    const [work] = testFiles(target);
    assert.ok(work);
    for (let i = 0; i < 200 && readdirSync(join(target, work)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    w.child.kill('SIGKILL');
    await w.exited;
    assert.deepEqual(testFiles(target), [work], 'a killed worker cannot clean up');
    const next = await runWorker([
      'tree',
      '--target',
      target,
      '--runs',
      '1',
      '--warmup-passes',
      '0',
      '--tree-files',
      '100',
      '--tree-bytes',
      '1048576',
    ]);
    assert.equal(next.code, 0, next.stderr);
    const warning = next.messages.find((m) => m.type === 'warning' && m.code === 'stale-file-removed');
    assert.ok(warning?.type === 'warning' && warning.message.includes(work) && warning.message.includes('workload folder'));
    assert.deepEqual(readdirSync(target), ['mine.txt'], "only the user's file is left");
  });

  test("the rate tests' `cleanup` verb removes a killed workload's folder too, and never a live one", async () => {
    const target = folder();
    const live = startWorker(
      ['tree', '--target', target, '--runs', '1', '--warmup-passes', '0', '--pause', '--tree-files', '50', '--tree-bytes', '1048576'],
      'pipe',
    );
    await live.waitFor((m) => m.type === 'phase');
    const [liveFolder] = testFiles(target);
    // A killed workload's folder, made by a real worker (only such a folder is ever swept).
    const killed = startWorker(
      ['tree', '--target', target, '--runs', '1', '--warmup-passes', '0', '--pause', '--tree-files', '50', '--tree-bytes', '1048576'],
      'pipe',
    );
    await killed.waitFor((m) => m.type === 'phase');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const cleaned = await runWorker(['cleanup', '--target', target]);
    live.child.stdin!.end('\n');
    assert.ok(
      cleaned.messages.some((m) => m.type === 'cleaned' && m.removed === 1),
      cleaned.stdout,
    );
    assert.deepEqual(testFiles(target), [liveFolder], 'the live tree stays');
    assert.equal((await live.exited).code, 0);
    assert.deepEqual(readdirSync(target), []);
  });

  test('SIGTERM mid-workload: exit "interrupted", the work folder removed', async () => {
    const target = folder();
    const w = startWorker(['tree', '--target', target, '--runs', '5', '--tree-files', '20000', '--tree-bytes', '200000000']);
    await w.waitFor((m) => m.type === 'workload');
    w.child.kill('SIGTERM');
    const o = await w.exited;
    assert.equal(o.code, exitCodeOf('interrupted'));
    assert.deepEqual(readdirSync(target), []);
  });

  test('bad input: a missing target, a file as target, an unknown mix: each its exit code and what to do', async () => {
    const target = folder();
    const missing = await runWorker(['tree', '--target', join(target, 'nope')]);
    assert.equal(missing.code, exitCodeOf('target-missing'));
    writeFileSync(join(target, 'file'), 'x');
    const file = await runWorker(['bigfile', '--target', join(target, 'file')]);
    assert.equal(file.code, exitCodeOf('target-unusable'));
    assert.match(file.messages.find((m) => m.type === 'error')?.type === 'error' ? file.stdout : '', /not a folder: workloads write files/);
    const mix = await runWorker(['app-start', '--target', target, '--app-mix', 'games']);
    assert.equal(mix.code, exitCodeOf('usage'));
    assert.match(mix.stdout, /--app-mix 'games' is unknown: use program or small/);
    assert.deepEqual(readdirSync(target), ['file']);
  });
});

describe("workload: tree from the user's tarball (--tarball)", () => {
  /** A compressed tarball of a small tree made here, and what is in it. */
  function tarball() {
    const dir = folder();
    const src = join(dir, 'src');
    mkdirSync(join(src, 'a', 'b'), { recursive: true });
    writeFileSync(join(src, 'a', 'b', 'small.c'), 'int main(void) { return 0; }\n');
    writeFileSync(join(src, 'a', 'big.bin'), Buffer.alloc(300_000, 7));
    writeFileSync(join(src, 'README'), 'hello\n');
    const file = join(dir, 'src.tar.gz');
    assert.equal(spawnSync('tar', ['-czf', file, '-C', dir, 'src']).status, 0);
    return { file, files: 3, bytes: 29 + 300_000 + 6 };
  }

  test('tar extracts it each pass (timed with syncfs), the phases count its files and bytes, nothing is left', async () => {
    const t = tarball();
    const target = folder();
    const o = await runWorker(['tree', '--target', target, '--tarball', t.file, '--runs', '2', '--warmup-passes', '1']);
    assert.equal(o.code, 0, o.stderr);
    const info = o.messages.find((m) => m.type === 'workload');
    assert.deepEqual(info && [info.shape, info.source, info.files, info.bytes], ['src.tar.gz', 'tarball', t.files, t.bytes]);
    assert.deepEqual(
      phases(o).map((p) => [p.phase, p.run, p.files, p.bytes]),
      [0, 1, 2].flatMap((run) => [
        ['write', run, t.files, t.bytes],
        ['delete', run, t.files, t.bytes],
      ]),
    );
    assert.deepEqual(readdirSync(target), [], 'the extracted tree and the work folder are gone');
  });

  test('a missing file, a folder, and a file tar cannot read: each its exit code and what to do; nothing left', async () => {
    const target = folder();
    const missing = await runWorker(['tree', '--target', target, '--tarball', join(target, 'nope.tar')]);
    assert.equal(missing.code, exitCodeOf('target-missing'));
    assert.match(
      missing.stdout,
      /cannot use the tarball .*nope\.tar: No such file or directory: give a \.tar, \.tar\.gz or \.tar\.xz file/,
    );
    const dir = await runWorker(['tree', '--target', target, '--tarball', target]);
    assert.equal(dir.code, exitCodeOf('usage'));
    assert.match(dir.stdout, /cannot use the tarball .*: it is a folder, not a file: give a \.tar/);
    const junk = join(folder(), 'junk.tar');
    writeFileSync(junk, 'not a tarball\n'.repeat(100));
    const bad = await runWorker(['tree', '--target', target, '--tarball', junk]);
    assert.equal(bad.code, exitCodeOf('usage'));
    assert.match(bad.stdout, /tar could not extract .*junk\.tar .*\(exit 2\): tar said why on stderr; is it a tarball\?/);
    assert.match(bad.stderr, /tar: /, "tar's own message reaches stderr (stdout stays NDJSON)");
    assert.deepEqual(readdirSync(target), []);
  });

  // #38 item 6: opened as a file, a FIFO made open(2) wait for a writer, silently, until killed
  // (this test then ends by its own timeout).
  test('a FIFO or a device named as the tarball is refused at once, saying what it is; nothing left', { timeout: 60_000 }, async () => {
    const target = folder();
    const fifo = join(folder(), 'pipe.tar');
    execFileSync('mkfifo', [fifo]);
    const piped = await runWorker(['tree', '--target', target, '--tarball', fifo]);
    assert.equal(piped.code, exitCodeOf('usage'));
    assert.match(piped.stdout, /cannot use the tarball .*pipe\.tar: it is a FIFO \(named pipe\), not a regular file: give a \.tar/);
    const device = await runWorker(['tree', '--target', target, '--tarball', '/dev/zero']);
    assert.equal(device.code, exitCodeOf('usage'));
    assert.match(device.stdout, /cannot use the tarball \/dev\/zero: it is a character device, not a regular file/);
    assert.deepEqual(readdirSync(target), []);
  });
});

describe('workload: bigfile', () => {
  test('writes --size bytes, syncs, deletes, syncs; nothing left', async () => {
    const target = folder();
    const o = await runWorker(['bigfile', '--target', target, '--size', String(32 << 20), '--runs', '2', '--warmup-passes', '0']);
    assert.equal(o.code, 0, o.stderr);
    assert.deepEqual(
      phases(o).map((p) => `${p.phase}:${p.run}:${p.bytes}`),
      ['write:1:33554432', 'delete:1:33554432', 'write:2:33554432', 'delete:2:33554432'],
    );
    assert.deepEqual(readdirSync(target), []);
  });

  test('shrinks to what fits, warning (a 96 MiB tmpfs)', { skip: !isRoot && 'mounting a small tmpfs needs root' }, async () => {
    const mountpoint = folder();
    assert.equal(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'dd-bigfile', mountpoint]).status, 0);
    try {
      const o = await runWorker(['bigfile', '--target', mountpoint, '--size', '3000000000', '--runs', '1', '--warmup-passes', '0']);
      assert.equal(o.code, 0, o.stderr);
      assert.ok(o.messages.some((m) => m.type === 'warning' && m.code === 'bigfile-shrunk' && /not 2\.79 GiB/.test(m.message)));
      const [write] = phases(o);
      assert.ok(write && write.bytes < 96 * 2 ** 20 && write.bytes >= 16 * 2 ** 20, `${write?.bytes} bytes fit`);
      assert.deepEqual(readdirSync(mountpoint), []);
    } finally {
      spawnSync('umount', [mountpoint]);
    }
  });
});

describe('workload: app-start', () => {
  test('N readers, each its own files, all read from a cold cache; seconds and the spread', async () => {
    const target = folder();
    const o: Outcome = await runWorker([
      'app-start',
      '--target',
      target,
      '--readers',
      '3',
      '--app-mix',
      'small',
      '--app-files',
      '40',
      '--runs',
      '2',
    ]);
    assert.equal(o.code, 0, o.stderr);
    const starts = phases(o);
    assert.deepEqual(
      starts.map((p) => p.run),
      [0, 1, 2],
    );
    for (const p of starts) {
      assert.equal(p.files, 120);
      assert.equal(p.bytes, 120 * 4096, 'every file read whole');
      assert.ok(p.spread_seconds !== undefined && p.spread_seconds <= p.seconds);
      assert.equal(p.cold, isRoot ? 'drop-caches' : 'fadvise', 'how the cache was emptied is said');
    }
    assert.deepEqual(readdirSync(target), []);
  });

  test('the program mix: a binary, 30 libraries and 160 resources per program (about 30 MB)', async () => {
    const target = folder();
    const o = await runWorker(['app-start', '--target', target, '--readers', '2', '--runs', '1', '--warmup-passes', '0']);
    assert.equal(o.code, 0, o.stderr);
    const info = o.messages.find((m) => m.type === 'workload');
    assert.ok(info?.type === 'workload' && info.mix === 'program' && info.readers === 2 && info.files === 2 * 191);
    assert.ok(info.bytes > 2 * 20e6 && info.bytes < 2 * 45e6, `${info.bytes} bytes`);
    assert.equal(phases(o)[0]?.bytes, info.bytes);
    assert.deepEqual(readdirSync(target), []);
  });
});
