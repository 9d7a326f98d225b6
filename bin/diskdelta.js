#!/usr/bin/env node
// Entry point of the `diskdelta` command. The sources are TypeScript run directly by
// Node's type stripping (Node >= 22.18). The project pins Node 24 as the dev dependency
// `node`; when this file is started by an older system Node (npx runs bins with the first
// `node` on the PATH), it re-executes itself with that pinned Node.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// What `kill PID` or a closing terminal sends to this process must reach the real one.
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

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
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (error) => {
    say(`diskdelta: cannot start ${pinned}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    // Die of the same signal, so that the caller sees what the child saw.
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
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
