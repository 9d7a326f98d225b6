// `diskdelta write-volume [--tbw TB] [--json]`: what each disk wrote since boot (/proc/diskstats,
// no root) as GB a day and TB a year, beside the drive's rated endurance as years of life.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { readWriteCounters } from '../../core/system/write-counters.ts';
import { writeVolume } from '../../core/analysis/write-volume.ts';
import { exitCodeOf } from '../../core/model/failures.ts';
import { writeErr, writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta write-volume [--tbw TB] [--json]

What each disk has written since boot, from the kernel's counters (/proc/diskstats; no root):
the bytes, the pace a day and a year, and with --tbw the years until a drive of that rated
endurance is written through at this pace. A pace from less than a day of counters is not
extrapolated (it says so). Partitions, loop, zram and device-mapper devices are left out:
their writes are counted on the disk beneath.
  --tbw TB   the drive's rated endurance in terabytes written (its datasheet's "TBW"), e.g. 150
  --json     machine-readable output (bytes, days)
`;

export const writeVolumeCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, { tbw: { type: 'string' }, json: { type: 'boolean' } });
    const tbw = values.tbw === undefined ? undefined : Number(values.tbw);
    if (tbw !== undefined && !(Number.isFinite(tbw) && tbw > 0 && tbw <= 1e6))
      throw new UsageError(`--tbw '${values.tbw}' is not an endurance: give the terabytes written the datasheet rates, e.g. --tbw 150`);
    const counters = await readWriteCounters();
    if ('reason' in counters) {
      writeErr(`diskdelta write-volume: cannot read the kernel's counters: ${counters.reason}\n`);
      return exitCodeOf('internal');
    }
    const volumes = counters.disks.map((d) => writeVolume(d, counters.seconds, tbw));
    writeOut(
      values.json
        ? `${JSON.stringify(volumes, null, 2)}\n`
        : volumes.length
          ? volumes.map((v) => `${v.verdict}.`).join('\n') + '\n'
          : 'No disk found in /proc/diskstats.\n',
    );
    return 0;
  },
};
