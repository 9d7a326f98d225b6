#!/usr/bin/env node
// Entry point of the `diskdelta` command. The sources are TypeScript run directly by
// Node's type stripping (Node >= 22.18). The project pins Node 24 as the dev dependency
// `node`; when this file is started by an older system Node (npx runs bins with the first
// `node` on the PATH), it re-executes itself with that pinned Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    process.stderr.write(
      `diskdelta: Node ${process.versions.node} is too old (needs 24) and the project's ` +
        'Node 24 is missing: run `npm install` in the project folder first.\n',
    );
    process.exit(1);
  }
  const child = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (child.signal) process.kill(process.pid, child.signal);
  process.exit(child.status ?? 1);
}
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
