// Signalling a process known only by its pid (a worker's grandchild, a daemon's pid file, a
// namespace's list), in tests on a machine shared with other suites: a pid is reused once its
// process is gone, and `kill PID` then hits whoever got the number. So a pid is taken together
// with its process's start time (field 22 of /proc/PID/stat, in clock ticks since boot: two
// processes with one pid never share it), and a signal is sent only while both still match.
// Node has no pidfd; the start time is the other accepted check (#38). What is left is
// the moment between the check and kill(2): a pid would have to be freed and handed out again
// inside it.
// A ChildProcess the test spawned itself needs none of this: child.kill() knows when its child
// is gone (Node reaps it, and kills nothing after).
import { readFileSync } from 'node:fs';

/** A process as a pid and the start time that makes the pid its own. */
export interface OwnProcess {
  pid: number;
  startTicks: string;
}

/**
 * The fields of /proc/PID/stat after the command name, or null when no such process exists:
 * "pid (comm) state ppid pgrp …", and comm may hold spaces and ')', so fields count from the last
 * ')'. [0] is field 3 (state), [1] the parent, [2] the process group, [19] the start time.
 */
export function statFields(pid: number): string[] | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The start time of `pid` now, or null when no such process exists (or /proc is not there). */
export function startTicksOf(pid: number): string | null {
  return statFields(pid)?.[19] ?? null; // field 22 of the line
}

/** Takes hold of `pid` as the process it is now; null when it is already gone. */
export function ownProcess(pid: number): OwnProcess | null {
  const startTicks = startTicksOf(pid);
  return startTicks === null ? null : { pid, startTicks };
}

/** Whether the process is still the one taken hold of (alive, same start time). */
export function isStillOwn(own: OwnProcess): boolean {
  return startTicksOf(own.pid) === own.startTicks;
}

/**
 * Sends `signal` to the process only while it is still the one taken hold of; returns whether
 * it was sent. A process that ended meanwhile (ESRCH) is not an error.
 */
export function signalOwn(own: OwnProcess | null, signal: NodeJS.Signals = 'SIGKILL'): boolean {
  if (!own || !isStillOwn(own)) return false;
  try {
    process.kill(own.pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
