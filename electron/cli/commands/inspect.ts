// `diskdelta inspect PATH [--json]`: the storage stack under a path, down to the disks.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { inspectPath } from '../../core/system/describe.ts';
import { formatInspect } from '../../core/system/format.ts';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  synopsis: 'inspect PATH [--json]',
  summary: 'show the storage stack under PATH: mount, dm-crypt, LVM, loop, disk, TRIM, link ceiling',
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
    if (values.help) {
      process.stdout.write(`Usage: diskdelta ${this.synopsis}\n\n${this.summary}.\n  --json  machine-readable output (raw units: bytes, bytes/s)\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('give exactly one PATH (a folder or a block device)');
    const report = await inspectPath(positionals[0]!);
    process.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : formatInspect(report));
    return 0;
  },
};
