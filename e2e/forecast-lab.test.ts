// TRUTH for `diskdelta forecast` (issue #42): a loop device throttled like the 2011 laptop disk
// (40 MB/s, 150 IOPS) plays the disk in use today; its rates and a workload are measured there.
// A spec sheet describes a second throttled device of known caps (120 MB/s, 1,000 IOPS); the
// product's forecast (the spec sheet's schema, the candidate, the workload model) says how long
// the workload takes there; then the workload runs there. Each phase within ±15 %.
//
// Workloads that READ: programs starting from a cold cache, two mixes (the default programs,
// mostly large files; many 4 KiB files). WRITES on the default mount are not the throttle's: the
// kernel's flusher threads write the page cache back outside the group (syncfs hands them the
// work), so the worker's 80 MB big file "wrote" in 0.08 s under a 40 MB/s cap. The write phases
// are judged with both filesystems remounted `-o sync`: each write(2) is then written back in the
// writer's own context, inside its group, and the cap holds (80 MB in 1.97 s). That is a lab
// condition, not how a user's disk writes (writeback overlaps the writer, and the forecast's
// "same mount options" assumption holds here only because both loops use the same one): it checks
// the model's arithmetic for a big file and a tree written under caps that govern them. Deletes
// are printed, not judged: their I/O is the journal's commit, written by ext4's jbd2 thread
// outside the group (a tree's delete took 0.38 s on the 40 MB/s loop and 0.36 s on the 120 MB/s
// one), so no cap here governs them. Unchecked: writeback overlapping a buffered writer, deletes,
// a fast cache.
//
// Needs root, losetup, mkfs.ext4 and cgroup v1 blkio; skips with the reason elsewhere. Its groups
// and folders are named dd-forecast-*, removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runBenchmark } from '../electron/node/bench/orchestrator.ts';
import { locateWorker } from '../electron/node/bench/worker-client.ts';
import { phaseFigures } from '../electron/node/bench/kinds/workload.ts';
import { resultWithoutRuns } from '../electron/node/formats/common.ts';
import { parseStdout } from '../native/test/worker-harness.ts';
import type { WorkerMessage } from '../electron/node/bench/worker-protocol.ts';
import type { RunRecord } from '../electron/shared/model/results.ts';
import { parseCandidateSpec } from '../electron/shared/model/candidate.ts';
import { candidateFromSpec, capCandidate, FIGURES, FIGURE_KEYS, type DriveFigures } from '../electron/shared/analysis/candidate.ts';
import { ACCESS_CURVE_TEST, accessCurveFigures, curveOfResult, streamTraceCurve } from '../electron/shared/analysis/access-trace.ts';
import { hitAt, replaySecondsOn } from '../electron/shared/analysis/replay-forecast.ts';
import { bigfileArgv, recordArgv, treeArgv } from '../electron/node/bench/worker-argv.ts';
import { readLines } from '../electron/node/files/read-lines.ts';
import { forecastCandidates } from '../electron/shared/analysis/candidate-forecast.ts';
import { HDD_CAPS, labUnavailable, setUpThrottledLab, type LabCaps, type ThrottledLab } from './throttled-lab.ts';
import { measureUntilWithin, missOf } from './judge-against-cap.ts';

const NEW_CAPS: LabCaps = { bytesPerSec: 120e6, iops: 1000 };
const TOLERANCE = 0.15;
const MIXES = { programs: [], 'small files': ['--app-mix', 'small', '--app-files', '100'] } as const;
type Mix = keyof typeof MIXES;

let reason = labUnavailable();
let old: ThrottledLab | null = null;
let next: ThrottledLab | null = null;

before(() => {
  if (reason) return;
  try {
    old = setUpThrottledLab({ name: 'dd-forecast-old', sizeBytes: 1024 * 2 ** 20, caps: HDD_CAPS, filesystem: true });
    next = setUpThrottledLab({ name: 'dd-forecast-new', sizeBytes: 1024 * 2 ** 20, caps: NEW_CAPS, filesystem: true });
  } catch (error) {
    reason = `cannot set the lab up: ${(error as Error).message}`;
  }
});

after(() => {
  old?.tearDown();
  next?.tearDown();
});

