// `diskdelta discard-cost FOLDER [--runs N] [--json]`: what online discard costs on this disk
// (bench/trim/discard-cost.ts), the seed's Intel 525 figures beside.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { runDiscardCost } from '../../core/bench/trim/discard-cost.ts';
import { runDiscardCostRemount } from '../../core/bench/trim/discard-remount.ts';
import { STOP_SIGNALS } from '../signals.ts';
import { writeErr, writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta discard-cost FOLDER [--remount] [--runs N] [--json]

As root: makes a scratch ext4 in a loop file in FOLDER, writes and deletes a source tree the size
of the seed's Linux 3.9.1 (45,168 files, 592 MB) with the filesystem mounted without and then with
the discard option (a warm-up pass and N timed passes each, default 3), reads the loop device's
discard counters around each, and times fstrim. Your own mount is left as it is; the scratch
filesystem's discards become holes punched in its file, so the cost below is your filesystem's.
Everything it makes is removed on success, error and Ctrl-C; what a killed run left (pid gone)
is removed by the next run, which says so.
  --remount  measure on FOLDER's own ext4 instead: as it is mounted, then remounted with the
             other discard setting, then put back (on error and Ctrl-C too; after a kill, by the
             next run: the remount is recorded first in /run/diskdelta)
  --runs N   timed passes per setting (default 3)
  --json     machine-readable output
`;

export const discardCostCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { json: { type: 'boolean' }, runs: { type: 'string' }, remount: { type: 'boolean' } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one FOLDER on the disk to measure');
    const runs = values.runs === undefined ? 3 : Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 20)
      throw new UsageError(`--runs '${values.runs}' must be a whole number from 1 to 20`);
    // Ctrl-C/SIGTERM/SIGHUP: stop the workload; the run then unmounts and detaches its scratch filesystem.
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    let r;
    try {
      const measure = values.remount ? runDiscardCostRemount : runDiscardCost;
      // What killed runs left and this one puts right is said at once: this run may fail or be stopped.
      r = await measure(positionals[0]!, { runs, signal: controller.signal, onCleaned: (line) => writeErr(`cleaned up: ${line}\n`) });
    } finally {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    }
    if (values.json) writeOut(JSON.stringify(r, null, 2) + '\n');
    else {
      const lines = r.settings.flatMap((s) =>
        s.figures.map((f) => `  ${s.option.padEnd(9)} ${f.subject.padEnd(6)} ${f.value?.toFixed(3)} s — ${f.basis}`),
      );
      const counters = r.settings.map((s) => `${s.option}: ${s.discards ?? '?'} discards reached ${s.countedOn}`).join('; ');
      writeOut(
        `${lines.join('\n')}\n  ${counters}\n  fstrim: ${r.fstrim.seconds.toFixed(2)} s, ${r.fstrim.bytes ?? '?'} bytes trimmed\n${r.verdict}\n`,
      );
    }
    return 0;
  },
};
