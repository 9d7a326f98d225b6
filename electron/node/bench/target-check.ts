// THE first check of a target, for every kind of test (rates, seeks, workloads, a tarball,
// app-start, the TRIM audit, discard-cost): whether there is a folder on a disk to measure,
// in the worker's order (native/src/target.c target_open): missing or not ours to enter, not a
// folder, a virtual filesystem, read-only. Done here once, before any kind's own checks (free
// space for its size, O_DIRECT for the rate tests), so that /sys says "virtual filesystem" for
// the tree as it does for a rate test, and not "free some space" because sysfs has 0 bytes free.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { shortPath } from '../../shared/model/display.ts';
import { virtualFsOf } from '../system/virtual-fs.ts';
import { BenchError } from './errors.ts';

export interface TargetCheck {
  /** A block device may be given (read tests; devices are opened read-only, always). */
  device?: boolean;
  /** Nothing will be created there (the working-set scan): a read-only filesystem is fine. */
  readOnly?: boolean;
}

/** Resolves for a usable target; else a BenchError with the code and words the worker would use. */
export async function checkTarget(target: string, options: TargetCheck = {}): Promise<void> {
  const shown = shortPath(target);
  const info = await stat(target).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    if (info.code === 'EACCES' || info.code === 'EPERM')
      throw new BenchError(
        'permission',
        `cannot reach the target ${shown}: permission denied. Choose a folder you may enter, or run as a user who may`,
      );
    throw new BenchError(
      'target-missing',
      `the target ${shown} does not exist: give an existing folder${options.device ? ' or block device' : ''}`,
    );
  }
  if (info.isBlockDevice() && options.device) return;
  if (!info.isDirectory())
    throw new BenchError(
      'target-not-folder',
      `the target ${shown} is ${info.isFile() ? 'a regular file' : info.isBlockDevice() ? 'a block device' : 'a special file'}, not a folder${options.device ? ' or a block device' : ''}. Give the folder to test in`,
    );
  const virtual = await virtualFsOf(target);
  if (virtual)
    throw new BenchError(
      'target-virtual-fs',
      `${shown} is on ${virtual}, a virtual filesystem the kernel makes up: there is no disk under it to measure. Give a folder on a disk (for example your home folder)`,
    );
  if (options.readOnly) return;
  const writable = await access(target, constants.W_OK).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
  if (writable === 'EROFS')
    throw new BenchError(
      'target-not-writable',
      `${shown} is on a read-only filesystem: no test file can be created there. Choose a writable folder, or give the block device for read-only tests`,
    );
}
