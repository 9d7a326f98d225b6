// `diskdelta fleet run|compare`: many hosts through fio's own client/server engine (issue #26).
// run: node/bench/fleet (job file, probe, fio --client, import, one run per host).
// compare: shared/analysis/fleet-compare.ts over the library's per-host runs.
import { readRegularFileSync } from '../../node/files/read-bounded.ts';
import { EXIT_FAILURE, UsageError, parseFlags, type CliCommand } from '../args.ts';
import { parseSettingOf } from '../run-setting-flags.ts';
import { DB_HELP, parseRunId, requireRuns, withLibrary } from '../library-cli.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { writeErr, writeOut } from '../terminal.ts';
import { PRESETS } from '../../shared/catalog/presets.ts';
import { PRESET_NAMES, type PresetName } from '../../shared/model/spec.ts';
import { HostsFileError, networkWarning, parseHostsFile } from '../../node/bench/fleet/hosts.ts';
import { FleetError, runFleet } from '../../node/bench/fleet/fleet-run.ts';
import { hostFolderProblem } from '../../node/bench/fleet/fio-job-file.ts';
import { compareFleet, FLEET_FIGURES, type FleetComparison } from '../../shared/analysis/fleet-compare.ts';
import { formatIops, formatThroughput } from '../../shared/analysis/units.ts';
import { rateFigureText } from '../../shared/analysis/figure-text.ts';
import { fleetRunsOf } from '../../shared/analysis/fleet-runs.ts';

const HELP = `Usage: diskdelta fleet run --hosts FILE --folder DIR [--preset NAME] [--size SIZE] [--duration SEC] [--no-save] [--db FILE]
       diskdelta fleet compare [ID...] [--json] [--db FILE]

run: the preset's tests as one fio job file, run on every host of FILE through fio's
client/server mode (fio --client), each host's results saved as its own run.
  FILE holds one host per line as fio reads it: NAME or NAME,PORT (fio --server listens on 8765).
  The safe way in is an SSH forward you already have: on the host "fio --server=ip:127.0.0.1",
  here "ssh -L 8766:localhost:8765 HOST" and the line "localhost,8766". fio's server has no
  authentication: a host reached over the network is said before anything runs.
  Every host is probed first: one that does not answer, or runs another fio version than this
  machine (client and server must speak the same protocol), is named and left out; the others run.
  --folder DIR   where each host makes its test file, .diskdelta-fleet-<random>.tmp (DIR must exist
                 there; the file is removed at the end). fio opens it by name and follows links, as
                 the server's user: give a folder only that user may write in, or a sticky one
                 (/var/tmp), never one where others may rename or delete its files.
  --preset NAME  ${PRESET_NAMES.join(', ')} (default quick); tests fio has no job for are named and skipped
  --size SIZE    test file size (default: the preset's); --duration SEC: seconds per test

compare: one row per host (device, class from the figures, sequential and random figures),
the fleet's median and 10th/90th percentiles, outliers, and an upgrade verdict per host.
  ID...          runs to compare (default: every run of the library that came from fio --client)
  --json         the comparison as JSON
${DB_HELP}`;

