// The sustained-write kind without a drive: its plan's refusals, the cost said before it starts,
// and its result from the worker's lines through the library, JSON export and import, CSV and
// `show` — the series over bytes written survives each. The real worker is native/test/
// sustained.test.ts; the speeds against a throttle of known shape are the lab's.
import { mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sustainedSeries } from '../../../shared/analysis/sustained-write.ts';
import { exportCsv } from '../../formats/csv-export.ts';
import { exportJson } from '../../formats/diskdelta-json.ts';
import { parseImport } from '../../formats/index.ts';
import { actionOf, exitCodeOf } from '../../../shared/model/failures.ts';
import type { RunRecord } from '../../../shared/model/results.ts';
import { runRecordSchema } from '../../../shared/model/schemas.ts';
import { openLibrary } from '../../store/library.ts';
import { runCli } from '../../../cli/run-cli-in-process.ts';
import { BenchError } from '../errors.ts';
import { PRESETS } from '../../../shared/catalog/presets.ts';
import { runBenchmark } from '../orchestrator.ts';
import { sustainedArgv } from '../worker-argv.ts';
import { samplePlan, workerStreams } from './fixtures/sustained-drive.ts';
import {
  costWarning,
  mergeIntervals,
  refuseSpanBeyondFree,
  starvedWarning,
  sustainedResult,
  sustainedWriteKind,
} from './sustained-write.ts';

const MB = 1e6;
const MiB = 2 ** 20;

function record(): RunRecord {
  const plan = samplePlan();
  const { lines, intervals } = workerStreams(
    plan,
    {
      levels: [
        [2e9, 400 * MB],
        [Infinity, 40 * MB],
      ],
    },
    {
      levels: [
        [0.3e9, 400 * MB],
        [Infinity, 40 * MB],
      ],
    },
  );
  return {
    label: 'QLC',
    notes: '',
    createdAt: '2026-12-01T10:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/mnt/ssd', kind: 'folder' },
    settings: { sustainedSpanBytes: 3e9, sustainedBlockBytes: MiB, sustainedDepth: 1, sustainedRestSec: 30, sustainedRecoveryBytes: 1e9 },
    engine: { name: 'diskdelta', version: '0.1.0', ioEngine: 'psync' },
    results: [sustainedResult(plan, lines, intervals)!],
    extras: [],
    warnings: [],
  };
}

test('the result: its figure is the speed past the cache; cache size, both speeds and the recovery are figures; the fill and the recovery are its two runs', () => {
  const r = record().results[0]!;
  const fig = (metric: string, subject = '') => r.figures!.find((f) => f.metric === metric && f.subject === subject)!.value!;
  assert.ok(Math.abs(r.bytesPerSec! / (40 * MB) - 1) < 0.001);
  assert.ok(Math.abs(fig('cacheBytes') / 2e9 - 1) < 0.005, `cache ${fig('cacheBytes')}`);
  assert.ok(Math.abs(fig('sustainedBytesPerSec', 'in the cache') / (400 * MB) - 1) < 0.001);
  assert.ok(Math.abs(fig('sustainedBytesPerSec', 'past the cache') / (40 * MB) - 1) < 0.001);
  assert.ok(Math.abs(fig('recoveredBytes') / 0.3e9 - 1) < 0.02, `recovered ${fig('recoveredBytes')}`);
  assert.deepEqual(
    r.runs.map((m) => [m.run, m.bytes]),
    [
      [1, 3e9],
      [2, 1e9],
    ],
  );
  assert.equal(r.statistic, 'single');
  assert.deepEqual(r.warnings, []);
});

test('a stream cut by a stop keeps its figures and says it was stopped', () => {
  const plan = samplePlan({ sustainedRecoveryBytes: 0 });
  const { lines, intervals } = workerStreams(plan, {
    levels: [
      [2e9, 400 * MB],
      [Infinity, 40 * MB],
    ],
  });
  lines.set('fill', { ...lines.get('fill')!, planned_bytes: 16e9, complete: false });
  const r = sustainedResult(plan, lines, intervals)!;
  assert.match(r.warnings.map((w) => `${w.code}: ${w.message}`).join('\n'), /sustained-stopped: stopped after 3\.0 GB of 16 GB/);
  assert.ok(r.figures!.find((f) => f.metric === 'cacheBytes')!.value! > 1.9e9);
  assert.equal(r.runs.length, 1);
});

