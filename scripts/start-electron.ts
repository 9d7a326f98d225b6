// `npm start`: build the renderer and the Electron bundles, then open the app. Where the
// Electron binary is missing (its download is blocked on some machines), say so plainly, and
// open the same app in Chromium's app mode where a Chromium and a display are there. How it
// opens (the sandbox where it can run, else --no-sandbox said aloud): electron-launch.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from './build-electron.ts';
import { electronVersion, explainElectronDownloadFailure, findElectron } from './electron-path.ts';
import { decideLaunch, probeLaunch, type Launch } from './electron-launch.ts';
import { startAppServer } from '../electron/server/app-server.ts';

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
  if (electron.path === null) process.stderr.write(`${explainElectronDownloadFailure(installerOutput, electronVersion())}\n`);
  const launch = decideLaunch(probeLaunch(electron.path), root);
  for (const note of launch.notes) process.stderr.write(`${note}\n`);
  process.exit(await open(launch));
}

/** Opens the window and waits for it to close; the exit status to end with. */
async function open(launch: Launch): Promise<number> {
  if (launch.kind === 'none') return 1;
  if (launch.kind === 'electron') return exitStatus(spawn(launch.executable, launch.args, { cwd: root, stdio: 'inherit' }));
  // Chromium's app mode on the browser-mode server, in this process. A profile of its own,
  // made for this launch: a Chromium already running with the user's profile would take the
  // window over and return at once, and this server would stop under it.
  const server = await startAppServer({ log: (line) => process.stderr.write(`npm start: ${line}\n`) });
  const profile = mkdtempSync(join(tmpdir(), 'diskdelta-chromium-app-'));
  try {
    const chromium = spawn(launch.executable, [...launch.args, `--user-data-dir=${profile}`, `--app=${server.url}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const stop = () => chromium.kill('SIGTERM');
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return await exitStatus(chromium);
  } finally {
    await server.shutdown();
    rmSync(profile, { recursive: true, force: true });
  }
}

function exitStatus(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`npm start: could not start ${child.spawnfile}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
