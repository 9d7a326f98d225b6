// How full the file system under a run's target is (statfs, no root): noted with every measured
// run because an SSD slows as it fills (reviewers measure at 25/50/75 %). DiskDelta only reads
// the level; it never fills a user's disk to reach one.
import { statfs } from 'node:fs/promises';
import type { FillLevel } from '../../shared/model/schemas.ts';

/**
 * The fill level of the file system holding `folder`, as df counts it: size = blocks × block
 * size, used = (blocks − free) × block size, available = what an unprivileged user may still
 * write (ext4 keeps a root reserve, so used + available < size). A raw device has no file system
 * to be full: said, not measured.
 */
export async function readFillLevel(target: string, kind: 'folder' | 'block-device' | 'unknown'): Promise<FillLevel> {
  if (kind === 'block-device')
    return { path: target, reason: 'the target is a raw device: no file system on it to be full (DiskDelta reads it, never writes it)' };
  // A run started a moment after another may still count the earlier run's removed test file as
  // used: the kernel frees an unlinked file's blocks only when its last reference goes, and
  // io_uring drops the worker's after the process has exited (seen: 19.0 % then 37.9 % on the
  // same disk, runs back to back). Said here, not corrected: nothing tells how long it lasts.
  try {
    // bigint: a file system of more than 2^53 bytes (8 PiB) still counts exactly.
    const s = await statfs(target, { bigint: true });
    if (s.blocks === 0n)
      return { path: target, reason: `statfs of ${target} reports a file system of no blocks (a virtual one): no fill level` };
    return {
      path: target,
      sizeBytes: Number(s.blocks * s.bsize),
      usedBytes: Number((s.blocks - s.bfree) * s.bsize),
      availableBytes: Number(s.bavail * s.bsize),
    };
  } catch (error) {
    return { path: target, reason: `statfs of ${target} failed: ${(error as Error).message}` };
  }
}
