// The e2e tests run against the built renderer, so build it first (vite, ~2 s).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function globalSetup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const vite = fileURLToPath(new URL('../node_modules/.bin/vite', import.meta.url));
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vite build failed with status ${result.status}`);
}
