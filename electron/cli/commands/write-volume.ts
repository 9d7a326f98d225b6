// `diskdelta write-volume [--tbw TB] [--json] [--no-save] [--db PATH]`: what each disk wrote since
// boot (/proc/diskstats, no root) as GB a day and TB a year, beside the drive's rated endurance as
// years of life; and, from the samples the library keeps (each call, each run the CLI saves), this month's
// pace beside last month's.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { readWriteCounters } from '../../node/system/write-counters.ts';
import { monthlyWrites, monthsVerdict, writeVolume } from '../../shared/analysis/write-volume.ts';
import { takeWriteSample } from '../../node/store/write-samples.ts';
import { openLibraryToSave } from '../save-runs.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import { writeErr, writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta write-volume [--tbw TB] [--json] [--no-save] [--db PATH]

What each disk has written since boot, from the kernel's counters (/proc/diskstats; no root):
the bytes, the pace a day and a year, and with --tbw the years until a drive of that rated
endurance is written through at this pace. A pace from less than a day of counters is not
extrapolated (it says so). Partitions, loop, zram and device-mapper devices are left out:
their writes are counted on the disk beneath.
Each call keeps a sample of the counters in the results library (so does every run the CLI saves;
the app's runs take none), so
it can also say this month's pace beside last month's: the writes between samples of one boot,
and from each boot to its first sample; a month with less than a day of counting is not judged.
  --tbw TB     the drive's rated endurance in terabytes written (its datasheet's "TBW"), e.g. 150
  --json       machine-readable output (bytes, days)
  --no-save    keep no sample (the months are then told from the samples kept before)
  --db PATH    results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)
`;

export const writeVolumeCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      tbw: { type: 'string' },
      json: { type: 'boolean' },
      'no-save': { type: 'boolean' },
      db: { type: 'string' },
    });
    const tbw = values.tbw === undefined ? undefined : Number(values.tbw);
    if (tbw !== undefined && !(Number.isFinite(tbw) && tbw > 0 && tbw <= 1e6))
      throw new UsageError(`--tbw '${values.tbw}' is not an endurance: give the terabytes written the datasheet rates, e.g. --tbw 150`);
    const counters = await readWriteCounters();
    if ('reason' in counters) {
      writeErr(`diskdelta write-volume: cannot read the kernel's counters: ${counters.reason}\n`);
      return exitCodeOf('internal');
    }
    const volumes = counters.disks.map((d) => writeVolume(d, counters.seconds, tbw));
    // The library is only read for the months (and written a sample): without one, since boot is all there is.
    const { library, failure } = openLibraryToSave('write-volume', values.db, false);
    if (failure !== null) writeErr(`${failure.trim()} The months are not told.\n`);
    let months: Record<string, ReturnType<typeof monthlyWrites>> = {};
    try {
      if (library && values['no-save'] !== true) await takeWriteSample(library);
      const samples = library?.writeSamples() ?? [];
      months = Object.fromEntries(volumes.map((v) => [v.name, monthlyWrites(samples.filter((s) => s.disk === v.name))]));
    } finally {
      library?.close();
    }
    const now = new Date();
    writeOut(
      values.json
        ? `${JSON.stringify(
            volumes.map((v) => ({ ...v, months: months[v.name] ?? [] })),
            null,
            2,
          )}\n`
        : volumes.length
          ? volumes.map((v) => `${v.verdict}.${library ? `\n  ${monthsVerdict(v.name, months[v.name] ?? [], now)}.` : ''}`).join('\n') +
            '\n'
          : 'No disk found in /proc/diskstats.\n',
    );
    return 0;
  },
};
