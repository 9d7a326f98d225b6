// For tests that act as another user (`nobody`): what that user can reach of this checkout.
//
// A clone may sit in a folder other users cannot enter (a home folder is 0750 on current Ubuntu,
// /root is 0700). A test that starts this checkout's worker, or Node from node_modules, as
// `nobody` then fails to start it at all, and a test that waited for it could wait forever. So:
// a single executable is staged (a hard link or a copy in a world-readable temporary folder),
// and a test that needs the checkout's source tree as the other user skips, saying which folder
// is in the way.
import { chmodSync, copyFileSync, linkSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export interface User {
  uid: number;
  gid: number;
}
export const NOBODY: User = { uid: 65534, gid: 65534 };

/** Whether `who` may use `bits` (r=4, w=2, x=1) on a file of this owner, group and mode (no ACLs, no supplementary groups). */
function allows(st: { uid: number; gid: number; mode: number }, who: User, bits: number): boolean {
  if (who.uid === 0) return true;
  const shift = st.uid === who.uid ? 6 : st.gid === who.gid ? 3 : 0;
  return ((st.mode >> shift) & bits) === bits;
}

/** The first folder on the way to `path` that `who` may not enter, or undefined when every one lets it through. */
export function folderInTheWay(path: string, who: User = NOBODY): string | undefined {
  let folder = dirname(resolve(path));
  const chain: string[] = [];
  for (;;) {
    chain.unshift(folder);
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return chain.find((f) => !allows(statSync(f), who, 1));
}

/**
 * A skip reason for a test that runs this checkout's files (the CLI, a core module) as `who`,
 * when a folder on the way stops it; false when it can reach them.
 */
export function cannotReachCheckout(path: string, who: User = NOBODY): string | false {
  const blocked = folderInTheWay(path, who);
  if (!blocked) return false;
  const mode = (statSync(blocked).mode & 0o7777).toString(8).padStart(4, '0');
  return `runs this checkout's code as uid ${who.uid}, who may not enter ${blocked} (mode ${mode}): to run it, clone into a folder other users may enter`;
}

const staged = new Map<string, string>();

/**
 * An executable that `who` may run: `path` itself when it can reach it, else a hard link (a copy
 * across filesystems) in a world-readable temporary folder, made once per process and removed at
 * its exit. Only for a single self-contained program (the worker, Node's binary).
 */
export function reachableCopy(path: string, who: User = NOBODY): string {
  if (!folderInTheWay(path, who) && allows(statSync(path), who, 1)) return path;
  const known = staged.get(path);
  if (known) return known;
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-staged-'));
  chmodSync(dir, 0o755);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const copy = join(dir, basename(path));
  try {
    linkSync(path, copy);
  } catch {
    copyFileSync(path, copy);
  }
  if (!allows(statSync(copy), who, 1)) {
    rmSync(copy);
    copyFileSync(path, copy);
    chmodSync(copy, 0o755);
  }
  staged.set(path, copy);
  return copy;
}
