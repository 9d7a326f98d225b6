// Runs test files one process group each, under a time limit, so that no file can hang the run.
//
// `node --test a.ts b.ts …` waits for every file's process however long it takes: a test whose
// wait has no bound (a poll for a child's "ready" that never comes) held CI until its 90-minute
// limit. Here each file is its own `node --test FILE` in a new process group; past its limit the
// whole group gets SIGTERM, then SIGKILL after a grace period, and the file fails with its name
// and the limit it ran past. When a file ends, whatever it left running in its group is killed
// too: a test's children end with it.
import { readdirSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { diskLocksHeldBy } from './disk-lock-watch.ts';

export interface FileRun {
  file: string;
  /** The exit status of the file's `node --test` (1 when it was killed). */
  status: number;
  /** It ran past its limit and its process group was killed. */
  timedOut: boolean;
  /** Processes of its group still running when the file ended (killed then). */
  leftBehind: boolean;
  seconds: number;
  /** DiskDelta disk locks its processes were seen holding (when watched). */
  diskLocks: string[];
  /** The file's whole output, when it was captured rather than passed through. */
  output: string;
}

export interface FileRunOptions {
  /** Seconds this file may take. */
  limitSeconds: number;
  /** Flags for `node --test` (reporter, name pattern, …). */
  nodeTestArgs: readonly string[];
  /** Capture stdout + stderr into FileRun.output instead of passing them through. */
  capture: boolean;
  /** Seconds between SIGTERM and SIGKILL of a group past its limit. */
  graceSeconds?: number;
  env?: NodeJS.ProcessEnv;
  /** Sample, every 250 ms, which DiskDelta disk locks the file's processes hold (disk-lock-watch.ts). */
  watchDiskLocks?: boolean;
}

/** Groups still running, so a signal to the runner can end them (they are not in its own group). */
const running = new Set<ChildProcess>();

/**
 * Sends a signal to a child's process group. Only while the child has not been reaped (its pid,
 * and so its group's id, cannot have been given to another process), or right after its exit
 * event for the leftovers: a group id stays taken while any member lives.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is empty
  }
}

/**
 * Whether any process of the group is still alive. A zombie is not: an orphan that has already
 * exited (a lock holder whose parent ended first) waits for init to reap it, which is not the
 * test's doing (e2e/machine-lock.test.ts left one '[flock] <defunct>' for a moment).
 */
export function groupHasLiveProcess(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    // After the command's closing parenthesis: state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

export function runTestFile(file: string, options: FileRunOptions): Promise<FileRun> {
  const started = performance.now();
  // A runner started from inside a test (this module's own test) must not inherit node:test's
  // child protocol: with NODE_TEST_CONTEXT set, `node --test` reports in binary to a parent.
  const { NODE_TEST_CONTEXT: _parentRunner, ...env } = options.env ?? process.env;
  return new Promise((resolve) => {
    // detached: a new session and process group, whose id is the child's pid.
    const child = spawn(process.execPath, ['--test', ...options.nodeTestArgs, file], {
      detached: true,
      stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
      env,
    });
    running.add(child);
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (output += c));
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const diskLocks = new Set<string>();
    const watch = options.watchDiskLocks
      ? setInterval(() => child.pid !== undefined && diskLocksHeldBy(child.pid).forEach((name) => diskLocks.add(name)), 250)
      : undefined;
    const limit = setTimeout(() => {
      timedOut = true;
      signalGroup(child, 'SIGTERM');
      killer = setTimeout(() => signalGroup(child, 'SIGKILL'), (options.graceSeconds ?? 5) * 1000);
    }, options.limitSeconds * 1000);
    const finish = (status: number) => {
      clearTimeout(limit);
      clearTimeout(killer);
      clearInterval(watch);
      running.delete(child);
      // Anything of the file's still in its group (a server it started, a stuck grandchild).
      const leftBehind = child.pid !== undefined && groupHasLiveProcess(child.pid);
      signalGroup(child, 'SIGKILL');
      resolve({ file, status, timedOut, leftBehind, seconds: (performance.now() - started) / 1000, diskLocks: [...diskLocks], output });
    };
    child.on('error', (error) => {
      output += `run-tests: could not start node --test ${file}: ${error.message}\n`;
      finish(1);
    });
    child.on('close', (code, signal) => finish(timedOut ? 1 : (code ?? (signal ? 1 : 0))));
  });
}

/** Runs files with at most `concurrency` at once; `onDone` sees each as it ends. Results in the files' order. */
export async function runTestFiles(
  files: readonly string[],
  concurrency: number,
  optionsOf: (file: string) => FileRunOptions,
  onDone: (run: FileRun) => void,
): Promise<FileRun[]> {
  const results: FileRun[] = new Array<FileRun>(files.length);
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const index = next++;
      const file = files[index]!;
      const run = await runTestFile(file, optionsOf(file));
      results[index] = run;
      onDone(run);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, files.length)) }, lane));
  return results;
}

/** Ends every running file's group (the runner itself got SIGINT or SIGTERM). */
export function killRunningFiles(): void {
  for (const child of running) signalGroup(child, 'SIGKILL');
}

/** The counts node's spec reporter prints at its end ("ℹ tests 12" …), for a one-line summary. */
export function specCounts(output: string): { tests: number; pass: number; fail: number; skipped: number } | undefined {
  const count = (name: string) => Number(new RegExp(`^ℹ ${name} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
  const counts = { tests: count('tests'), pass: count('pass'), fail: count('fail'), skipped: count('skipped') };
  return Number.isNaN(counts.tests) ? undefined : counts;
}
