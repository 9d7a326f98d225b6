// `diskdelta inspect PATH [--json]`: the storage stack under a path, down to the disks.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { inspectPath } from '../../node/system/describe.ts';
import { formatInspect } from '../system-format.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta inspect PATH [--json]

The storage stack under PATH: mount and its options, dm-crypt, LVM, loop, partition, disk;
which layers are encrypted, whether discards pass, the lowest link ceiling.
  --json  machine-readable output (raw units: bytes, bytes/s)
`;

export const inspectCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one PATH (a folder or a block device)');
    const report = await inspectPath(positionals[0]!);
    writeOut(values.json ? JSON.stringify(report, null, 2) + '\n' : formatInspect(report));
    return 0;
  },
};
