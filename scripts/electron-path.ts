// Where the Electron executable is, or why there is none (its download is blocked on some
// machines: then node_modules/electron has no dist/ and requiring it throws).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export function findElectron(): { path: string } | { path: null; reason: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { path: null, reason: `the electron package points to ${String(path)}, which does not exist` };
  } catch (error) {
    return { path: null, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}
