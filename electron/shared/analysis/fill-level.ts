// A run's fill level in words, the same in `diskdelta show`, compare, the app and the report.
import type { FillLevel } from '../model/schemas.ts';
import { formatBytes } from './units.ts';

/** Used over size, 0–100; null where the level was not read. */
export function fillPercent(fill: FillLevel): number | null {
  if ('reason' in fill || fill.sizeBytes === 0) return null;
  return (fill.usedBytes / fill.sizeBytes) * 100;
}

/** "62.4 % full (6.1 GiB used of 9.8 GiB, 3.2 GiB available)", or "not read: why". */
export function fillText(fill: FillLevel): string {
  const percent = fillPercent(fill);
  if ('reason' in fill || percent === null) return `not read: ${'reason' in fill ? fill.reason : 'a file system of size 0'}`;
  return `${percent.toFixed(1)} % full (${formatBytes(fill.usedBytes)} used of ${formatBytes(fill.sizeBytes)}, ${formatBytes(fill.availableBytes)} available)`;
}
