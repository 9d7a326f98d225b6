// Which of DiskDelta's machine-wide disk locks (electron/node/bench/disk-lock.ts) a process group
// holds right now. The fast loop samples each test file's group with it: a file that measures the
// disk under the temp folder takes that disk's lock, and so waits while any other DiskDelta
// process on the machine measures it (three fast files sat so for minutes behind other suites).
// Such a file belongs with the labs (need `disk` in scripts/test-manifest.ts), or measures a
// device of its own.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { statFields } from './own-process.ts';

const PREFIX = '@diskdelta-disk-';

/** Lock names are abstract Unix sockets: /proc/net/unix lists them with their inodes. */
function lockInodes(): Map<string, string> {
  const inodes = new Map<string, string>();
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const path = fields[7];
    if (path?.startsWith(PREFIX)) inodes.set(fields[6]!, path.slice(PREFIX.length));
  }
  return inodes;
}

/** The disk lock names held by processes of group `pgid` (none when no DiskDelta lock exists at all: the usual case, one read). */
export function diskLocksHeldBy(pgid: number): string[] {
  const inodes = lockInodes();
  if (inodes.size === 0) return [];
  const held = new Set<string>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(statFields(Number(pid))?.[2]) !== pgid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        const name = inode && inodes.get(inode);
        if (name) held.add(name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return [...held];
}

/**
 * A lock on a disk others share: not a loop device (a test's own, over its own file) and not a
 * made-up name (disk-lock's own test locks `test-…`).
 */
export const isSharedDisk = (name: string): boolean => !/^(loop\d+$|test-)/.test(name);
