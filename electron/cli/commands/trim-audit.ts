// `diskdelta trim-audit FOLDER [--no-fstrim] [--json]`: which layers of the stack a TRIM
// actually reaches, from the kernel's discard counters (bench/trim-audit.ts).
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { runTrimAudit, trimAuditText } from '../../core/bench/trim-audit.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta trim-audit FOLDER [--no-fstrim] [--json]

Reads the discard counters (/sys/block/*/stat, fields 12-15) of every block layer under FOLDER
(dm-crypt, LVM, loop, partition, disk), writes and deletes a 64 MiB file there, runs fstrim on
its filesystem (root only), and reads them again: which layers a discard reached, beside what
the tables say (allow_discards, discard_max_bytes), with any disagreement called out.
Counters are per device: on a disk other programs use, their discards count too.
  --no-fstrim  only the delete (what online discard sends)
  --json       machine-readable output
`;

export const trimAuditCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' }, 'no-fstrim': { type: 'boolean' } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one FOLDER on the disk to audit');
    const result = await runTrimAudit(positionals[0]!, { fstrim: !values['no-fstrim'] });
    writeOut(values.json ? JSON.stringify(result, null, 2) + '\n' : trimAuditText(result) + '\n');
    return 0;
  },
};
