// Where a file gives both a rate and IOPS for a fixed block size, the two must agree:
// rate = IOPS × block size, up to the rounding of the printed figures. This is how a wrong
// reading of a tool's units shows itself (KDiskMark's "MB/s" is fio's KiB/s ÷ 1000, not
// 10^6 bytes/s; fio reads bs=4KiB as 4000 bytes), so every importer checks it.
import type { TestResult, Warning } from '../../shared/model/results.ts';
import { formatCount, formatNumber, groupedDecimals } from '../../shared/analysis/units.ts';

export interface RateAndIops {
  bytesPerSec: number;
  iops: number;
  blockSize: number;
  /** The last printed digit of the rate, in bytes/s (0.001 "MB/s" → 1000 × the unit's bytes). */
  rateStep: number;
  /** The last printed digit of the IOPS figure (0.1 for "529.8 IOPS"). */
  iopsStep: number;
  /** Further rounding the tool does before printing (fio's integer KiB/s per job), in bytes/s. */
  slackBytesPerSec?: number;
}

/** The largest difference rounding can explain: half a step of each printed figure, plus slack. */
export function roundingAllowance(c: RateAndIops): number {
  // The relative term covers floating point in the tools' own arithmetic, nothing more.
  return c.rateStep / 2 + (c.iopsStep / 2) * c.blockSize + (c.slackBytesPerSec ?? 0) + c.bytesPerSec * 1e-6;
}

export function rateAgreesWithIops(c: RateAndIops): boolean {
  return Math.abs(c.bytesPerSec - c.iops * c.blockSize) <= roundingAllowance(c);
}

/** A `rate-iops-mismatch` warning when the two disagree by more than rounding, else null. */
export function rateIopsWarning(tool: string, c: RateAndIops): Warning | null {
  if (c.iops <= 0 || c.blockSize <= 0 || rateAgreesWithIops(c)) return null;
  const fromIops = c.iops * c.blockSize;
  const percent = ((c.bytesPerSec / fromIops - 1) * 100).toFixed(1);
  return {
    code: 'rate-iops-mismatch',
    message:
      `${tool} gives ${groupedDecimals(c.bytesPerSec / 1e6, 3)} MB/s but its IOPS × block size (${formatNumber(c.iops)} × ${formatCount(c.blockSize)} B) ` +
      `is ${groupedDecimals(fromIops / 1e6, 3)} MB/s (${percent} %), more than rounding explains: one of the two is not what it ` +
      'says. The rate is kept as the file states it.',
  };
}

/** Adds the warning to a result when its rate and IOPS disagree (a no-op without a block size). */
export function checkResultRate(tool: string, result: TestResult, steps: Omit<RateAndIops, 'bytesPerSec' | 'iops' | 'blockSize'>): void {
  if (result.bytesPerSec === null || result.iops === null || !result.params) return;
  const warning = rateIopsWarning(tool, {
    bytesPerSec: result.bytesPerSec,
    iops: result.iops,
    blockSize: result.params.blockSize,
    ...steps,
  });
  if (warning) result.warnings.push(warning);
}
