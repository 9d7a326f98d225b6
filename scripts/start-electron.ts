// `npm start`: build the renderer and the Electron bundles, then open the app. Where the
// Electron binary is missing (its download is blocked on some machines), say so plainly and
// point at browser mode.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildElectron } from './build-electron.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Electron executable, or null with the reason. */
export function findElectron(): { path: string } | { path: null; reason: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { path: null, reason: `the electron package points to ${String(path)}, which does not exist` };
  } catch (error) {
    return { path: null, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

if (import.meta.main) {
  const vite = spawnSync(fileURLToPath(new URL('../node_modules/.bin/vite', import.meta.url)), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  await buildElectron();
  const electron = findElectron();
  if (electron.path === null) {
    process.stderr.write(
      `npm start: the Electron binary is not installed (${electron.reason}).\n` +
        'Its download is blocked on this machine. The app was built (dist/renderer, dist/electron);\n' +
        'to use it here, run it in a browser instead:  npx diskdelta serve --open\n',
    );
    process.exit(1);
  }
  const child = spawn(electron.path, [fileURLToPath(new URL('../dist/electron/main.cjs', import.meta.url))], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
