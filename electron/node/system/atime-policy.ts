// What a mount's atime options mean for "when was this file last read" (the working-set scan):
// noatime records no reads at all, relatime a read at most once a day (and always the first
// after a write), lazytime keeps the times in memory and writes them up to a day late, which
// stat still shows at once on this machine but a crash can lose. strictatime sees every read.
import type { Warning } from '../../shared/model/results.ts';
import { readRegularFileSync } from '../files/read-bounded.ts';
import { findMount, parseMountinfo, type MountEntry } from './mountinfo.ts';

export type AtimePolicy = 'noatime' | 'relatime' | 'strictatime';

export interface AtimeFacts {
  mountPoint: string;
  fsType: string;
  policy: AtimePolicy;
  lazytime: boolean;
}

export function atimeFacts(entry: MountEntry): AtimeFacts {
  const options = new Set([...entry.mountOptions, ...entry.superOptions]);
  // The kernel lists exactly one of these per mount; none listed is the default since 2.6.30: relatime.
  const policy: AtimePolicy = options.has('noatime') ? 'noatime' : options.has('strictatime') ? 'strictatime' : 'relatime';
  return { mountPoint: entry.mountPoint, fsType: entry.fsType, policy, lazytime: options.has('lazytime') };
}

/** The mount of `absPath` (or the mount with that id), from this process's mountinfo. */
export function mountOf(absPath: string, mountId?: number, mountinfo = readRegularFileSync('/proc/self/mountinfo')): MountEntry | null {
  const entries = parseMountinfo(mountinfo);
  return (mountId !== undefined ? entries.find((e) => e.id === mountId) : undefined) ?? findMount(entries, absPath);
}

/** One warning per option that changes the answer, each saying what it changes. */
export function atimeWarnings(facts: AtimeFacts): Warning[] {
  const at = `${facts.mountPoint} (${facts.fsType})`;
  const warnings: Warning[] = [];
  if (facts.policy === 'noatime')
    warnings.push({
      code: 'atime-noatime',
      message: `${at} is mounted noatime: reads are not recorded, so only writes are seen and a file you only read counts as untouched since its last write. Remount with relatime (the default) for a few weeks to see reads too`,
    });
  if (facts.policy === 'relatime')
    warnings.push({
      code: 'atime-relatime',
      message: `${at} is mounted relatime: a read is recorded at most once a day, so a file read many times in a day counts once; the windows of a day or more are exact`,
    });
  if (facts.lazytime)
    warnings.push({
      code: 'atime-lazytime',
      message: `${at} is mounted lazytime: access times reach the disk up to a day late; this scan sees them at once, but those of a crash or power loss are lost`,
    });
  return warnings;
}