/** The spec sheet of the second device: its caps as a datasheet would state them (no fast cache). */
function specOf(caps: LabCaps): unknown {
  const mbps = caps.bytesPerSec / 1e6;
  const io = { read: caps.iops, write: caps.iops };
  return {
    format: 'diskdelta-candidate',
    version: 1,
    name: `throttled loop ${mbps} MB/s, ${caps.iops} IOPS`,
    interface: 'sata',
    capacityGB: 1,
    sequentialMBps: { read: mbps, write: mbps },
    random4kIops: { qd1: io, qd32: io },
    fastCache: { sizeGB: 0, writeMBpsPastCache: mbps },
    enduranceTBW: 1,
    source: 'e2e/forecast-lab.test.ts: the blkio caps of the second loop device',
  };
}

/** A workload verb run on a lab, in its group, as the product aggregates it (phaseFigures), as a workload run. */
function workloadRun(lab: ThrottledLab, test: string, args: string[], label: string): Promise<RunRecord> {
  return new Promise((resolve, reject) => {
    const child = spawn(lab.wrap(locateWorker()), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args[0]} exited ${code}: ${stderr}${stdout}`));
      const messages = parseStdout(stdout);
      const info = messages.find((m): m is Extract<WorkerMessage, { type: 'workload' }> => m.type === 'workload') ?? null;
      const passes = messages.filter((m): m is Extract<WorkerMessage, { type: 'phase' }> => m.type === 'phase');
      if (test === 'app-start' && passes.some((p) => p.cold !== 'drop-caches'))
        return reject(new Error('the start was not cold: the caches were not dropped'));
      const figures = phaseFigures(passes, info);
      resolve({
        label,
        notes: '',
        createdAt: new Date().toISOString(),
        source: 'measured',
        sourceFormat: 'diskdelta',
        sourceMeta: {},
        target: { path: lab.mountPoint!, kind: 'folder' },
        settings: {},
        engine: { name: 'diskdelta-worker', version: 'lab' },
        results: [resultWithoutRuns({ test, params: null, bytesPerSec: null, iops: null, figures })],
        extras: [],
        warnings: [],
      });
    });
  });
}

/** The app-start workload on a lab. */
function appStart(lab: ThrottledLab, mix: Mix): Promise<RunRecord> {
  const args = ['app-start', '--target', lab.mountPoint!, '--readers', '4', ...MIXES[mix], '--runs', '3', '--warmup-passes', '1'];
  return workloadRun(lab, 'app-start', args, `forecast lab: app-start (${mix})`);
}

/** Today's disk: its six rates, as `diskdelta run` measures them. */
async function ratesToday(lab: ThrottledLab): Promise<RunRecord> {
  const current = await runBenchmark(
    {
      target: lab.mountPoint!,
      tests: FIGURE_KEYS.map((k) => FIGURES[k].tests[0]!),
      sizeBytes: 64 * 2 ** 20,
      durationSec: 2,
      warmupSec: 1,
      runs: 2,
      label: 'forecast lab: today',
    },
    { workerPath: lab.wrap(locateWorker()) },
  );
  for (const r of current.results) console.log(`# today ${r.test}: ${(r.bytesPerSec! / 1e6).toFixed(2)} MB/s`);
  return current;
}

const secondsOf = (run: RunRecord) => run.results[0]!.figures!.find((f) => f.subject === 'start')!.value!;

test(
  'forecast on a spec sheet of a second throttled device, then measured there: programs starting within ±15 %',
  { skip: reason ?? false, timeout: 600_000 },
  async () => {
    const current = await ratesToday(old!);
    const parsed = parseCandidateSpec(specOf(NEW_CAPS));
    assert.ok(parsed.ok, 'the lab spec sheet passes the schema');
    const candidate = candidateFromSpec(parsed.spec, 'lab');
    const mixes = Object.keys(MIXES) as Mix[];
    const forecasts = new Map<Mix, number>();
    for (const mix of mixes) {
      const workload = await appStart(old!, mix);
      const f = forecastCandidates({
        current,
        candidates: [candidate],
        limits: { link: null, cipher: null },
        workloads: [workload],
        writeSamples: [],
        workingSet: null,
      });
      const phase = f.candidates[0]!.workloads[0]!;
      assert.ok(phase.seconds !== null, phase.why ?? '');
      forecasts.set(mix, phase.seconds);
      console.log(
        `# ${mix}: today ${secondsOf(workload).toFixed(2)} s; forecast ${phase.seconds.toFixed(2)} s (${phase.low!.toFixed(2)}–${phase.high!.toFixed(2)})`,
      );
    }
    // A busy machine only slows the device down: measured again when outside (judge-against-cap.ts).
    const measured = await measureUntilWithin(
      mixes,
      async (ids) => new Map(await Promise.all(ids.map(async (mix) => [mix, secondsOf(await appStart(next!, mix as Mix))] as const))),
      (mix, seconds) => missOf(forecasts.get(mix as Mix)!, seconds, TOLERANCE),
    );
    for (const mix of mixes) {
      const m = measured.get(mix)!;
      const f = forecasts.get(mix)!;
      console.log(
        `# ${mix} on the second device: forecast ${f.toFixed(2)} s, measured ${m.toFixed(2)} s, forecast/measured ${(f / m).toFixed(3)}`,
      );
      assert.ok(Math.abs(f / m - 1) <= TOLERANCE, `${mix}: forecast ${f.toFixed(2)} s vs measured ${m.toFixed(2)} s ± 15 %`);
    }
  },
);

// The recorded day's replay (docs/forecast.md › A recorded day replayed): its disk half, what a
// cold page cache sends to the disk and how long that takes on a candidate. A "day" is recorded
// by the product's recorder (worker verb `record`, fanotify) on the first device while its files
// are read once from a cold cache; the replay model reads the trace's curve at a page cache of 0
// bytes (caches dropped: every touch misses) and forecasts the time on the spec sheet of the
// second device; then the same files are read there from a cold cache, in the second device's
// group, and timed. The cache half (the RAM on the curve) is not what this checks.
const REPLAY_FILES: Array<[string, number]> = [
  ...Array.from({ length: 200 }, (_, i): [string, number] => [`small-${i}`, 16 * 1024]),
  ...Array.from({ length: 4 }, (_, i): [string, number] => [`big-${i}`, 10 * 2 ** 20]),
];

function plantReplayFiles(lab: ThrottledLab): string[] {
  const folder = join(lab.mountPoint!, 'replay');
  mkdirSync(folder, { recursive: true });
  const paths = REPLAY_FILES.map(([name, bytes], i) => {
    const path = join(folder, name);
    writeFileSync(path, Buffer.alloc(bytes, (i % 250) + 1));
    return path;
  });
  spawnSync('sync');
  return paths;
}

function dropCaches(): void {
  spawnSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '3');
}

/**
 * Read requests the lab's device has completed (its /sys/block stat, first field). Printed beside
 * the replay's cold read: in one run 248 requests for 204 files (each small file one request, the
 * big ones ~1 MB each), so the throttle spends ~0.25 s of its IOPS and 0.38 s of its bytes, and
 * the read took 0.42 s: between the overlap the forecast assumes and the sum (0.58 s). CI saw
 * 0.447 s at load 2.5 (forecast/measured 0.843): a QD1 reader's wake-ups wait for the CPU.
 */
function readRequests(lab: ThrottledLab): number {
  return Number(
    readFileSync(`/sys/block/${basename(lab.device)}/stat`, 'utf8')
      .trim()
      .split(/\s+/)[0],
  );
}

/** Reads every file once, whole, in the lab's group; the seconds the reading took (not the process's start). */
function coldRead(lab: ThrottledLab, paths: string[]): Promise<number> {
  dropCaches();
  const script = `const fs=require('fs');const b=Buffer.alloc(1<<17);const t=performance.now();for(const f of process.argv.slice(1)){const fd=fs.openSync(f,'r');while(fs.readSync(fd,b,0,b.length,null)>0);fs.closeSync(fd);}console.log((performance.now()-t)/1000);`;
  return new Promise((resolve, reject) => {
    const child = spawn(lab.wrap(process.execPath), ['-e', script, ...paths], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('close', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`cold read exited ${code}: ${out}`))));
  });
}

