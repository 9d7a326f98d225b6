// `diskdelta discard-cost FOLDER [--remount] [--runs N] [--size BYTES] [--json]`: what online
// discard costs on this disk (bench/trim/discard-cost.ts), kept in the library as two runs shaped
// like the seed's 2013 references (bench/trim/discard-runs.ts), printed in the seed's 2×2 table.
import { EXIT_FAILURE, parseFlags, parseSize, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP } from '../library-cli.ts';
import {
  checkDiscardCostTarget,
  runDiscardCost,
  SEED_DISCARD_SENTENCE,
  type DiscardCostResult,
} from '../../node/bench/trim/discard-cost.ts';
import { trimCostVerdict } from '../../shared/analysis/verdicts.ts';
import { discardCostRuns } from '../../node/bench/trim/discard-runs.ts';
import { runDiscardCostRemount } from '../../node/bench/trim/discard-remount.ts';
import { BIGFILE_BYTES, SEED_TREE } from '../../node/bench/kinds/workload.ts';
import { MIN_BIGFILE_BYTES } from '../../node/bench/trim/discard-bigfile.ts';
import { discardTable, discardTableText } from '../../shared/analysis/discard-table.ts';
import { describeTarget } from '../../node/system/index.ts';
import { appVersion } from '../../node/app-version.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { stopOnSignals } from '../signals.ts';
import { writeErr, writeOut } from '../terminal.ts';

/** The smallest tree --size takes: the worker's least --tree-bytes. */
const MIN_TREE_BYTES = 2 ** 20;

const HELP = `Usage: diskdelta discard-cost FOLDER [--remount] [--runs N] [--size BYTES] [--bigfile-size BYTES] [--json] [--no-save] [--db FILE]

As root: makes a scratch ext4 in a loop file in FOLDER (attached with direct I/O, so nothing is
timed against the page cache), writes and deletes a source tree the size of the seed's Linux
3.9.1 (45,168 files, 592 MB) with the filesystem mounted without and then with the discard
option (a warm-up pass and N timed passes each, default 3), reads the loop device's discard
counters around each, and times fstrim. Then the seed's second case: one big file (3 GB) written
and deleted under each setting (N timed passes). Your own mount is left as it is; the scratch
filesystem's discards become holes punched in its file, so the cost below is your filesystem's.
Everything it makes is removed on success, error and Ctrl-C; what a killed run left (pid gone)
is removed by the next run, which says so.

The result is kept in the library as two runs (without and with discard), shaped like the
shipped 2013 references: \`diskdelta import --reference\`, then \`diskdelta compare\` with their
ids sets the seed's table and yours side by side.
  --remount     measure on FOLDER's own ext4 instead: as it is mounted, then remounted with the
                other discard setting, then put back (on error and Ctrl-C too; after a kill, by
                the next run: the remount is recorded first in /run/diskdelta). The discard
                counts are then your disk's, which other programs' discards reach too
  --runs N      timed passes per setting (default 3)
  --size BYTES  the tree's total size (e.g. 100M), its file count scaled with it, for a disk
                with little room or a quick look (default: the seed's 592 MB). A tree of
                another size is kept as "tree-scaled", never compared as the seed's tree
  --bigfile-size BYTES
                the big file's size (e.g. 500M; default the seed's 3 GB). Where the folder has
                too little free space it is scaled down (5 % of the free space, 256 MiB at least,
                stays free), and the output and the kept runs say the size and why
  --json        machine-readable output
  --no-save     do not keep the runs in the library
${DB_HELP}`;

/** The tree's size: the seed's, or --size with the file count scaled to keep the seed's file sizes. */
export function treeOfSize(size: string | undefined): { files: number; bytes: number } {
  if (size === undefined) return { ...SEED_TREE };
  const bytes = parseSize(size, '--size');
  if (bytes < MIN_TREE_BYTES) throw new UsageError(`--size '${size}' is too small: the tree needs 1MiB at least`);
  if (bytes > 2 ** 44) throw new UsageError(`--size '${size}' is too large: use at most 16TiB`);
  return { bytes, files: Math.max(1, Math.round((SEED_TREE.files * bytes) / SEED_TREE.bytes)) };
}

