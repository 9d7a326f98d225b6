// `diskdelta run` end to end: the real CLI in a child process, the real worker, a temporary
// folder on the disk under /tmp, small sizes and short windows.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from './args.ts';
import { specFromFlags } from './commands/run.ts';
import { exitCodeOf } from '../shared/model/failures.ts';
import { openLibrary } from '../node/store/library.ts';
import { parseDiskDeltaJson } from '../node/formats/diskdelta-json.ts';
import { testTitle } from '../shared/model/catalog.ts';
import { ownProcess, signalOwn } from '../../scripts/own-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const SMALL = ['--size', '32MiB', '--duration', '0.3', '--warmup', '0'];

interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How long a run may take to create its test file: a bound against a hang, not a speed. A run
 * first waits for its disk while another DiskDelta process measures it (a second test suite on
 * this machine), for as long as that one runs.
 */
const STARTS_WITHIN_MS = 10 * 60_000;

/** Polls until the folder holds a test file (the run is under way); false after limitMs. */
async function waitForTestFile(dir: string, limitMs = STARTS_WITHIN_MS): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (readdirSync(dir).some((f) => f.startsWith('.diskdelta-'))) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

/**
 * Milliseconds until the folder holds no test file, for diagnostics only: a speed is never
 * asserted. The cap only ends a hung wait (the runs below would last an hour).
 */