async function fleetRun(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, {
    hosts: { type: 'string' },
    folder: { type: 'string' },
    preset: { type: 'string' },
    size: { type: 'string' },
    duration: { type: 'string' },
    'no-save': { type: 'boolean' },
    db: { type: 'string' },
  });
  if (!values.hosts) throw new UsageError('fleet run needs --hosts FILE: one host per line, NAME or NAME,PORT');
  if (!values.folder) throw new UsageError('fleet run needs --folder DIR: where each host makes its test file, e.g. --folder /var/tmp');
  const folderProblem = hostFolderProblem(values.folder);
  if (folderProblem) throw new UsageError(`--folder: ${folderProblem}`);
  const presetName = (values.preset ?? 'quick') as PresetName;
  if (!PRESET_NAMES.includes(presetName)) throw new UsageError(`unknown preset "${values.preset}": one of ${PRESET_NAMES.join(', ')}`);
  // run's --size and --duration, with their ranges: a 1-byte fio test file measures nothing.
  const sizeBytes = values.size ? parseSettingOf('sizeBytes', values.size) : undefined;
  const durationSec = values.duration ? parseSettingOf('durationSec', values.duration) : undefined;
  let text: string;
  try {
    // Never an open that waits (a FIFO given as the hosts file): regular files only (read-bounded.ts).
    text = readRegularFileSync(values.hosts, 2 ** 20);
  } catch (error) {
    throw new UsageError(
      `cannot read the hosts file ${values.hosts}: ${(error as Error).message}; give a readable file with one host per line (NAME or NAME,PORT)`,
    );
  }
  let hosts;
  try {
    hosts = parseHostsFile(text, values.hosts);
  } catch (error) {
    if (error instanceof HostsFileError) throw new UsageError(error.message);
    throw error;
  }
  const warning = networkWarning(hosts);
  if (warning) writeErr(`diskdelta fleet: ${warning}\n`);
  const opened = openLibraryToSave('fleet run', values.db, values['no-save'] === true);
  if (opened.failure !== null) {
    writeErr(opened.failure);
    return EXIT_FAILURE;
  }
  try {
    const result = await runFleet({
      hosts,
      preset: PRESETS[presetName],
      folder: values.folder,
      sizeBytes,
      durationSec,
    });
    for (const s of result.jobFile.skipped) writeErr(`diskdelta fleet: ${s.test} skipped: ${s.why}\n`);
    for (const d of result.jobFile.differences) writeOut(`differs from diskdelta run: ${d}\n`);
    for (const n of result.notes) writeErr(`diskdelta fleet: ${n}\n`);
    for (const p of result.problems) writeErr(`diskdelta fleet: ${p}\n`);
    for (const run of result.runs) {
      const figures = run.results
        .map((r) => `${r.test} ${r.bytesPerSec === null ? 'failed' : rateFigureText(r, 'bytesPerSec')}`)
        .join(', ');
      writeOut(`${run.sourceMeta['fio.host']}: ${figures} (one fio run per test: no spread)\n`);
    }
    const outcome = await saveMeasured(opened.library, result.runs);
    if (outcome?.saved) writeOut(`Saved ${result.runs.length} host run(s) to the library.\n`);
    else if (outcome) writeErr(notSavedLine('fleet run', outcome));
    return result.runs.length === 0 || result.problems.length > 0 ? EXIT_FAILURE : 0;
  } catch (error) {
    if (error instanceof FleetError) {
      writeErr(`diskdelta fleet: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  } finally {
    opened.library?.close();
  }
}

function figureText(id: (typeof FLEET_FIGURES)[number], v: number | undefined): string {
  if (v === undefined) return '—';
  return id.metric === 'bytesPerSec' ? formatThroughput(v) : formatIops(v, id.metric === 'seeks' ? 'seeks/s' : 'IOPS');
}

export function formatFleetText(fleet: FleetComparison): string {
  const shown = FLEET_FIGURES.filter((f) => fleet.stats.some((s) => s.figure === f.id));
  const out: string[] = [];
  for (const row of fleet.rows) {
    const figs = shown.map((f) => `${f.label} ${figureText(f, row.figures[f.id])}`).join(', ');
    const odd = row.outliers.map((o) => `${o.side} ${FLEET_FIGURES.find((f) => f.id === o.figure)?.label}`).join(', ');
    out.push(`${row.host}  ${row.device ?? 'device ?'}  ${row.deviceClass.toUpperCase()}  ${figs}${odd ? `  OUTLIER: ${odd}` : ''}`);
    out.push(`    ${row.verdict}`);
  }
  out.push('');
  for (const s of fleet.stats) {
    const f = FLEET_FIGURES.find((x) => x.id === s.figure) as (typeof FLEET_FIGURES)[number];
    out.push(
      `fleet ${f.label} (${s.hosts} hosts): median ${figureText(f, s.median)}, 10th ${figureText(f, s.p10)}, 90th ${figureText(f, s.p90)}`,
    );
  }
  out.push('Every figure is one fio run per test: no run-to-run spread (flagged on each row in --json).');
  out.push(fleet.summary);
  if (fleet.superseded.length > 0) out.push(`Measured more than once (the newest run used): ${fleet.superseded.join(', ')}`);
  return `${out.join('\n')}\n`;
}

async function fleetCompare(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' }, db: { type: 'string' } }, true);
  const ids = positionals.map(parseRunId);
  return withLibrary(
    'fleet compare',
    values.db,
    (library) => {
      const runs = ids.length > 0 ? requireRuns(library, ids) : fleetRunsOf(library);
      if (runs.length === 0)
        throw new UsageError('no fleet runs in the library: run "diskdelta fleet run" or import a fio --client JSON file');
      const fleet = compareFleet(runs);
      writeOut(values.json ? `${JSON.stringify(fleet, null, 2)}\n` : formatFleetText(fleet));
      return 0;
    },
    { readOnly: true },
  );
}

export const fleetCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'run') return fleetRun(rest);
    if (sub === 'compare') return fleetCompare(rest);
    // Options before the verb: a mistyped one is named, as every other command names it.
    const stray = argv.find((a) => a.startsWith('-') && a !== '--json');
    if (stray)
      throw new UsageError(
        `${stray} is not an option of fleet itself: write diskdelta fleet run … or fleet compare … (diskdelta fleet --help)`,
      );
    throw new UsageError(`fleet needs "run" or "compare", got ${sub === undefined ? 'nothing' : `"${sub}"`}: diskdelta fleet --help`);
  },
};
