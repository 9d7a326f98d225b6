// Warnings for one measured figure, from what system/ knows about the target: a figure faster
// than the link can carry, or a test small enough to live in RAM or the drive's write cache.
// In bench/ (not system/) because it judges a result and words it with units: system/ only
// reads the machine.
import type { Warning } from '../../shared/model/results.ts';
import type { DeviceFingerprint, StackLayer } from '../../shared/model/machine.ts';
import { formatBytes, formatThroughput } from '../../shared/analysis/units.ts';
import { directIoTrusted, lowestCeiling, type OtherCpuUse } from '../system/index.ts';

export interface ResultWarningInput {
  bytesPerSec: number | null;
  device?: DeviceFingerprint;
  stack?: StackLayer[];
  sizeBytes?: number;
  memoryBytes?: number | null;
  /** The test wrote. The write-cache check runs only when this is true: on a read it would mislead. */
  write?: boolean;
  /** The run used buffered I/O (no O_DIRECT): the page cache is in play whatever the filesystem. */
  buffered?: boolean;
  /** The test only writes (no reads for the page cache to serve): size-below-ram cannot apply. Absent: `write`. */
  writeOnly?: boolean;
}

/**
 * The drive's likely write cache, an ESTIMATE from its class and size: HDDs carry up to 256 MiB
 * of DRAM; SSDs absorb writes in an SLC cache that is rarely below 1 % of capacity (at least
 * 1 GiB). Null where there is no drive-side cache to speak of.
 */
export function likelyWriteCacheBytes(device: DeviceFingerprint): number | null {
  if (device.class === 'HDD') return 256 * 2 ** 20;
  if (device.class === 'SATA SSD' || device.class === 'NVMe SSD') {
    return Math.max(2 ** 30, (device.sizeBytes ?? 0) / 100);
  }
  return null;
}

/**
 * The loop device a raw-device test reads whose backing file has holes, and how much of it
 * they are: a hole reads as zeros from no disk at all (an 8,722 MB/s "SSD"). Only when no
 * filesystem lies between the target and the loop device: a folder's test file is written by
 * DiskDelta before it is read, so its blocks are not holes. Holes under 1 % (and 1 MiB) of the
 * file are an image's slack, not its data.
 */
export function sparseBacking(stack: StackLayer[] | undefined): { loop: string; file: string; holes: number; size: number } | null {
  for (const layer of stack ?? []) {
    if (layer.kind === 'mount') return null;
    if (layer.kind !== 'loop') continue;
    const size = layer.details.backingFileBytes;
    const allocated = layer.details.backingFileAllocatedBytes;
    if (typeof size !== 'number' || typeof allocated !== 'number') return null;
    const holes = size - allocated;
    return holes > Math.max(2 ** 20, size / 100) ? { loop: layer.name, file: String(layer.details.backingFile), holes, size } : null;
  }
  return null;
}

export function resultWarnings(input: ResultWarningInput): Warning[] {
  const warnings: Warning[] = [];
  const sparse = input.write === true ? null : sparseBacking(input.stack);
  if (sparse) {
    warnings.push({
      code: 'sparse-read',
      message: `${sparse.loop} reads ${sparse.file}, ${formatBytes(sparse.holes)} of whose ${formatBytes(sparse.size)} are holes (never written): a hole reads as zeros without touching a disk, so reads over it measure memory, not the disk. Measure the disk the image lies on, or an image written whole.`,
    });
  }
  const ceiling = lowestCeiling(input.device, input.stack);
  if (input.bytesPerSec !== null && ceiling && input.bytesPerSec > ceiling.bytesPerSec) {
    warnings.push({
      code: 'faster-than-link',
      message: `${formatThroughput(input.bytesPerSec)} is more than the ${formatThroughput(ceiling.bytesPerSec)} that ${ceiling.where} can carry: the data came from a cache, not the drive.`,
    });
  }
  const cacheCanServe = input.buffered === true || (input.stack !== undefined && !directIoTrusted(input.stack));
  // Reads only: the page cache can serve a read, while a write ends with fsync inside its timed
  // window (model/warning-scope.ts says the same of stored runs).
  if (
    (input.writeOnly ?? input.write) !== true &&
    input.sizeBytes &&
    input.memoryBytes &&
    input.sizeBytes < input.memoryBytes &&
    cacheCanServe
  ) {
    warnings.push({
      code: 'size-below-ram',
      message: `The test size ${formatBytes(input.sizeBytes)} fits in RAM (${formatBytes(input.memoryBytes)}) and the page cache can serve this target: use a test size above RAM, or O_DIRECT on a filesystem that honours it.`,
    });
  }
  const cache = input.device ? likelyWriteCacheBytes(input.device) : null;
  if (input.write === true && input.sizeBytes && cache && input.sizeBytes <= cache) {
    warnings.push({
      code: 'size-below-write-cache',
      message: `The test size ${formatBytes(input.sizeBytes)} fits in the drive's likely write cache (about ${formatBytes(cache)}, estimated for a ${input.device!.class}): sustained writes will be slower than this figure.`,
    });
  }
  return warnings;
}

/**
 * Other processes kept at least this share of the machine's CPUs busy during a test: enough to
 * slow a cipher, delay completions and move a figure by more than its own noise.
 */
export const MACHINE_BUSY_SHARE = 0.25;

/** The `machine-busy` warning for a stretch of measuring, or null when the machine was quiet enough. */
export function machineBusyWarning(use: OtherCpuUse | null, what: string): Warning | null {
  if (!use || use.otherCpus < MACHINE_BUSY_SHARE * use.cpus) return null;
  const share = Math.round((use.otherCpus / use.cpus) * 100);
  return {
    code: 'machine-busy',
    message: `other processes kept ${use.otherCpus.toFixed(1)} of ${use.cpus} CPUs busy (${share} %) while ${what} ran: its figures may be lower and wider than on a quiet machine; measure again when the machine is idle`,
  };
}
