// Where the Electron executable is, or why there is none, in our words: the electron package's
// own error ("delete node_modules/electron and try installing again") is wrong here, because
// npm install never downloads the binary (allowScripts.electron is false) and reinstalling
// cannot help when the download is blocked.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export function findElectron(): { path: string } | { path: null; reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not in node_modules: run `npm install`' };
  }
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && !existsSync(join(packageDir, 'path.txt'))) {
    return {
      path: null,
      reason: `${packageDir} holds no Electron binary: npm install skips its download, and \`npm start\` fetches it on first start`,
    };
  }
  const path = require('electron') as unknown;
  if (typeof path === 'string' && existsSync(path)) return { path };
  return {
    path: null,
    reason: `the Electron binary should be at ${String(path)}, which does not exist${override ? ' (ELECTRON_OVERRIDE_DIST_PATH is set)' : ''}`,
  };
}

export function electronVersion(): string | null {
  try {
    return (require('electron/package.json') as { version: string }).version;
  } catch {
    return null;
  }
}

/**
 * What to tell a person whose Electron download failed, from what the installer printed
 * (its stack trace is not shown: its first line is the fact). Says what is true and what
 * works, never "delete node_modules/electron and try again".
 */
export function explainElectronDownloadFailure(installerOutput: string, version: string | null): string {
  const error = installerOutput
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /error|ENOTFOUND|ECONN|ETIMEDOUT|EAI_AGAIN|\b[45]\d\d\b/i.test(l) && !l.startsWith('at '));
  const host = /(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT)\s+([\w.-]+)/.exec(installerOutput)?.[1] ?? null;
  const cause = host
    ? `this machine cannot reach ${host}, where Electron's releases are (${error ?? 'no network route'})`
    : error
      ? `the download failed: ${error}`
      : 'the download failed without saying why';
  const zip = `electron-v${version ?? 'VERSION'}-linux-${process.arch}.zip`;
  return [
    `npm start: the Electron binary is not installed, and fetching it now failed: ${cause}.`,
    'Reinstalling will not help while the download is blocked. What works:',
    '  - the same app in a browser, no Electron needed:  npx diskdelta serve --open',
    '  - a mirror this machine can reach:  ELECTRON_MIRROR=https://your.mirror/electron/ npm start',
    `  - ${zip} fetched elsewhere and unpacked in DIR:  ELECTRON_OVERRIDE_DIST_PATH=DIR npm start`,
    'The app itself was built (dist/renderer, dist/electron).',
  ].join('\n');
}
