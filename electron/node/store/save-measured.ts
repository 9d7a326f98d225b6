// THE way a measured run is saved, whichever front end measured it: the CLI's commands (run,
// encryption, fleet, working-set, record, discard-cost) and the app's run manager (api/) call
// it, so every saved run gets the same treatment. Each run is saved, or kept in a file when
// the library refuses it (unsaved.ts); once saved, the disks' write counters are sampled
// (write-samples.ts: `diskdelta write-volume` tells the months from them). The app once saved
// without the sample: its runs left gaps in the write-volume history the CLI's did not.
import type { RunRecord } from '../../shared/model/results.ts';
import type { RootOptions } from '../system/sysfs.ts';
import type { Library } from './library.ts';
import { keepUnsavedRun, saveOrKeep, type SaveOutcome } from './unsaved.ts';
import { takeWriteSample } from './write-samples.ts';

/** What saving measured runs needs of the library. */
export type MeasuredRunStore = Pick<Library, 'path' | 'saveRun' | 'saveWriteSamples'>;

export interface SaveMeasuredOptions {
  /** Where a refused run goes; default: a file beside the library (keepUnsavedRun); null: nowhere. */
  keep?: ((record: RunRecord) => Promise<string>) | null;
  /** Where the write counters are read (a fixture's root in tests); default: this machine's /proc. */
  counters?: RootOptions;
}

/** Saves the runs in order (each gets its id) or keeps them in files; then samples write volume. */
export async function saveMeasuredRuns(
  library: MeasuredRunStore,
  records: readonly RunRecord[],
  options: SaveMeasuredOptions = {},
): Promise<SaveOutcome> {
  const keep = options.keep === undefined ? (record: RunRecord) => keepUnsavedRun(record, library.path) : options.keep;
  const outcome = await saveOrKeep(records, { save: (record) => library.saveRun(record), keep });
  // A sample that cannot be read or kept never fails the save: the runs are what matter.
  if (outcome.saved) await takeWriteSample(library, options.counters).catch(() => []);
  return outcome;
}
