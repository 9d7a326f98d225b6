// `diskdelta surface DEVICE [--samples N] [--sample-bytes SIZE] [--accesses N] [--elevate] [--json]
// [--no-save] [--db PATH]`: an HDD's read speed from its outer to its inner tracks (issue 41 item
// 3), as GNOME Disks draws it, read-only. Kept as a run of its own kind (model/run-kind.ts), so
// `compare` and `report` show the old disk's curve beside the new one's.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EXIT_FAILURE, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { planRun, runBenchmark } from '../../node/bench/orchestrator.ts';
import { sayFailure } from '../failure-out.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { RUN_SETTINGS } from '../../shared/model/run-settings.ts';
import { surfaceOfResult, SURFACE_TEST } from '../../shared/analysis/surface.ts';
import { ProgressBar } from '../progress-bar.ts';
import { settingFlags, settingsFromFlags, settingsHelp } from '../run-setting-flags.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { checkLabel } from '../library-cli.ts';
import { stopOnSignals } from '../signals.ts';
import { writeErr, writeOut } from '../terminal.ts';
import { terminalField } from '../../shared/model/display.ts';
import { surfaceLines } from '../surface-text.ts';

const SETTINGS = RUN_SETTINGS.filter((d) => (d.kinds as readonly string[]).includes('surface'));

const HELP = `Usage: diskdelta surface DEVICE [--samples N] [--sample-bytes SIZE] [--accesses N] [--label TEXT] [--elevate] [--json] [--no-save] [--db PATH]

A disk's read speed across its whole surface, from the outer tracks (byte 0) to the inner ones,
as GNOME Disks draws it: a few MiB read at offsets spread evenly over DEVICE (read-only, O_DIRECT,
never a write), then random 4 KiB reads for the access time. Names the zones where the speed
steps and the slowest of them. An HDD falls to about half its speed inward; an SSD is flat.
Kept as a run in the results library: compare or report it beside the new disk.
${settingsHelp(SETTINGS)}
  --label TEXT         a name for this run, e.g. "old HDD" (default: surface of DEVICE)
  --elevate   a device you cannot read: ask once (polkit) for the helper to open it read-only
  --json      machine-readable output (bytes, bytes/s, ns)
  --no-save   do not keep the run in the library
  --db PATH   results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)
`;

/**
 * Said before anything starts (exit 2): a missing path, a file or folder. A device this user
 * cannot read goes on: runBenchmark says it (needs-elevation, exit 3, naming --elevate) as for `run`.
 */
async function checkDevice(device: string): Promise<void> {
  const info = await stat(device).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    if (info.code === 'ENOENT')
      throw new UsageError(`${device} does not exist: give a disk's block device, e.g. /dev/sdb (see diskdelta devices)`);
    return; // EACCES and the like: runBenchmark's target check says it.
  }
  if (!info.isBlockDevice())
    throw new UsageError(
      `${device} is not a block device: the surface is read from a whole disk, e.g. /dev/sdb (see diskdelta devices); a folder's speed is diskdelta run`,
    );
}

function jsonOf(record: RunRecord) {
  const result = record.results.find((r) => r.test === SURFACE_TEST);
  const surface = result ? surfaceOfResult(result) : null;
  return {
    id: record.id ?? null,
    device: record.target.path,
    createdAt: record.createdAt,
    deviceBytes: surface?.deviceBytes ?? null,
    points: surface?.points ?? [],
    zones: surface?.zones ?? [],
    slowest: surface?.slowest ?? null,
    accessNs: surface?.accessNs ?? null,
    warnings: [...(result?.warnings ?? []), ...record.warnings],
  };
}

function textOf(record: RunRecord): string {
  const result = record.results.find((r) => r.test === SURFACE_TEST);
  const surface = result ? surfaceOfResult(result) : null;
  const head = `${record.target.path}${record.target.device?.model ? ` (${record.target.device.model})` : ''}`;
  return `${head}\n${surface ? surfaceLines(surface).join('\n') : '  (nothing measured)'}\n`;
}

export const surfaceCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        ...settingFlags(SETTINGS),
        label: { type: 'string' },
        elevate: { type: 'boolean' },
        json: { type: 'boolean' },
        'no-save': { type: 'boolean' },
        db: { type: 'string' },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give one DEVICE, e.g. diskdelta surface /dev/sdb');
    const device = resolve(positionals[0]!);
    const settings = settingsFromFlags(values, SETTINGS);
    const elevate = values.elevate === true;
    const spec = {
      target: device,
      tests: [SURFACE_TEST],
      label: values.label === undefined ? `surface of ${device}` : checkLabel(values.label, '--label'),
      elevate,
      ...settings,
    };
    // The kind's own checks (a sample size off 4 KiB) before the library is opened (made): bad
    // input keeps nothing. runBenchmark plans again; planning only reads.
    await planRun(spec);
    await checkDevice(device);
    const json = values.json === true;
    const { library, failure } = openLibraryToSave('surface', values.db, values['no-save'] === true);
    if (failure !== null) return sayFailure('surface', failure, EXIT_FAILURE);
    const stop = stopOnSignals();
    const bar = !json && process.stdout.isTTY ? new ProgressBar() : null;
    try {
      const record = await runBenchmark(spec, {
        signal: stop.signal,
        surface: 'cli',
        onEvent: (event) => {
          if (event.type === 'progress') bar?.update(event);
          else if (event.type === 'warning' && (!json || event.code === 'disk-busy')) {
            bar?.clear();
            writeErr(`warning: ${terminalField(event.message)}\n`);
          }
        },
      });
      bar?.clear();
      const outcome = await saveMeasured(library, [record]);
      writeOut(json ? `${JSON.stringify(jsonOf(record), null, 2)}\n` : textOf(record));
      if (outcome === null || outcome.saved) return 0;
      writeErr(notSavedLine('surface', outcome));
      return exitCodeOf('not-saved');
    } catch (error) {
      bar?.clear();
      // main() says a BenchError (failure-out.ts), as for every command: --json gets its error object.
      throw error;
    } finally {
      library?.close();
      stop.release();
    }
  },
};