async function msUntilNoTestFile(dir: string, capMs = 30_000): Promise<number> {
  const start = performance.now();
  while (readdirSync(dir).some((f) => f.startsWith('.diskdelta-'))) {
    if (performance.now() - start > capMs) return Number.POSITIVE_INFINITY;
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now() - start;
}

function diskdelta(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, ['bin/diskdelta.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let root: string;
const scratch = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('.diskdelta-'));

before(() => {
  root = mkdtempSync(join(tmpdir(), 'diskdelta-cli-test-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

const isNumber = (x: unknown) => typeof x === 'number' && Number.isFinite(x);

describe('diskdelta run --json', () => {
  test('exactly one JSON document with the documented fields; the run is saved to --db', async () => {
    const dir = scratch('json');
    const db = join(root, 'library.sqlite');
    const o = await diskdelta([
      'run',
      '--target',
      dir,
      '--tests',
      'seq1m-q1t1-read,rnd4k-q1t1-write,seeks',
      ...SMALL,
      '--runs',
      '2',
      '--label',
      'SSD',
      '--json',
      '--db',
      db,
    ]);
    assert.equal(o.code, 0, o.stderr);
    const doc = JSON.parse(o.stdout) as Record<string, unknown>; // throws unless stdout is one document
    assert.equal(o.stdout.trim().split('\n')[0], '{', 'nothing before the document');

    const target = doc.target as Record<string, unknown>;
    assert.equal(typeof target, 'object');
    assert.equal(target.path, dir);
    assert.equal(target.kind, 'folder');

    const results = doc.results as Array<Record<string, unknown>>;
    assert.deepEqual(
      results.map((r) => r.test),
      ['seq1m-q1t1-read', 'rnd4k-q1t1-write', 'seeks'],
    );
    for (const r of results) {
      assert.ok(isNumber(r.bytesPerSec) && (r.bytesPerSec as number) > 0, `${r.test}: bytesPerSec`);
      assert.ok(isNumber(r.iops) && (r.iops as number) > 0, `${r.test}: iops`);
      const lat = r.latencyNs as Record<string, unknown>;
      for (const k of ['mean', 'p50', 'p90', 'p99', 'p999', 'max'])
        assert.ok(isNumber(lat[k]) && (lat[k] as number) > 0, `${r.test}: latencyNs.${k}`);
      assert.ok((lat.p50 as number) <= (lat.p99 as number) && (lat.p99 as number) <= (lat.max as number));
      const runs = r.runs as Array<Record<string, unknown>>;
      assert.equal(runs.length, 2, `${r.test}: two runs`);
      assert.deepEqual(
        runs.map((x) => x.run),
        [1, 2],
      );
      for (const run of runs) assert.ok(isNumber(run.bytesPerSec) && isNumber(run.iops) && isNumber(run.elapsedNs));
      // The reported figure is the median of the runs (mean of two).
      const median = ((runs[0]!.bytesPerSec as number) + (runs[1]!.bytesPerSec as number)) / 2;
      assert.ok(Math.abs((r.bytesPerSec as number) - median) / median < 1e-9, `${r.test}: median of runs`);
      assert.ok(isNumber(r.cv), `${r.test}: cv over 2 runs`);
      assert.ok(Array.isArray(r.warnings));
      // 0.3 s windows are below the trust threshold: every result must say so.
      assert.ok(
        (r.warnings as Array<{ code: string }>).some((w) => w.code === 'under-resolved'),
        `${r.test} flagged under-resolved`,
      );
    }
    assert.ok(Array.isArray(doc.warnings));
    assert.equal(doc.label, 'SSD');
    assert.ok(isNumber(doc.id), 'saved: the document carries the library id');
    assert.ok(existsSync(db), 'the library file was written');
    assert.deepEqual(leftovers(dir), [], 'no test file left');
  });

  test('--no-save: nothing is written to the library', async () => {
    const dir = scratch('nosave');
    const db = join(root, 'never.sqlite');
    const o = await diskdelta([
      'run',
      '--target',
      dir,
      '--tests',
      'rnd4k-q1t1-read',
      ...SMALL,
      '--runs',
      '1',
      '--json',
      '--no-save',
      '--db',
      db,
    ]);
    assert.equal(o.code, 0, o.stderr);
    const doc = JSON.parse(o.stdout) as { id: unknown; results: Array<{ cv: unknown }> };
    assert.equal(doc.id, null);
    assert.equal(doc.results[0]!.cv, null, 'no spread from a single run');
    assert.ok(!existsSync(db));
    assert.deepEqual(leftovers(dir), []);
  });
});

describe('diskdelta run and its library: a measurement is never lost', () => {
  const one = ['--tests', 'rnd4k-q1t1-read', ...SMALL, '--runs', '1'];

  test('a library that cannot be opened (a folder, a truncated file) is found before measuring: exit 1, nothing run', async () => {
    const folderDb = scratch('db-is-a-folder');
    const truncated = join(root, 'truncated.sqlite');
    openLibrary({ dbPath: truncated }).close();
    truncateSync(truncated, Math.floor(statSync(truncated).size / 2));
    for (const env of [{ DISKDELTA_DB: folderDb }, { DISKDELTA_DB: truncated }]) {
      const dir = scratch(`lib-check-${Object.values(env)[0]!.length}`);
      const o = await diskdelta(['run', '--target', dir, ...one, '--json'], env);
      assert.equal(o.code, 1, o.stderr);
      assert.match(
        o.stderr,
        /^diskdelta run: cannot open the library .*Nothing was measured: repair or move the library, choose another with --db, or pass --no-save\.\n$/,
      );
      assert.match(JSON.parse(o.stdout).error.message, /cannot open the library/, '--json: the failure as JSON');
      assert.doesNotMatch(o.stderr, /\n\s+at /, 'no stack trace');
    }
  });

  test('saving fails after measuring: the results are still printed, one line says so, exit 10', async () => {
    const db = join(root, 'refuses-writes.sqlite');
    openLibrary({ dbPath: db }).close();
    // A real failure of the real save path: SQLite aborts the INSERT, as it would on a full disk.
    const raw = new DatabaseSync(db);
    raw.exec("CREATE TRIGGER refuse BEFORE INSERT ON runs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    raw.close();
    const dir = scratch('save-fails');
    const json = await diskdelta(['run', '--target', dir, ...one, '--json', '--db', db]);
    assert.equal(json.code, exitCodeOf('not-saved'), json.stderr);
    const doc = JSON.parse(json.stdout) as { id: unknown; results: Array<{ test: string; iops: number }> };
    assert.equal(doc.id, null);
    assert.equal(doc.results[0]!.test, 'rnd4k-q1t1-read');
    assert.ok(doc.results[0]!.iops > 0);
    const said =
      /^diskdelta run: the results above were NOT saved: cannot write to the library .*database or disk is full; they were written to (\S+\.json): run 'diskdelta import \1' once the library can be written\n$/m.exec(
        json.stderr,
      );
    assert.ok(said, json.stderr);
    const [kept] = parseDiskDeltaJson(readFileSync(said[1]!, 'utf8'), said[1]!);
    assert.equal(kept!.results[0]!.iops, doc.results[0]!.iops, 'the kept file holds the printed figures');
    const table = await diskdelta(['run', '--target', dir, ...one, '--db', db]);
    assert.equal(table.code, exitCodeOf('not-saved'));
    assert.match(table.stdout, /random 4K|rnd4k/i);
    assert.deepEqual(leftovers(dir), []);
  });
});

describe('one run per disk across processes', () => {
  test('a second process on the same disk waits, saying for whom, and runs once the first is done', async () => {
    const first = scratch('disk-lock-first');
    const second = scratch('disk-lock-second'); // another folder on the same disk
    const long = ['--tests', 'rnd4k-q1t1-read', '--size', '32MiB', '--duration', '20', '--warmup', '0', '--runs', '1', '--no-save'];
    const holder = spawn(NODE, ['bin/diskdelta.js', 'run', '--target', first, ...long], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const holderExit = new Promise<number | null>((resolve) => holder.on('close', (code) => resolve(code)));
    let waiterExit: Promise<CliOutcome> | undefined;
    try {
      assert.ok(await waitForTestFile(first), 'the first run started');
      const waiter = spawn(
        NODE,
        ['bin/diskdelta.js', 'run', '--target', second, '--tests', 'rnd4k-q1t1-read', ...SMALL, '--runs', '1', '--no-save', '--json'],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      waiter.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      waiter.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      waiterExit = new Promise((resolve) => waiter.on('close', (code) => resolve({ code, stdout, stderr })));
      const says = new RegExp(
        `waiting: DiskDelta process ${holder.pid} \\(measuring ${first}\\) is already measuring the disk \\S+; this run starts when it is done`,
      );
      for (let i = 0; i < 300 && !says.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(stderr, says);
      assert.deepEqual(leftovers(second), [], 'the second run has not touched the disk');
      assert.ok(
        readdirSync(first).some((f) => f.startsWith('.diskdelta-')),
        'the first run goes on',
      );
    } finally {
      holder.kill('SIGTERM');
    }
    assert.equal(await holderExit, 7);
    const o = await waiterExit!;
    assert.equal(o.code, 0, o.stderr);
    assert.equal((JSON.parse(o.stdout) as { results: unknown[] }).results.length, 1);
    assert.deepEqual(leftovers(second), []);
  });
});

describe('diskdelta run (table)', () => {
  test('a table with units, no progress bar when stdout is not a terminal', async () => {
    const dir = scratch('table');
    const o = await diskdelta(['run', '--target', dir, '--tests', 'seq1m-q8t1-read,seeks', ...SMALL, '--runs', '1', '--no-save']);
    assert.equal(o.code, 0, o.stderr);
    // Figures of any size: "1,669 MB/s" on a fast disk, "0.647 MB/s" on a slow one.
    // A flagged figure carries its flag beside it (#40 item 8): "2,413 MB/s (under-resolved)".
    assert.match(o.stdout, /SEQ1M Q8T1 read\s+\d[\d,]*(\.\d+)? [kMG]B\/s( \([^)]+\))?\s+\d[\d,]*(\.\d+)? k?IOPS/);
    assert.match(o.stdout, /Random seeks.*seeks\/s/);
    assert.match(o.stdout, /latency p50/);
    assert.ok(!o.stdout.includes('\r'), 'no progress bar in a pipe');
    // This machine's disk has no sensor (virtio); one with a sensor prints its readings.
    assert.match(o.stdout, /\nDrive temperature: (not read: .+|\S+ \((NVMe|drivetemp) .+\): .+ before, .+)\n/);
    assert.deepEqual(leftovers(dir), []);
  });
});

describe('specFromFlags (in process)', () => {
  test('flags become a spec in raw units', () => {
    assert.deepEqual(
      specFromFlags({
        target: '/mnt',
        tests: 'seeks, seq1m-q8t1-read',
        size: '256MiB',
        duration: '1.5s',
        warmup: '500ms',
        runs: '5',
        label: 'HDD',
        buffered: true,
      }),
      {
        target: '/mnt',
        tests: ['seeks', 'seq1m-q8t1-read'],
        sizeBytes: 256 * 2 ** 20,
        durationSec: 1.5,
        warmupSec: 0.5,
        runs: 5,
        label: 'HDD',
        buffered: true,
      },
    );
    assert.deepEqual(specFromFlags({ target: '/mnt', preset: 'quick' }), { target: '/mnt', preset: 'quick' });
    // A preset and tests: those tests at the preset's settings, as the API takes them.
    assert.deepEqual(specFromFlags({ target: '/mnt', preset: 'quick', tests: 'seeks' }), {
      target: '/mnt',
      preset: 'quick',
      tests: ['seeks'],
    });
  });

  test('--tarball picks the tarball workload with an absolute path; the workload without a file, or the file with other tests, is refused', () => {
    assert.deepEqual(specFromFlags({ target: '/mnt', tarball: 'linux-3.9.1.tar.xz' }), {
      target: '/mnt',
      tests: ['tarball'],
      tarball: resolve('linux-3.9.1.tar.xz'),
    });
    assert.deepEqual(specFromFlags({ target: '/mnt', tests: 'tree,tarball', tarball: '/srv/l.tar' }).tests, ['tree', 'tarball']);
    assert.throws(() => specFromFlags({ target: '/mnt', tests: 'tarball' }), /the 'tarball' workload needs --tarball FILE/);
    assert.throws(() => specFromFlags({ target: '/mnt', tests: 'tree', tarball: '/srv/l.tar' }), /add it to --tests/);
    // A preset with it gives its settings: the workloads' three timed passes.
    assert.deepEqual(specFromFlags({ target: '/mnt', preset: 'workloads', tarball: '/srv/l.tar' }), {
      target: '/mnt',
      preset: 'workloads',
      tests: ['tarball'],
      tarball: '/srv/l.tar',
    });
  });

  test('adaptive stopping: --precision as a percentage, --max-time as a duration; bad values name the flag', () => {
    assert.deepEqual(specFromFlags({ target: '/mnt', precision: '2%', 'max-time': '3s' }), {
      target: '/mnt',
      precision: 0.02,
      maxTimeSec: 3,
    });
    assert.equal(specFromFlags({ target: '/mnt', precision: '0.5' }).precision, 0.005);
    assert.equal(specFromFlags({ target: '/mnt', precision: '0' }).precision, 0, 'a fixed count of runs');
    assert.throws(
      () => specFromFlags({ target: '/mnt', precision: 'tight' }),
      /--precision 'tight' is not a percentage from 0 to 50, e\.g\. 2%/,
    );
    assert.throws(() => specFromFlags({ target: '/mnt', precision: '60%' }), /--precision '60%'/);
    assert.throws(() => specFromFlags({ target: '/mnt', 'max-time': '0.1s' }), /--max-time '0\.1s' is out of range/);
  });

  test('no warm-up, in any spelling', () => {
    for (const zero of ['0', '0s', '0.0', '0ms', '00']) assert.equal(specFromFlags({ target: '/mnt', warmup: zero }).warmupSec, 0, zero);
    assert.throws(() => specFromFlags({ target: '/mnt', warmup: '-1' }), UsageError);
    assert.throws(() => specFromFlags({ target: '/mnt', warmup: '11m' }), /--warmup '11m' is out of range/);
  });
});

describe('diskdelta run --job: a test the catalog never listed', () => {
  test('runs by its parameters, is stored, listed, exported and re-imported with the same id, title and parameters', async () => {
    const dir = scratch('job');
    const db = join(root, 'job.sqlite');
    const job = 'bs=128k,qd=32,threads=1,pattern=seq,rw=read';
    const params = { rw: 'read', blockSize: 131072, queueDepth: 32, threads: 1 };
    // Nor may random reads over the first 8 MiB be taken for random reads over the whole file.
    const spanned = { rw: 'randread', blockSize: 4096, queueDepth: 1, threads: 1, spanMiB: 8 };
    // A random read over another block size must not be taken for the catalog's rnd4k-q1t1-read.
    const o = await diskdelta([
      'run',
      '--target',
      dir,
      '--job',
      job,
      '--job',
      'bs=8k,rw=randread',
      '--job',
      'rw=randread,span=8m',
      ...SMALL,
      '--runs',
      '1',
      '--json',
      '--db',
      db,
    ]);
    assert.equal(o.code, 0, o.stderr);
    const doc = JSON.parse(o.stdout) as { id: number; results: Array<{ test: string; params: unknown }> };
    assert.deepEqual(
      doc.results.map((r) => [r.test, r.params]),
      [
        ['seq128k-q32t1-read', params],
        ['rnd8k-q1t1-read', { rw: 'randread', blockSize: 8192, queueDepth: 1, threads: 1 }],
        ['rnd4k-q1t1-read-span8m', spanned],
      ],
    );
    assert.deepEqual(leftovers(dir), []);

    const list = await diskdelta(['list', '--db', db]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^${doc.id}\\s.*measured.*\\s3\\s`, 'm'), 'listed with its 3 tests');
    const show = await diskdelta(['show', String(doc.id), '--db', db]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /sequential read 128K Q32T1/, 'titled from its parameters');

    const file = join(root, 'job-export.json');
    const exported = await diskdelta(['export', String(doc.id), '--out', file, '--db', db]);
    assert.equal(exported.code, 0, exported.stderr);
    const other = join(root, 'job-reimport.sqlite');
    const imported = await diskdelta(['import', file, '--db', other]);
    assert.equal(imported.code, 0, imported.stderr);
    const library = openLibrary({ dbPath: other });
    try {
      const [summary] = library.listRuns();
      assert.ok(summary);
      const run = library.getRun(summary.id);
      assert.deepEqual(
        run?.results.map((r) => [r.test, r.params, testTitle(r.test, r.params)]),
        [
          ['seq128k-q32t1-read', params, 'sequential read 128K Q32T1'],
          ['rnd8k-q1t1-read', { rw: 'randread', blockSize: 8192, queueDepth: 1, threads: 1 }, 'random read 8K Q1T1'],
          ['rnd4k-q1t1-read-span8m', spanned, 'random read 4K Q1T1 over the first 8 MiB'],
        ],
      );
    } finally {
      library.close();
    }
  });

  test('a span wider than the test size is refused before anything is written, naming both', async () => {
    const dir = scratch('span-wide');
    const o = await diskdelta(['run', '--target', dir, '--job', 'rw=randread,span=64m', ...SMALL, '--db', join(root, 'span.sqlite')]);
    assert.equal(o.code, 2, o.stderr);
    assert.match(o.stderr, /rnd4k-q1t1-read-span64m covers 64 MiB, more than the test size of 32 MiB: raise the size/);
    assert.deepEqual(readdirSync(dir), [], 'no test file was made');
  });

  test('a --job of catalog parameters is the catalog test; bad keys and values name the key', () => {
    assert.deepEqual(specFromFlags({ target: '/mnt', job: ['bs=4k,qd=1,threads=1,rw=randread'] }).tests, ['rnd4k-q1t1-read']);
    assert.deepEqual(specFromFlags({ target: '/mnt', tests: 'seq128k-q32t1-read' }).tests, ['seq128k-q32t1-read'], 'its id names it too');
    assert.throws(() => specFromFlags({ target: '/mnt', tests: 'seq1024k-q32t1-read' }), /unknown test 'seq1024k-q32t1-read'/);
    assert.deepEqual(specFromFlags({ target: '/mnt', tests: 'seeks', job: ['rw=randrw,read=50,qd=8'] }).tests, [
      'seeks',
      'mix50-rnd4k-q8t1',
    ]);
    assert.throws(
      () => specFromFlags({ target: '/mnt', tests: 'rnd4k-q1t1-read', job: ['rw=randread'] }),
      /name the test 'rnd4k-q1t1-read' twice/,
    );
    assert.throws(
      () => specFromFlags({ target: '/mnt', job: ['rw=read,bs=1000'] }),
      /--job 'rw=read,bs=1000': bs=1000 is not a multiple of 512/,
    );
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['rw=read,qd=0'] }), /qd=0: expected a whole number from 1 to 1024/);
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['rw=read,colour=red'] }), /unknown key 'colour'/);
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['pattern=seq,rw=rw'] }), /pattern=seq takes rw=read\|write/);
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['rw=read,read=50'] }), /read= is for a mix/);
    assert.deepEqual(specFromFlags({ target: '/mnt', job: ['rw=randread,span=2g'] }).tests, ['rnd4k-q1t1-read-span2g']);
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['rw=randread,span=1500k'] }), /span=1500k is not a whole number of MiB/);
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['rw=randread,span=0'] }), /span '0' must be larger than zero/);
    assert.throws(() => specFromFlags({ target: '/mnt', job: ['rw=seeks,threads=5'] }), /use --tests seeks/);
  });
});

describe('diskdelta run: bad usage → exit 2, naming the flag', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['bad --size', ['--size', '1XB'], /--size '1XB'/],
    ['negative --size', ['--size', '-1G'], /--size/],
    ['too small --size', ['--size', '1MiB'], /--size '1MiB' is too small/],
    // Not "sizeBytes: Too big: expected int to be <=9007199254740991".
    ['absurd --size', ['--size', '100000T'], /^diskdelta run: --size '100000T' is too large: use at most 1PiB/],
    ['a test named twice', ['--tests', 'seeks,rnd4k-q1t1-read,seeks'], /--tests names 'seeks' twice: each test runs once/],
    ['bad --duration', ['--duration', 'abc'], /--duration 'abc'/],
    ['zero --duration', ['--duration', '0'], /--duration '0'/],
    ['bad --runs', ['--runs', '0'], /--runs '0'/],
    ['unknown test', ['--tests', 'seq1m-q8t1-read,warp-speed'], /--tests: unknown test 'warp-speed'/],
    ['unknown preset', ['--preset', 'turbo'], /--preset 'turbo' is unknown/],
    ['unknown flag', ['--colour', 'red'], /--colour/],
  ];
  for (const [name, flags, says] of cases) {
    test(name, async () => {
      const dir = scratch(`usage-${name.replace(/\W+/g, '-')}`);
      const o = await diskdelta(['run', '--target', dir, ...flags, '--no-save']);
      assert.equal(o.code, 2, `exit 2; stderr: ${o.stderr}`);
      assert.match(o.stderr, says);
      assert.equal(o.stdout, '');
      assert.deepEqual(readdirSync(dir), []);
    });
  }

  test('missing --target', async () => {
    const o = await diskdelta(['run', '--tests', 'seeks', '--no-save']);
    assert.equal(o.code, 2);
    assert.match(o.stderr, /--target PATH is required/);
  });
});

describe('diskdelta run: failures → non-zero with a clear message, nothing left', () => {
  test('a target that does not exist', async () => {
    const missing = join(root, 'no-such-folder');
    const o = await diskdelta(['run', '--target', missing, '--tests', 'seeks', ...SMALL, '--no-save', '--json']);
    assert.notEqual(o.code, 0);
    assert.notEqual(o.code, 2, 'not a usage error: the flags were fine');
    assert.match(o.stderr, /does not exist/);
    assert.ok(o.stderr.includes(missing), 'names the path');
    // No half document: one JSON error object (failure-out.ts), so a script that asked for JSON reads JSON.
    assert.equal((JSON.parse(o.stdout) as { error: { code: string } }).error.code, 'target-missing');
    assert.ok(!existsSync(missing));
  });

  test('a regular file as target', async () => {
    const file = join(scratch('file'), 'data.bin');
    writeFileSync(file, 'x');
    const o = await diskdelta(['run', '--target', file, '--tests', 'seeks', ...SMALL, '--no-save']);
    assert.equal(o.code, 3, o.stderr);
    assert.match(o.stderr, /regular file, not a folder/);
  });

  test('tmpfs without --buffered: exit 5, says why and what to do', async (t) => {
    if (!existsSync('/dev/shm')) return t.skip('no /dev/shm here');
    const dir = mkdtempSync('/dev/shm/diskdelta-cli-test-');
    try {
      const o = await diskdelta(['run', '--target', dir, '--tests', 'seq1m-q1t1-read', ...SMALL, '--no-save']);
      assert.equal(o.code, 5, o.stderr);
      assert.match(o.stderr, /O_DIRECT.*--buffered/s);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a tarball tar cannot extract: the message carries tar's own reason from the worker's stderr", async () => {
    const dir = scratch('bad-tarball');
    const bad = join(root, 'not-a-tarball.tar');
    writeFileSync(bad, Buffer.alloc(64 * 1024, 0x5a));
    const o = await diskdelta(['run', '--target', dir, '--tests', 'tarball', '--tarball', bad, '--runs', '1', '--no-save']);
    assert.notEqual(o.code, 0);
    assert.match(o.stderr, /tar could not extract/);
    assert.match(o.stderr, /said on stderr:\n {2}tar: This does not look like a tar archive/, o.stderr);
    assert.doesNotMatch(o.stderr, /diskdelta-worker: error:/, "the worker's echo of its own error is not repeated");
    assert.deepEqual(readdirSync(dir), []);
  });

  // A virtual filesystem has no disk under it: every kind of test (rates, seeks, the workloads,
  // a tarball) says so first, exit 3, before any other check (its 0 bytes free are no "full disk").
  for (const target of ['/sys/kernel', '/proc/sys']) {
    test(
      `${target}: every kind of test says "virtual filesystem", exit 3`,
      { skip: !existsSync(target) && `no ${target} here` },
      async () => {
        const tarball = join(root, 'some.tar');
        writeFileSync(tarball, Buffer.alloc(10240));
        for (const tests of ['seq1m-q1t1-read', 'seeks', 'tree-3.9.1', 'tree', 'bigfile', 'app-start', 'tarball']) {
          const extra = tests === 'tarball' ? ['--tarball', tarball] : [];
          const o = await diskdelta(['run', '--target', target, '--tests', tests, ...extra, ...SMALL, '--no-save']);
          assert.equal(o.code, 3, `${tests}: ${o.stderr}`);
          assert.match(
            o.stderr,
            /is on (sysfs|proc), a virtual filesystem the kernel makes up: there is no disk under it/,
            `${tests}: ${o.stderr}`,
          );
        }
        // The TRIM verbs check the same way (discard-cost needs root before anything).
        const verbs = [['trim-audit', target], ...(process.getuid?.() === 0 ? [['discard-cost', target, '--runs', '1']] : [])];
        for (const args of verbs) {
          const o = await diskdelta(args);
          assert.equal(o.code, 3, `${args[0]}: ${o.stderr}`);
          assert.match(o.stderr, /a virtual filesystem the kernel makes up/, `${args[0]}: ${o.stderr}`);
        }
      },
    );
  }

  test('not enough free space: exit 4', async () => {
    const dir = scratch('space');
    const o = await diskdelta([
      'run',
      '--target',
      dir,
      '--tests',
      'seq1m-q1t1-read',
      '--size',
      '1024TiB',
      '--duration',
      '0.3',
      '--warmup',
      '0',
      '--no-save',
    ]);
    assert.equal(o.code, 4, o.stderr);
    assert.match(o.stderr, /not enough free space/);
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('diskdelta run: stopping it', () => {
  // An hour-long window: a run that ignored the signal could not end on its own within the
  // test's timeout, so "it stopped" needs no timed assertion (how fast is only reported).
  const long = ['--tests', 'rnd4k-q1t1-read', '--size', '64MiB', '--duration', '3600', '--warmup', '0', '--runs', '1', '--no-save'];
  const HANG = { timeout: STARTS_WITHIN_MS + 60_000 };
  const start = (t: { after(fn: () => void): void }, dir: string) => {
    const child = spawn(NODE, ['bin/diskdelta.js', 'run', '--target', dir, ...long], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    t.after(() => child.kill('SIGKILL'));
    return { child, exited, stderr: () => stderr };
  };
  /** The worker's pid, from its test file's name: .diskdelta-<pid>-<random>.tmp */
  const workerPid = (dir: string) => Number(/^\.diskdelta-(\d+)-/.exec(leftovers(dir)[0] ?? '')?.[1]);

  test('SIGTERM to the CLI stops the worker and removes the test file before the CLI exits, exit 7', HANG, async (t) => {
    const dir = scratch('term');
    const run = start(t, dir);
    assert.ok(await waitForTestFile(dir), 'the run started');
    await new Promise((r) => setTimeout(r, 300)); // into the timed window
    const signalled = performance.now();
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 7, run.stderr());
    t.diagnostic(`the CLI exited ${(performance.now() - signalled).toFixed(1)} ms after SIGTERM`);
    assert.match(run.stderr(), /cancelled/);
    assert.deepEqual(readdirSync(dir), [], 'no test file once the command has returned');
  });

  // npx runs bins with the first `node` on the PATH; Debian 12's is Node 18/20, under which
  // bin/diskdelta.js re-runs itself with the project's Node 24: signals must get through.
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
    const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    const [major = 99, minor = 0] = version.split('.').map(Number);
    return version !== '' && (major < 22 || (major === 22 && minor < 18));
  });
  // Every signal that ends the launcher ends the run and removes its files: those it can catch
  // it passes on (the CLI stops cleanly, exit 7); those it cannot (SIGKILL), or must not
  // (a fault signal), or Node cannot (a real-time signal), end it outright, and the real CLI
  // notices that its launcher is gone.
  const FORWARDED = [
    'SIGHUP',
    'SIGINT',
    'SIGQUIT',
    'SIGTERM',
    'SIGALRM',
    'SIGUSR1',
    'SIGUSR2',
    'SIGVTALRM',
    'SIGPROF',
    'SIGXCPU',
    'SIGXFSZ',
  ];
  const OUTRIGHT: Array<[string, NodeJS.Signals | number]> = [
    ['SIGKILL', 'SIGKILL'],
    ['SIGSEGV', 'SIGSEGV'],
    ['SIGRTMIN (34)', 34],
  ];
  const cases: Array<[string, NodeJS.Signals | number, boolean]> = [
    ...FORWARDED.map((s): [string, NodeJS.Signals, boolean] => [s, s as NodeJS.Signals, true]),
    ...OUTRIGHT.map(([name, s]): [string, NodeJS.Signals | number, boolean] => [name, s, false]),
  ];
  for (const [name, signal, forwarded] of cases) {
    test(
      `${name} to the launcher started by an old Node ends the run: worker gone, test file removed${forwarded ? ', exit 7 passed on' : ''}`,
      {
        skip: !systemNode && 'no Node older than 22.18 here, so bin/diskdelta.js does not re-run itself',
        timeout: STARTS_WITHIN_MS + 60_000,
      },
      async (t) => {
        const dir = scratch(`wrapper-${name.replace(/\W+/g, '-')}`);
        const child = spawn(systemNode!, ['bin/diskdelta.js', 'run', '--target', dir, ...long], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        // Only if the test failed: this run's processes (its folder is in their command line), by
        // pid, each only while it is still the process pgrep listed (scripts/own-process.ts).
        t.after(() => {
          for (const pid of spawnSync('pgrep', ['-f', `target ${dir}`], { encoding: 'utf8' })
            .stdout.split('\n')
            .filter(Boolean))
            signalOwn(ownProcess(Number(pid)), 'SIGKILL');
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
        assert.ok(await waitForTestFile(dir), 'the run started');
        process.kill(child.pid!, signal); // the launcher's pid only, as `kill PID` does
        const code = await exited;
        if (forwarded) {
          assert.equal(code, 7, stderr);
          assert.match(stderr, /cancelled/);
        }
        const ms = await msUntilNoTestFile(dir);
        t.diagnostic(`${name}: test file gone ${ms.toFixed(1)} ms after the launcher exited`);
        assert.deepEqual(readdirSync(dir), [], `the test file is gone; the CLI said: ${stderr}`);
        let left = 0;
        for (let i = 0; i < 300 && (left = spawnSync('pgrep', ['-f', `target ${dir}`]).status === 0 ? 1 : 0); i++)
          await new Promise((r) => setTimeout(r, 100));
        assert.equal(left, 0, 'no process of that run is left (the CLI and its worker are gone)');
      },
    );
  }

  test('the worker SIGKILLed under the CLI: a clear failure, and the CLI removes the stale file itself', HANG, async (t) => {
    const dir = scratch('kill-worker');
    const run = start(t, dir);
    assert.ok(await waitForTestFile(dir), 'the run started');
    const pid = workerPid(dir);
    assert.ok(pid > 0, `worker pid from ${leftovers(dir)[0]}`);
    const worker = ownProcess(pid);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(signalOwn(worker, 'SIGKILL'), 'the worker still ran'); // as the OOM killer would
    const code = await run.exited;
    assert.notEqual(code, 0);
    assert.match(run.stderr(), /killed by SIGKILL/);
    assert.deepEqual(readdirSync(dir), [], 'the CLI swept the file the dead worker could not remove');
  });

  test('SIGKILL of the CLI: the orphaned worker stops too and removes its file', HANG, async (t) => {
    const dir = scratch('kill-cli');
    const run = start(t, dir);
    assert.ok(await waitForTestFile(dir), 'the run started');
    const worker = ownProcess(workerPid(dir));
    // Only if the test failed and the worker lives on (gone already is the normal case).
    t.after(() => signalOwn(worker, 'SIGKILL'));
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGKILL');
    await run.exited;
    const ms = await msUntilNoTestFile(dir);
    t.diagnostic(`test file removed ${ms.toFixed(1)} ms after the CLI was killed`);
    // Its run lasts an hour: a worker that did not notice its parent die would still hold the file.
    assert.ok(Number.isFinite(ms), 'the worker noticed its parent died and removed its file');
  });
});

describe('diskdelta run on a block device (a loop device)', () => {
  let image = '';
  let device = '';
  before(() => {
    if (process.getuid?.() !== 0) return;
    image = join(root, 'loop.img');
    writeFileSync(image, '');
    spawnSync('truncate', ['-s', '64M', image]);
    const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
    if (l.status === 0) device = l.stdout.trim();
  });
  after(() => {
    if (device) spawnSync('losetup', ['-d', device]);
  });

  test('a write test asked for by name → exit 2, nothing written', async (t) => {
    if (!device) return t.skip(process.getuid?.() !== 0 ? 'needs root to attach a loop device' : 'losetup -f --show failed');
    const o = await diskdelta(['run', '--target', device, '--tests', 'seq1m-q1t1-read,rnd4k-q1t1-write', ...SMALL, '--no-save']);
    assert.equal(o.code, 2, o.stderr);
    assert.match(o.stderr, /refusing write tests on the block device.*rnd4k-q1t1-write/);
  });

  test('a preset on a device runs its read tests only and says the writes were skipped', async (t) => {
    if (!device) return t.skip(process.getuid?.() !== 0 ? 'needs root to attach a loop device' : 'losetup -f --show failed');
    const o = await diskdelta(['run', '--target', device, '--preset', 'quick', ...SMALL, '--no-save', '--json']);
    assert.equal(o.code, 0, o.stderr);
    const doc = JSON.parse(o.stdout) as { target: { kind: string }; results: Array<{ test: string }>; warnings: Array<{ code: string }> };
    assert.equal(doc.target.kind, 'block-device');
    assert.deepEqual(
      doc.results.map((r) => r.test),
      ['seq1m-q8t1-read', 'rnd4k-q1t1-read'],
    );
    assert.ok(doc.warnings.some((w) => w.code === 'writes-skipped'));
  });

  test('reads of a sparse image (never written: all holes) are flagged sparse-read in the table, the JSON and the report', async (t) => {
    if (!device) return t.skip(process.getuid?.() !== 0 ? 'needs root to attach a loop device' : 'losetup -f --show failed');
    const db = join(root, 'sparse.sqlite');
    const o = await diskdelta(['run', '--target', device, '--tests', 'seq1m-q8t1-read', ...SMALL, '--db', db]);
    assert.equal(o.code, 0, o.stderr);
    assert.match(o.stdout, /SEQ1M Q8T1 read .*sparse-read/);
    const why = `${device.slice('/dev/'.length)} reads ${image}, 64 MiB of whose 64 MiB are holes`;
    assert.ok(o.stdout.includes(why), o.stdout);
    const library = openLibrary({ dbPath: db });
    const run = library.getRun(1)!;
    library.close();
    assert.deepEqual(
      run.results[0]!.warnings.filter((w) => w.code === 'sparse-read').map((w) => w.message.slice(0, why.length)),
      [why],
    );
    const html = join(root, 'sparse.html');
    const report = await diskdelta(['report', '1', '--html', '--out', html, '--db', db]);
    assert.equal(report.code, 0, report.stderr);
    assert.ok(readFileSync(html, 'utf8').includes(why), 'the report says it');
  });
});