test('library, JSON export and import, CSV: the figures and the series over bytes written survive each', async (t) => {
  const a = record();
  assert.ok(runRecordSchema.safeParse(a).success, 'the strict schema takes it');
  const series = sustainedSeries(a.results[0]!)!;
  assert.ok(series.length > 50);
  const lib = openLibrary({ dbPath: ':memory:' });
  const id = lib.saveRun(a);
  const stored = lib.getRun(id)!;
  lib.close();
  assert.deepEqual(stored.results[0]!.figures, a.results[0]!.figures);
  const near = (xs: typeof series, ys: typeof series) =>
    xs.length === ys.length &&
    xs.every(
      (p, i) => p.stream === ys[i]!.stream && Math.abs(p.bytes - ys[i]!.bytes) < 1e3 && Math.abs(p.bytesPerSec - ys[i]!.bytesPerSec) < 1,
    );
  assert.ok(near(sustainedSeries(stored.results[0]!)!, series), 'the library keeps the series');
  const [back] = parseImport(exportJson([a]), 'sustained.json');
  assert.deepEqual(back!.results[0]!.figures, a.results[0]!.figures);
  assert.ok(near(sustainedSeries(back!.results[0]!)!, series), 'JSON export and import keep the series');
  assert.deepEqual(back!.settings, a.settings);
  const csv = exportCsv([a]);
  const rows = csv.split('\r\n').filter((l) => l.includes(',series,sustained-write,'));
  assert.equal(rows.length, series.length, 'one CSV row per point');
  assert.match(rows[0]!, /,bytes\/s,fill at \d+ bytes written,$/);
  assert.match(csv, /,figure,sustained-write,.*,bytes,"cacheBytes \(measured: bytes written when the speed first fell/);

  const dir = mkdtempSync(join(tmpdir(), 'dd-sustained-kind-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'library.sqlite');
  const disk = openLibrary({ dbPath });
  const shown = disk.saveRun(a);
  disk.close();
  const out = await runCli(['show', String(shown), '--db', dbPath]);
  assert.match(
    out.stdout,
    /settings +sustained write: 2\.79 GiB in one stream of 1 MiB writes, 1 in flight; 954 MiB again after 30 s idle/,
  );
  assert.match(out.stdout, /written before the speed fell: 1\.86 GiB/);
  assert.match(out.stdout, /after 2\.0 GB this drive writes at 40 MB\/s/);
  // Per GiB written: 3 GB is 2.79 GiB, so three rows, the last partial; the first in the cache, the last past it.
  const perGiB = out.stdout.split('Sustained write: the write speed along the bytes written')[1] ?? '';
  assert.match(
    perGiB,
    /the stream, per 1 GiB written:\n {4}0 B – 1 GiB +400 MB\/s +in 2\.68 s\n {4}1 GiB – 2 GiB +1\d\d(\.\d)? MB\/s +in \d\.\d\d s\n/,
  );
  assert.match(perGiB, /\n {4}2 GiB – 2\.79 GiB +40\.00 MB\/s +in 21\.\d\d s\n/);
  assert.match(perGiB, /the stream after the rest, per 1 GiB written:\n {4}0 B – 954 MiB +\d+(\.\d+)? MB\/s +in \d+\.\d\d s\n/);
  const perGiBRows = csv.split('\r\n').filter((l) => l.includes(',per GiB,sustained-write,'));
  assert.equal(perGiBRows.length, 4, 'one CSV row per GiB of each stream');
  assert.match(perGiBRows[0]!, /,4\d{8}(\.\d+)?,bytes\/s,fill from 0 to 1073741824 bytes written in 2\.68\d s,$/);
});

test('refused before anything is written: a span past the free space names what fits; a filesystem too small for any says so', () => {
  assert.throws(
    () => refuseSpanBeyondFree('/mnt/ssd', 16 * 2 ** 30, 10 * 2 ** 30),
    (e: unknown) =>
      e instanceof BenchError &&
      e.code === 'span-no-space' &&
      /would write 16 GiB, but the filesystem of \/mnt\/ssd has 10 GiB free: lower the bytes to write to at most 9\.98 GiB/.test(e.message),
  );
  assert.throws(
    () => refuseSpanBeyondFree('/mnt/usb', 64 * MiB, 70 * MiB),
    (e: unknown) =>
      e instanceof BenchError && /has 70 MiB free: too small for a sustained write, which needs at least 80 MiB free/.test(e.message),
  );
  assert.doesNotThrow(() => refuseSpanBeyondFree('/mnt/ssd', 8 * 2 ** 30, 10 * 2 ** 30));
  // Through the kind's plan, on a real folder: this machine's free space is far below 2^49 bytes.
  assert.throws(
    () => sustainedWriteKind.plan({ target: tmpdir(), sustainedSpanBytes: 2 ** 49 }, PRESETS.standard, ['sustained-write']),
    (e: unknown) => e instanceof BenchError && e.code === 'span-no-space',
  );
});

test("the CLI's hint for a span past the free space names --sustained-span, the flag that sizes it, not --size (#38 item 18)", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-sustained-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const said = await runCli(['run', '--target', dir, '--preset', 'sustained', '--sustained-span', '512TiB', '--no-save']);
  assert.equal(said.code, exitCodeOf('no-space'), said.stderr);
  assert.match(said.stderr, /pass a smaller --sustained-span/);
  assert.doesNotMatch(said.stderr, /--size/);
  assert.equal(actionOf('span-no-space', 'app').text, 'Free some space on that disk, or lower the bytes the sustained write writes.');
});

test('the plan: the table’s defaults, the recovery at most the span; the argv its worker options; the cost said in bytes and time', () => {
  const plan = sustainedWriteKind.plan({ target: tmpdir(), sustainedSpanBytes: 256 * MiB }, PRESETS.standard, ['sustained-write']);
  assert.deepEqual(plan, {
    target: tmpdir(),
    sustainedSpanBytes: 256 * MiB,
    sustainedBlockBytes: MiB,
    sustainedDepth: 1,
    sustainedRestSec: 30,
    sustainedRecoveryBytes: 256 * MiB,
    ratedEnduranceBytes: 0,
    sampleMs: 500,
  });
  assert.deepEqual(sustainedArgv(plan), [
    'sustained',
    '--target',
    tmpdir(),
    '--size',
    String(256 * MiB),
    '--block',
    String(MiB),
    '--depth',
    '1',
    '--rest',
    '30',
    '--recovery-size',
    String(256 * MiB),
    '--sample-ms',
    '500',
  ]);
  assert.equal(
    costWarning(samplePlan({ sustainedSpanBytes: 64e9, sustainedRecoveryBytes: 4e9 })).message,
    "the sustained write writes 64 GB, rests 30 s and writes 4.0 GB again: about 2 min 46 s at 500 MB/s, 23 min 10 s at 50 MB/s. 68 GB counts against the drive's rated write endurance; what share of it is not known (a drive does not tell the kernel its rating): type the TBW of the drive's data sheet into Rated endurance. Stopping it keeps what it measured so far",
  );
  assert.match(
    costWarning(samplePlan({ sustainedSpanBytes: 64e9, sustainedRecoveryBytes: 4e9, ratedEnduranceBytes: 600e12 }), 'cli').message,
    /68 GB is 0\.011 % of the drive's rated write endurance of 600 TB\./,
  );
});

test('stored samples: adjacent intervals merged to at most the cap, their bytes and time exact', () => {
  const xs = Array.from({ length: 5001 }, (_, i) => ({ bytes: (i + 1) * 10, intervalBytes: 10, intervalNs: 5e8 }));
  const merged = mergeIntervals(xs, 2000);
  assert.ok(merged.length <= 2000 && merged.length > 1000);
  assert.equal(
    merged.reduce((n, x) => n + x.intervalBytes, 0),
    50010,
  );
  assert.equal(merged.at(-1)!.bytes, 50010);
});

test('stopped mid-stream through the orchestrator: the run ends with what was measured, says so, and the test file is gone', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-sustained-stop-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const fs = statfsSync(dir);
  const span = Math.min(8 * 2 ** 30, Math.floor((Number(fs.bavail) * Number(fs.bsize)) / 4 / MiB) * MiB);
  const controller = new AbortController();
  let samples = 0;
  let record: RunRecord;
  try {
    record = await runBenchmark(
      { target: dir, tests: ['sustained-write'], sustainedSpanBytes: span, sustainedRecoveryBytes: 0 },
      {
        signal: controller.signal,
        onEvent: (e) => {
          // Two intervals in: some of the stream is measured, most is not.
          if (e.type === 'sample' && ++samples === 2) controller.abort();
        },
      },
    );
  } catch (error) {
    if (error instanceof BenchError && error.code === 'no-direct-io') return t.skip(`${tmpdir()} takes no O_DIRECT`);
    throw error;
  }
  assert.match(
    record.warnings.map((w) => `${w.code}: ${w.message}`).join('\n'),
    /stopped: stopped during sustained-write: what it measured is kept/,
  );
  const result = record.results[0]!;
  assert.equal(result.test, 'sustained-write');
  assert.ok(result.runs[0]!.bytes > 0 && result.runs[0]!.bytes < span, `part of the span (${result.runs[0]!.bytes} of ${span})`);
  assert.ok(result.warnings.some((w) => w.code === 'sustained-stopped'));
  assert.equal(record.settings.sustainedSpanBytes, span);
  assert.deepEqual(readdirSync(dir), [], 'the test file is gone');
});

test('the CLI: `--preset sustained` runs it, the cost before it names the share of the rating given, or how to give it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-sustained-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const args = ['run', '--target', dir, '--preset', 'sustained', '--sustained-span', '64MiB', '--sustained-recovery', '0', '--no-save'];
  const rated = await runCli([...args, '--rated-endurance', '600TB']);
  if (/no-direct-io|O_DIRECT/.test(rated.stderr)) return t.skip(`${tmpdir()} takes no O_DIRECT`);
  assert.equal(rated.code, 0, rated.stderr);
  assert.match(
    rated.stderr,
    /warning: the sustained write writes 67 MB: about 0 s at 500 MB\/s, 1 s at 50 MB\/s\. 67 MB is 0\.000011 % of the drive's rated write endurance of 600 TB\./,
  );
  assert.match(rated.stdout, /sustained write: 64 MiB in one stream of 1 MiB writes, 1 in flight; the drive rated for 600 TB written/);
  const unrated = await runCli(args);
  assert.match(
    unrated.stderr,
    /what share of it is not known .*: give the TBW of the drive's data sheet with --rated-endurance, e.g\. --rated-endurance 600TB/,
  );
  assert.deepEqual(readdirSync(dir), [], 'the test file is gone');
});

test('the writer starved of a CPU is said with its intervals, bytes and speeds, once: not again beside a fall already set aside as busy', () => {
  const starved = { count: 4, of: 24, fromBytes: 168e6, toBytes: 231e6, wait: 0.765, bytesPerSec: 12.3e6, elsewhereBytesPerSec: 20.2e6 };
  assert.equal(
    starvedWarning({ starved, setAside: [] })?.message,
    'other processes took the CPU: in 4 of 24 intervals (between 168 MB and 231 MB written) the writer waited for one 77 % of the time, and wrote 12.30 MB/s against 20.20 MB/s in the others: those intervals may show the machine, not the drive; measure again when the machine is idle',
  );
  const busyFall = {
    atBytes: 1,
    beforeBytesPerSec: 2,
    afterBytesPerSec: 1,
    lastedIntervals: 9,
    lastedSec: 4.5,
    cpuWait: { before: 0, during: 0.5 },
    why: 'busy' as const,
    spread: 0.05,
  };
  assert.equal(starvedWarning({ starved, setAside: [busyFall] }), null);
  assert.equal(starvedWarning({ starved: null, setAside: [] }), null);
});
