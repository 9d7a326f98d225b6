#!/usr/bin/env node
// Entry point of the `diskdelta` command. The sources are TypeScript run directly by
// Node's type stripping (Node >= 22.18). The project pins Node 24 as the dev dependency
// `node`; when this file is started by an older system Node (npx runs bins with the first
// `node` on the PATH), it re-executes itself with that pinned Node.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
