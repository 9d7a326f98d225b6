// `diskdelta compare ID ID…`: the runs side by side, ratios to the first. The figures come
// from shared/analysis/compare.ts, the same comparison the app and the reports show.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, parseRunId, parseUnitFlag, requireRuns, withLibrary } from '../library-cli.ts';
import { compareRuns } from '../../shared/analysis/compare.ts';
import { formatComparisonText } from '../compare-text.ts';
import { encryptionStory, encryptionStoryText } from '../../shared/analysis/encryption-story.ts';
import { thisCpu } from '../../node/crypto/cipher-ceilings.ts';
import { discardTable, discardTableText } from '../../shared/analysis/discard-table.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta compare ID ID... [--json] [--unit MB|MiB|KB] [--db FILE]

Compares runs test by test. The first run is the baseline: every other run gets the ratio
to it (×3.29 = 3.29 times the baseline's figure), the percent change, whether that is better
or worse (higher throughput, IOPS and seeks are better; lower latency is better) and whether
the difference exceeds the runs' own spread. With three or more runs, each is also compared
to the run before it (HDD → SSD → SSD + dm-crypt). Runs of the discard experiment (those
\`discard-cost\` keeps, the 2013 references) are also set out as the seed's table: extract + sync
and delete + sync, without and with discard, and what discard costs.

When a run is encrypted or this CPU's cipher ceilings are kept (diskdelta ciphers), an
encryption part follows: each unencrypted run's sequential figure forecast under dm-crypt on
this CPU (labelled estimated), the cipher ceiling, which ceiling holds, and what a measured
drop under dm-crypt says (--json: the "encryption" field).

  --unit U     throughput unit: MB (10^6 bytes/s, default), MiB (2^20), KB (KiB, bonnie++'s K)
  --json       print the comparison as JSON (raw values and the labelled text)
${DB_HELP}`;

export const compareCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        json: { type: 'boolean' },
        unit: { type: 'string' },
        db: { type: 'string' },
      },
      true,
    );
    const ids = positionals.map(parseRunId);
    if (ids.length < 2) throw new UsageError('compare needs at least two run ids, the baseline first: diskdelta compare 1 2');
    const unit = parseUnitFlag(values.unit);
    const cpu = await thisCpu();
    return withLibrary(
      'compare',
      values.db,
      (library) => {
        const runs = requireRuns(library, ids);
        const comparison = compareRuns(runs, { unit });
        // The newest cipher ceilings of this CPU kept in the library (`diskdelta ciphers`).
        const encryption = encryptionStory(runs, library.latestCipherCeilings(cpu));
        // Runs of the discard experiment (discard-cost's, the 2013 references) also in the seed's 2×2 shape.
        const discard = discardTable(runs);
        const text = () =>
          [formatComparisonText(comparison), encryption ? encryptionStoryText(encryption) : '', discardTableText(discard)]
            .filter(Boolean)
            .join('\n');
        writeOut(values.json ? `${JSON.stringify({ ...comparison, encryption, discard }, null, 2)}\n` : text());
        return 0;
      },
      { readOnly: true },
    );
  },
};
