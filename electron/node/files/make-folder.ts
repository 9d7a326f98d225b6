// Creating a folder and its missing parents. Node's own `mkdir(path, { recursive: true })` never
// returns where mkdir answers ENOENT although the parent exists — under /proc (`--db
// /proc/x/library.sqlite` hung the CLI at full CPU) — because it retries the parent forever.
// Here each missing component is created once, top down, so every path ends in a folder or an
// error that names it.
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The path's missing ancestors and itself, outermost first (those that exist are left out). */
function missingChain(path: string, exists: (p: string) => boolean): string[] {
  const chain: string[] = [];
  for (let p = resolve(path); !exists(p); p = dirname(p)) {
    chain.unshift(p);
    if (dirname(p) === p) break; // the root itself is missing: let mkdir say why
  }
  return chain;
}

const existsSync = (p: string) => statSync(p, { throwIfNoEntry: false }) !== undefined;
const notAFolder = (path: string) => Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR' });

/** mkdir -p with `mode` for the folders it creates; throws mkdir's own error (ENOENT, EACCES, ENOTDIR…). */
export function makeFolderSync(path: string, mode = 0o777): void {
  for (const p of missingChain(path, existsSync)) {
    try {
      mkdirSync(p, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // made meanwhile by another process: fine
    }
  }
  if (!statSync(path).isDirectory()) throw notAFolder(path);
}

/** As makeFolderSync, for callers that must not block on the creating (the checks are a few stat calls). */
export async function makeFolder(path: string, mode = 0o777): Promise<void> {
  for (const p of missingChain(path, existsSync)) {
    await mkdir(p, { mode }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  if (!(await stat(path)).isDirectory()) throw notAFolder(path);
}
