// Runs the worker binary in tests and checks every line it prints against the protocol.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { parseWorkerLine, type WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';
import { reachableCopy } from '../../scripts/other-user.ts';

const NATIVE = fileURLToPath(new URL('..', import.meta.url));
// DISKDELTA_WORKER runs these tests against another build (npm test runs them again on the
// AddressSanitizer + UBSan build, native/build/diskdelta-worker-asan).
export const WORKER = process.env.DISKDELTA_WORKER ?? join(NATIVE, 'build', 'diskdelta-worker');

export interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  messages: WorkerMessage[];
  stdout: string;
  stderr: string;
}

/**
 * Waits until a child's output (as `output()` reads it) includes `text`: fails if the child ends
 * first (it could not start: another user who cannot reach a file, say) or after `seconds`.
 */
export function untilSaid(child: ChildProcess, output: () => string, text: string, seconds = 30): Promise<void> {
  return new Promise((resolve, reject) => {
    if (output().includes(text)) return resolve();
    const done = (error?: Error) => {
      clearInterval(poll);
      clearTimeout(limit);
      child.off('close', ended);
      if (error) reject(error);
      else resolve();
    };
    const poll = setInterval(() => output().includes(text) && done(), 10);
    const limit = setTimeout(
      () => done(new Error(`the child did not say "${text}" within ${seconds} s; it said: ${output()}`)),
      seconds * 1000,
    );
    const ended = (code: number | null, signal: NodeJS.Signals | null) =>
      output().includes(text)
        ? done()
        : done(new Error(`the child ended (${signal ?? code}) before it said "${text}"; it said: ${output()}`));
    child.on('close', ended);
  });
}

/** Every stdout line is one protocol message ({"v":1,"type":…}) that the app's parser accepts. */
export function parseStdout(stdout: string): WorkerMessage[] {
  const lines = stdout.split('\n').filter((l) => l !== '');
  return lines.map((line, i) => {
    const json = JSON.parse(line) as { v?: unknown; type?: unknown };
    assert.equal(json.v, 1, `line ${i + 1} carries v=1: ${line.slice(0, 100)}`);
    assert.equal(typeof json.type, 'string', `line ${i + 1} has a type`);
    const parsed = parseWorkerLine(line);
    assert.ok(!('invalid' in parsed), `line ${i + 1} matches the protocol schema: ${line.slice(0, 160)}`);
    return parsed;
  });
}

/** The worker with an address-space limit in KiB (`ulimit -v`): the shell execs it, so its signal is seen. */
export function runWorkerLimited(kib: number, args: string[]): Promise<Outcome> {
  return runWorker(args, { via: ['/bin/sh', '-c', `ulimit -v ${kib} && exec "$0" "$@"`] });
}

/**
 * as: run as another user (root only; supplementary groups are dropped), or through a wrapper
 * command. Another user runs a staged copy of the worker when this checkout's folder is closed to it.
 */
export function runWorker(args: string[], as: { uid?: number; gid?: number; via?: string[] } = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const worker =
      as.uid !== undefined && as.uid !== process.getuid?.() ? reachableCopy(WORKER, { uid: as.uid, gid: as.gid ?? as.uid }) : WORKER;
    const [command, ...prefix] = as.via ?? [worker];
    const child = spawn(command!, [...prefix, ...(as.via ? [worker] : []), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: as.uid,
      gid: as.gid,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      try {
        resolve({ code, signal, stdout, stderr, messages: parseStdout(stdout) });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** A worker we control while it runs: messages as they arrive, wait for one, signal it. */
export function startWorker(args: string[], stdin: 'ignore' | 'pipe' = 'ignore') {
  const child = spawn(WORKER, args, { stdio: [stdin, 'pipe', 'pipe'] as const });
  const messages: WorkerMessage[] = [];
  const waiters: Array<{ test: (m: WorkerMessage) => boolean; resolve: (m: WorkerMessage) => void }> = [];
  let pending = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      const [m] = parseStdout(line);
      messages.push(m!);
      for (const w of [...waiters]) {
        if (w.test(m!)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m!);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<Outcome>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, messages, stdout, stderr })),
  );
  return {
    child,
    messages,
    exited,
    waitFor(test: (m: WorkerMessage) => boolean, timeoutMs = 20_000): Promise<WorkerMessage> {
      const seen = messages.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such message within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        void exited.then(() => reject(new Error(`the worker exited first; stderr: ${stderr}`)));
      });
    },
  };
}

export const testFiles = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('.diskdelta-') && f.endsWith('.tmp'));
