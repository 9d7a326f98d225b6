#!/usr/bin/env node
// Entry point of the `diskdelta` command. The sources are TypeScript run directly by
// Node's type stripping (Node >= 22.18). The project pins Node 24 as the dev dependency
// `node`; when this file is started by an older system Node (npx runs bins with the first
// `node` on the PATH), it re-executes itself with that pinned Node.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { STOP_SIGNALS } from './signals.js';

// The launcher's pid, for the real CLI it starts: a launcher that dies of a signal it cannot pass
// on (SIGKILL, a fault, a real-time signal) must not leave a run measuring on its own.
const LAUNCHER_ENV = 'DISKDELTA_LAUNCHER_PID';

// The launcher's own two messages name paths (the project folder may be called anything): their
// control characters are shown as \uXXXX, as electron/cli/terminal.ts does for everything else
// (this file runs before TypeScript can, so it cannot import that writer).
const say = (text) =>
  // eslint-disable-next-line diskdelta/terminal-writes -- the launcher's one writer, escaping as terminal.ts does
  process.stderr.write(
    `${text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`,
  );

/** A process's start time (field 22 of /proc/PID/stat), its parent, its argv; null once it is gone. */
function processFacts(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return { start: fields[19], parent: Number(fields[1]), argv };
  } catch {
    return null;
  }
}

/** How often a process went to sleep (voluntary context switches), or null once it is gone. */
function sleeps(pid) {
  try {
    return Number(/voluntary_ctxt_switches:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return null;
  }
}

// Started by `npx diskdelta` or `npm exec` (the README's way), this process is not npm's child:
// npm runs `sh -c 'diskdelta' …` and passes a SIGINT or SIGTERM it gets (`kill -INT` of the npx
// process) to that shell only. The shell either dies of it (SIGTERM), leaving this process
// measuring on, orphaned, or (dash, SIGINT) catches it and waits for this process to end, which
// then saves a run nobody wanted; npx only then ends, 130. So the first DiskDelta process under
// npm watches the processes above it up to npm itself, and stops as for a closed terminal
// (cleanly: the run is cancelled, the test file removed, exit 7) when one of them is gone, or
// when its shell wakes up: a shell waiting for its one child sleeps until a signal comes, and the
// only ones it catches rather than dies of are SIGINT and the SIGCHLD of this process stopping
// and going on again (Ctrl-Z, then fg: that one is told apart by the SIGCONT we get ourselves).
function watchNpmAncestors() {
  if (process.env.npm_command !== 'exec' || process.env[LAUNCHER_ENV]) return;
  const npm = process.env.npm_execpath;
  const watched = [];
  for (let pid = process.ppid; pid > 1 && watched.length < 4;) {
    const facts = processFacts(pid);
    if (!facts) return;
    watched.push({ pid, start: facts.start, argv0: facts.argv[0] ?? '' });
    // npm's own process, the last one to watch: it runs its CLI script (npm_execpath), and
    // names itself "npm exec diskdelta …" (process.title rewrites its whole command line).
    if ((npm && facts.argv.includes(npm)) || /^npm( |$)/.test(facts.argv[0] ?? '')) break;
    pid = facts.parent;
    if (watched.length === 4) return;
  }
  // Only npm's own shell and npm itself: DiskDelta started by another program that runs under
  // `npm exec` (Playwright's workers under `npx playwright`, a user's script) belongs to that
  // program, which wakes all the time and ends its children itself. Watching it stopped every
  // `diskdelta serve` the e2e specs start that way.
  if (watched.length > 2) return;
  if (watched.length === 2 && !/(^|\/)(sh|dash|bash|zsh|ksh)$/.test(watched[0].argv0)) return;
  const shell = watched.length > 1 ? watched[0].pid : null;
  let slept = shell ? sleeps(shell) : null;
  // Our own stop and continuation woke the shell (SIGCHLD): count from after it.
  let continued = false;
  process.on('SIGCONT', () => (continued = true));
  const timer = setInterval(() => {
    const gone = !watched.every((w) => processFacts(w.pid)?.start === w.start);
    const now = shell ? sleeps(shell) : null;
    if (continued) {
      continued = false;
      slept = now;
      return;
    }
    if (!gone && (slept === null || now === slept)) return;
    clearInterval(timer);
    process.kill(process.pid, gone ? 'SIGHUP' : 'SIGINT');
  }, 200);
  timer.unref();
}
watchNpmAncestors();

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    say(
      `diskdelta: Node ${process.versions.node} is too old (needs 24) and the project's ` +
        `Node 24 (${pinned}) is missing: run \`npm install\` in the project folder first.`,
    );
    process.exit(1);
  }
  // Asynchronous, so that this process can pass signals on: spawnSync would leave them here,
  // stopping this wrapper while the child (a run, or `serve` with its token) went on.
  // A terminal's Ctrl-C reaches both processes; the commands treat a repeated signal as one.
  // Every signal that would end this process is passed on instead (bin/signals.js): the real CLI
  // stops its run cleanly and exits 7, which this process then passes on.
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [LAUNCHER_ENV]: String(process.pid) },
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  child.on('error', (error) => {
    say(`diskdelta: cannot start ${pinned}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of STOP_SIGNALS) process.off(s, forward);
    if (!signal) process.exit(code ?? 1);
    // Die of the same signal, so that the caller sees what the child saw; one that Node ignores
    // or handles itself (SIGPIPE, SIGUSR1) ends it with the status a shell reports for it.
    process.kill(process.pid, signal);
    process.exit(128 + (constants.signals[signal] ?? 0));
  });
} else {
  // Started by the launcher above: when it is gone (its pid is no longer this process's parent),
  // stop as for a closed terminal, so that the run ends and its worker removes its test file.
  const launcher = Number(process.env[LAUNCHER_ENV]);
  delete process.env[LAUNCHER_ENV];
  if (launcher > 0) {
    const watch = setInterval(() => {
      if (process.ppid === launcher) return;
      clearInterval(watch);
      process.kill(process.pid, 'SIGHUP');
    }, 200);
    watch.unref();
  }
  // A reader that goes away (`diskdelta export 1 | head`) ends the output as for any Unix tool:
  // stop quietly (a measurement's worker still removes its test file: it dies with us) instead
  // of an unhandled EPIPE and a stack trace.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
  const { main } = await import('../electron/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
