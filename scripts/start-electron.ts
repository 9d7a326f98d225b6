// `npm start`: build the renderer and the Electron bundles, then open the app. Where the
// Electron binary is missing (its download is blocked on some machines), say so plainly and
// point at browser mode.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildElectron } from './build-electron.ts';
import { electronVersion, explainElectronDownloadFailure, findElectron } from './electron-path.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

if (import.meta.main) {
  const vite = spawnSync(fileURLToPath(new URL('../node_modules/.bin/vite', import.meta.url)), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  await buildElectron();
  let electron = findElectron();
  let installerOutput = '';
  if (electron.path === null) {
    // package.json keeps Electron's postinstall off (allowScripts), because the build machines
    // cannot download it and `npm install` must not fail there. On a user's machine the
    // download works: run the package's own installer once, here, on first start. Its output
    // is kept, not shown: on failure it is a stack trace whose first line is the fact.
    process.stderr.write('npm start: fetching the Electron binary (first start only: npm install skips it)…\n');
    const installer = spawnSync(process.execPath, [fileURLToPath(import.meta.resolve('electron/install.js'))], {
      cwd: root,
      encoding: 'utf8',
    });
    installerOutput = `${installer.stdout ?? ''}${installer.stderr ?? ''}${installer.error ? installer.error.message : ''}`;
    electron = findElectron();
  }
  if (electron.path === null) {
    process.stderr.write(`${explainElectronDownloadFailure(installerOutput, electronVersion())}\n`);
    process.exit(1);
  }
  const child = spawn(electron.path, [fileURLToPath(new URL('../dist/electron/main.cjs', import.meta.url))], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
