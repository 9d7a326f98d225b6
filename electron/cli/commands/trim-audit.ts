// `diskdelta trim-audit FOLDER [--no-fstrim] [--json] [--no-save] [--db PATH]`: which layers of
// the stack a TRIM actually reaches, from the kernel's discard counters (bench/trim/trim-audit.ts).
// Kept in the library, so the app's Overview can say "seen reaching the disk on DATE".
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { runTrimAudit, trimAuditText } from '../../node/bench/trim/trim-audit.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import { LibraryError, openLibrary, resolveDbPath } from '../../node/store/library.ts';
import { writeErr, writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta trim-audit FOLDER [--no-fstrim] [--json] [--no-save] [--db PATH]

Reads the discard counters (/sys/block/*/stat, fields 12-15) of every block layer under FOLDER
(dm-crypt, LVM, loop, partition, disk), writes and deletes a 64 MiB file there, runs fstrim on
its filesystem (root only), and reads them again: which layers a discard reached, beside what
the tables say (allow_discards, discard_max_bytes), with any disagreement called out.
Counters are per device: on a disk other programs use, their discards count too.
The audit is kept in the results library; the app's Overview shows the newest per mount.
  --no-fstrim  only the delete (what online discard sends)
  --json       machine-readable output
  --no-save    do not keep the audit in the library
  --db PATH    results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)
`;

export const trimAuditCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { json: { type: 'boolean' }, 'no-fstrim': { type: 'boolean' }, 'no-save': { type: 'boolean' }, db: { type: 'string' } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one FOLDER on the disk to audit');
    const result = await runTrimAudit(positionals[0]!, { fstrim: !values['no-fstrim'] });
    writeOut(values.json ? JSON.stringify(result, null, 2) + '\n' : trimAuditText(result) + '\n');
    if (values['no-save']) return 0;
    // The audit is printed first: a library that cannot take it loses nothing the user saw.
    try {
      const library = openLibrary({ dbPath: resolveDbPath(values.db) });
      try {
        library.saveTrimAudit(result);
        if (!values.json) writeOut(`Kept in ${library.path}: the Overview's TRIM column shows it.\n`);
      } finally {
        library.close();
      }
    } catch (error) {
      if (!(error instanceof LibraryError)) throw error;
      // The audit is already on stdout (--json too): exit 10 and this line say the rest.
      writeErr(`diskdelta trim-audit: the audit above was not kept: ${error.message}. Choose another library with --db.\n`);
      return exitCodeOf('not-saved');
    }
    return 0;
  },
};
