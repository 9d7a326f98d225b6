// Write volume sampled whenever DiskDelta runs (`diskdelta write-volume`, each run the CLI
// saves (cli/save-runs.ts; the app's runs take none), the recorder's start and end): every whole disk's bytes written since boot, kept in the library
// (migration 12) so that analysis/write-volume.ts can tell a month's pace beside the last.
// Sampling never fails what it rides along with: a counter that cannot be read is no sample.
import { readWriteCounters } from '../system/write-counters.ts';
import type { RootOptions } from '../system/sysfs.ts';
import type { WriteSample } from '../../shared/analysis/write-volume.ts';
import type { Library } from './library.ts';

/** Reads the counters and keeps them; returns the samples kept (none when the counters or the boot id cannot be read). */
export async function takeWriteSample(
  library: Pick<Library, 'saveWriteSamples'>,
  opts: RootOptions & { now?: Date } = {},
): Promise<WriteSample[]> {
  const counters = await readWriteCounters(opts);
  if ('reason' in counters || counters.bootId === null) return [];
  const at = (opts.now ?? new Date()).toISOString();
  const samples = counters.disks.map((d) => ({
    at,
    bootId: counters.bootId!,
    uptimeSeconds: counters.seconds,
    disk: d.name,
    bytesWritten: d.bytesWritten,
  }));
  library.saveWriteSamples(samples);
  return samples;
}