/** The recorder on the lab's filesystem while `during` runs; its trace read back as the product keeps it. */
async function recordWhile(lab: ThrottledLab, during: () => Promise<void>, expectTouches: number) {
  const traces = mkdtempSync(join(tmpdir(), 'dd-forecast-replay-'));
  const trace = join(traces, 'trace.ndjson');
  const child = spawn(locateWorker(), recordArgv({ target: lab.mountPoint!, trace, seconds: 0, mergeMs: 0 }), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    for (let i = 0; i < 1000 && !stdout.includes('"record-start"') && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.ok(stdout.includes('"record-start"'), `the recorder started: ${stdout} ${stderr}`);
    await during();
    // Bounded: the recorder writes each touch within its merge window; a cap only against a hang.
    const touched = () =>
      readFileSync(trace, 'utf8')
        .split('\n')
        .filter((l) => /"k":"[^"]*r/.test(l)).length;
    for (let i = 0; i < 1000 && touched() < expectTouches; i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
    const read = streamTraceCurve(() => readLines(trace));
    assert.ok(!('reason' in read), 'reason' in read ? read.reason : '');
    return read;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(traces, { recursive: true, force: true });
  }
}

test(
  'a recorded day replayed: what a cold cache sends to the disk, forecast on the second device and read there within ±15 %',
  { skip: reason ?? false, timeout: 600_000 },
  async () => {
    const recorded = plantReplayFiles(old!);
    const there = plantReplayFiles(next!);
    const totalBytes = REPLAY_FILES.reduce((n, [, b]) => n + b, 0);
    const { summary, curve } = await recordWhile(
      old!,
      async () => {
        dropCaches();
        for (const path of recorded) readFileSync(path);
      },
      REPLAY_FILES.length,
    );
    // Kept and read back as a run keeps it, then read at a page cache of 0 bytes: the caches are dropped.
    const kept = curveOfResult({ test: ACCESS_CURVE_TEST, figures: accessCurveFigures(summary, curve, 'forecast lab') })!;
    assert.equal(kept.touches, REPLAY_FILES.length, 'each file recorded once');
    assert.equal(kept.accessedBytes, totalBytes);
    const cold = hitAt(kept, 0);
    const misses = { bytes: kept.accessedBytes * (1 - cold.ratio.value), touches: kept.touches - (cold.touches?.value ?? 0) };
    const parsed = parseCandidateSpec(specOf(NEW_CAPS));
    assert.ok(parsed.ok);
    const capped = capCandidate(candidateFromSpec(parsed.spec, 'lab'), { link: null, cipher: null });
    const figures = Object.fromEntries(FIGURE_KEYS.map((k) => [k, capped.figures[k].here])) as DriveFigures;
    // A candidate's central case: streaming and accesses overlap (replay-forecast.ts); adding them is its range's other end.
    const forecast = replaySecondsOn(figures, { ...misses, how: 'overlap' })!;
    const adding = replaySecondsOn(figures, { ...misses, how: 'add' })!;
    console.log(
      `# replay: ${kept.touches} touches, ${(kept.accessedBytes / 1e6).toFixed(1)} MB, all missing a cold cache; forecast ${forecast.toFixed(3)} s (adding: ${adding.toFixed(3)} s)`,
    );
    const measured = await measureUntilWithin(
      ['replay'],
      async () => {
        const before = readRequests(next!);
        const seconds = await coldRead(next!, there);
        console.log(`# replay cold read: ${seconds.toFixed(3)} s, ${readRequests(next!) - before} read requests for ${there.length} files`);
        return new Map([['replay', seconds]]);
      },
      (_, seconds) => missOf(forecast, seconds, TOLERANCE),
    );
    const m = measured.get('replay')!;
    console.log(
      `# replay on the second device: forecast ${forecast.toFixed(3)} s, measured ${m.toFixed(3)} s, forecast/measured ${(forecast / m).toFixed(3)}`,
    );
    assert.ok(Math.abs(forecast / m - 1) <= TOLERANCE, `forecast ${forecast.toFixed(3)} s vs measured ${m.toFixed(3)} s ± 15 %`);
  },
);

// The write phases (docs/forecast.md › Accuracy; the header says why `-o sync`): a 60 MB big
// file and a 300-file, 6 MB tree (the release's shape scaled down), each written 1 + 3 times.
const WRITE_WORKLOADS = {
  bigfile: (lab: ThrottledLab) => bigfileArgv({ target: lab.mountPoint!, sizeBytes: 60e6, runs: 3, warmupPasses: 1 }),
  tree: (lab: ThrottledLab) => treeArgv({ target: lab.mountPoint!, runs: 3, warmupPasses: 1, files: 300, bytes: 6e6 }),
} as const;
type WriteWorkload = keyof typeof WRITE_WORKLOADS;
const JUDGED = ['bigfile write', 'tree write'];

function remount(lab: ThrottledLab, how: 'sync' | 'async'): void {
  const r = spawnSync('mount', ['-o', `remount,${how}`, lab.mountPoint!], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount -o remount,${how} ${lab.mountPoint}: ${r.stderr.trim()}`);
}

/** Each phase's median seconds ("bigfile write" …) of the write workloads on a lab. */
async function writeWorkloads(lab: ThrottledLab, which: readonly WriteWorkload[]): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (const w of which) runs.push(await workloadRun(lab, w, WRITE_WORKLOADS[w](lab), `forecast lab: ${w} (sync mount)`));
  return runs;
}

const phaseSeconds = (runs: readonly RunRecord[]) =>
  new Map<string, number>(
    runs.flatMap((run) => run.results[0]!.figures!.map((f) => [`${run.results[0]!.test} ${f.subject}`, f.value!] as const)),
  );

test(
  'the write phases on a sync mount: a big file and a tree written, forecast on the second device and written there within ±15 %',
  { skip: reason ?? false, timeout: 600_000 },
  async () => {
    remount(old!, 'sync');
    remount(next!, 'sync');
    try {
      const current = await ratesToday(old!);
      const workloads = await writeWorkloads(old!, ['bigfile', 'tree']);
      const parsed = parseCandidateSpec(specOf(NEW_CAPS));
      assert.ok(parsed.ok, 'the lab spec sheet passes the schema');
      const f = forecastCandidates({
        current,
        candidates: [candidateFromSpec(parsed.spec, 'lab')],
        limits: { link: null, cipher: null },
        workloads,
        writeSamples: [],
        workingSet: null,
      });
      const today = phaseSeconds(workloads);
      // The premise: the cap governs these writes (on the default mount the big file took ~0.08 s).
      const capped = 60e6 / HDD_CAPS.bytesPerSec;
      assert.ok(
        today.get('bigfile write')! >= capped * (1 - TOLERANCE),
        `the 40 MB/s cap held the big file's write: ${today.get('bigfile write')!.toFixed(3)} s, at least ${capped.toFixed(2)} s expected`,
      );
      const forecasts = new Map<string, number>();
      for (const phase of f.candidates[0]!.workloads) {
        const id = `${phase.test} ${phase.phase}`;
        assert.ok(phase.seconds !== null, `${id}: ${phase.why ?? ''}`);
        forecasts.set(id, phase.seconds);
        console.log(
          `# ${id}: today ${today.get(id)!.toFixed(3)} s; forecast ${phase.seconds.toFixed(3)} s (${phase.low!.toFixed(3)}–${phase.high!.toFixed(3)})`,
        );
      }
      assert.deepEqual([...forecasts.keys()].sort(), ['bigfile delete', 'bigfile write', 'tree delete', 'tree write']);
      let there = phaseSeconds(await writeWorkloads(next!, ['bigfile', 'tree']));
      const measured = await measureUntilWithin(
        JUDGED,
        async (ids) => {
          const again = phaseSeconds(await writeWorkloads(next!, [...new Set(ids.map((id) => id.split(' ')[0] as WriteWorkload))]));
          if (ids.length === JUDGED.length) there = again;
          return new Map(ids.map((id) => [id, again.get(id)!]));
        },
        (id, seconds) => missOf(forecasts.get(id)!, seconds, TOLERANCE),
      );
      for (const id of [...forecasts.keys()].sort()) {
        const m = measured.get(id) ?? there.get(id)!;
        const fc = forecasts.get(id)!;
        const judged = JUDGED.includes(id) ? '' : ' (not judged: the journal writes it outside the group)';
        console.log(
          `# ${id} on the second device: forecast ${fc.toFixed(3)} s, measured ${m.toFixed(3)} s, forecast/measured ${(fc / m).toFixed(3)}${judged}`,
        );
      }
      for (const id of JUDGED) {
        const m = measured.get(id)!;
        const fc = forecasts.get(id)!;
        assert.ok(Math.abs(fc / m - 1) <= TOLERANCE, `${id}: forecast ${fc.toFixed(3)} s vs measured ${m.toFixed(3)} s ± 15 %`);
      }
    } finally {
      remount(old!, 'async');
      remount(next!, 'async');
    }
  },
);