/** The big file's size: the seed's 3 GB, or --bigfile-size. */
export function bigFileOfSize(size: string | undefined): number {
  if (size === undefined) return BIGFILE_BYTES;
  const bytes = parseSize(size, '--bigfile-size');
  if (bytes < MIN_BIGFILE_BYTES) throw new UsageError(`--bigfile-size '${size}' is too small: the big file needs 16MiB at least`);
  if (bytes > 2 ** 44) throw new UsageError(`--bigfile-size '${size}' is too large: use at most 16TiB`);
  return bytes;
}

export const discardCostCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        json: { type: 'boolean' },
        runs: { type: 'string' },
        remount: { type: 'boolean' },
        size: { type: 'string' },
        'bigfile-size': { type: 'string' },
        'no-save': { type: 'boolean' },
        db: { type: 'string' },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one FOLDER on the disk to measure');
    const runs = values.runs === undefined ? 3 : Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 20)
      throw new UsageError(`--runs '${values.runs}' must be a whole number from 1 to 20`);
    const tree = treeOfSize(values.size);
    const bigfileBytes = bigFileOfSize(values['bigfile-size']);
    // The folder first (a wrong one is said as such), then the library, before minutes of measuring.
    await checkDiscardCostTarget(positionals[0]!);
    const { library, failure } = openLibraryToSave('discard-cost', values.db, values['no-save'] === true);
    if (failure !== null) {
      writeErr(failure);
      return EXIT_FAILURE;
    }
    // Ctrl-C/SIGTERM/SIGHUP: stop the workload; the run then unmounts and detaches its scratch filesystem.
    const stop = stopOnSignals();
    try {
      const folder = positionals[0]!;
      const measure = values.remount ? runDiscardCostRemount : runDiscardCost;
      const createdAt = new Date().toISOString();
      // What killed runs left and this one puts right is said at once: this run may fail or be stopped.
      const r = await measure(folder, {
        runs,
        ...tree,
        bigfileBytes,
        signal: stop.signal,
        onCleaned: (line) => writeErr(`cleaned up: ${line}\n`),
      });
      const { target, system } = await describeTarget(folder);
      const records = discardCostRuns(r, { target, system, version: await appVersion(), createdAt });
      for (const record of records) record.sourceMeta.verdict = r.verdict;
      const outcome = await saveMeasured(library, records);
      if (values.json) writeOut(JSON.stringify({ ...r, runIds: records.map((x) => x.id ?? null) }, null, 2) + '\n');
      else writeOut(discardCostText(r, records));
      if (outcome && !outcome.saved) {
        writeErr(notSavedLine('discard-cost', outcome));
        return exitCodeOf('not-saved');
      }
      return 0;
    } finally {
      library?.close();
      stop.release();
    }
  },
};

/**
 * The seed's table of this measurement, the verdict (the same data an assessment's page 1 renders:
 * analysis/verdicts.ts trimCostVerdict), the discard counters, warnings, and where the runs went.
 */
export function discardCostText(r: DiscardCostResult, records: RunRecord[]): string {
  const off = records.find((x) => x.sourceMeta['mount option'] === 'no discard') ?? null;
  const on = records.find((x) => x.sourceMeta['mount option'] === 'discard') ?? null;
  // The table's notes would say the verdict again: it is printed once, below, from the verdict's data.
  const table = records.map((x, i) => ({ ...x, id: x.id ?? i + 1, sourceMeta: { ...x.sourceMeta, verdict: '' } }));
  const countedIn = (settings: DiscardCostResult['settings']) =>
    settings
      .map((s) => `${s.option}: ${s.discards === null ? `no counters on ${s.countedOn}` : `${s.discards} discards reached ${s.countedOn}`}`)
      .join('; ');
  const counted = `tree ${countedIn(r.settings)}; big file ${countedIn(r.bigfile.settings)}`;
  const ids = records.map((x) => x.id).filter((id): id is number => id !== undefined);
  const kept = ids.length
    ? `Kept as runs ${ids.join(' and ')}. Beside the seed's Intel 525: diskdelta import --reference, then diskdelta compare with the references' ids (diskdelta list --source reference) and ${ids.join(' ')}.`
    : 'Not kept in the library (--no-save).';
  return [
    discardTableText(discardTable(table)).trimEnd(),
    `Verdict: ${trimCostVerdict(off, on).sentence} ${SEED_DISCARD_SENTENCE}`,
    `Big file: ${r.bigfile.verdict}`,
    `  ${counted}`,
    ...r.warnings.map((w) => `warning: ${w.message}`),
    kept,
    '',
  ].join('\n');
}
