// A preset's tests as one fio job file, for `fio --client` on a fleet (issue #26). In client
// mode every option must be in the job file (fio sends the file, not its command line, to each
// server), so this file is the whole test. Each job is named by its DiskDelta test id, so the
// importer (formats/fio-json.ts) maps it back to the same test: bs, iodepth, numjobs and rw are
// the catalog's parameters, and the import names a job from those, not from the name.
//
// Where fio cannot do what DiskDelta's worker does, the file says so (DIFFERENCES): the worker
// repeats short timed runs until the median's interval is tight; fio gives one mean per job.
import { randomBytes } from 'node:crypto';
import { rateTestParams } from '../../../shared/model/catalog.ts';
import type { TestParams } from '../../../shared/model/test-params.ts';
import type { Preset } from '../../../shared/catalog/presets.ts';

export interface FleetJobFile {
  /** The job file's text. */
  text: string;
  /** The DiskDelta tests written as jobs, in order. */
  tests: string[];
  /** Tests of the preset fio has no job for, with why. */
  skipped: Array<{ test: string; why: string }>;
  /** How these jobs differ from DiskDelta's own run of the preset, said to the user. */
  differences: string[];
  /** The test file on the host: FOLDER/.diskdelta-fleet-HEX.tmp, one for every job, removed by the last. */
  path: string;
  sizeBytes: number;
}

/**
 * The test file's name on a host: 128 random bits, new for every host of every run. fio opens
 * its files by name, following symbolic links, without O_EXCL (filesetup.c: extend_file,
 * file_lookup_open; no job option asks for O_NOFOLLOW or O_EXCL), as whoever runs the server,
 * often root. A fixed name let anyone who can write in the folder place a link there ahead of
 * the run (issue #38 item 1); a name nobody knows cannot be placed ahead.
 */
export function fleetTestFileName(): string {
  return `.diskdelta-fleet-${randomBytes(16).toString('hex')}.tmp`;
}

/** The shape of fleetTestFileName's names: what a cleanup may remove, and nothing else. */
export const FLEET_FILE_PATTERN = /^\.diskdelta-fleet-[0-9a-f]{32}\.tmp$/;

/**
 * Why a folder cannot be written into a fio job file, or null. fio reads "directory=" up to the
 * end of the line, cuts it at ';' or '#' (a comment), splits it at ':' (several folders), takes
 * '\\' as an escape, expands '$' ("${HOME}", "$mb_memory") and trims blanks at either end: each
 * would make the hosts use another folder than the one given, or fail with fio's own words.
 */
export function hostFolderProblem(folder: string): string | null {
  const shown = JSON.stringify(folder);
  if (!folder.startsWith('/')) return `the folder on each host must be an absolute path (starting with /), got ${shown}`;
  if (/[\u0000-\u001f\u007f]/.test(folder))
    return `the folder ${shown} holds a control character (a newline, a tab): name a folder without one`;
  const special = [...new Set(folder.match(/[:;#$\\]/g) ?? [])];
  if (special.length > 0) {
    return (
      `the folder ${shown} holds ${special.map((c) => `"${c}"`).join(', ')}, which fio's job file reads as ` +
      'a separator, a comment, a variable or an escape: name a folder without : ; # $ \\ (a symbolic link to it will do)'
    );
  }
  if (folder !== folder.trim()) return `the folder ${shown} begins or ends with a blank, which fio drops: name it without`;
  return null;
}

export class HostFolderError extends Error {
  override name = 'HostFolderError';
}

/** fio's rw= for each pattern; seeks are bonnie++'s own and absent. */
const RW: Partial<Record<TestParams['rw'], string>> = {
  read: 'read',
  write: 'write',
  randread: 'randread',
  randwrite: 'randwrite',
  randrw: 'randrw',
};

/** Seconds as fio reads them, without float noise: "0.2" becomes "200ms". */
function fioSeconds(sec: number): string {
  return Number.isInteger(sec) ? `${sec}s` : `${Math.round(sec * 1000)}ms`;
}

/**
 * The job file for a preset. folder: where each host makes its test file (it must exist there);
 * fileName: the test file's name there (fleetTestFileName, new for each host);
 * sizeBytes/durationSec override the preset's, as `diskdelta run`'s flags do.
 */
export function fleetJobFile(
  preset: Preset,
  opts: { folder: string; fileName?: string; sizeBytes?: number; durationSec?: number },
): FleetJobFile {
  const problem = hostFolderProblem(opts.folder);
  if (problem) throw new HostFolderError(problem);
  const fileName = opts.fileName ?? fleetTestFileName();
  if (!FLEET_FILE_PATTERN.test(fileName)) throw new Error(`not a fleet test file name: ${fileName}`);
  const path = `${opts.folder.replace(/\/+$/, '')}/${fileName}`;
  const sizeBytes = opts.sizeBytes ?? preset.sizeBytes;
  // Adaptive presets stop when the interval is tight or at maxTimeSec; fio runs one job for
  // that longest time, so no host is measured for less than DiskDelta would have taken.
  const runtime = opts.durationSec ?? (preset.precision > 0 ? preset.maxTimeSec : preset.durationSec * preset.runs);
  const tests: string[] = [];
  const skipped: FleetJobFile['skipped'] = [];
  const jobs: string[] = [];
  for (const test of preset.tests) {
    const p = rateTestParams(test);
    const rw = p ? RW[p.rw] : undefined;
    if (!p || !rw) {
      skipped.push({
        test,
        why: p
          ? 'bonnie++-style seeks (3 threads of synchronous 8 KiB reads, counted as seeks) are not written as a fio job'
          : 'not a rate test (workloads): fio has no job for it',
      });
      continue;
    }
    const lines = [`[${test}]`, 'stonewall', `rw=${rw}`, `bs=${p.blockSize}`, `iodepth=${p.queueDepth}`, `numjobs=${p.threads}`];
    if (p.rw === 'randrw') lines.push(`rwmixread=${p.readPercent ?? 50}`);
    if (p.spanMiB !== undefined) lines.push(`io_size=${sizeBytes}`, `size=${p.spanMiB}m`);
    if (p.rw.includes('write')) lines.push('end_fsync=1');
    tests.push(test);
    jobs.push(lines.join('\n'));
  }
  if (jobs.length === 0)
    throw new Error(
      `preset ${preset.name} has no test fio can run (${skipped.map((s) => s.test).join(', ')}): choose a preset with rate tests, e.g. quick`,
    );
  // The last job removes the file: every job before it reuses the one laid out by the first.
  jobs[jobs.length - 1] += '\nunlink=1';
  const global = [
    `; DiskDelta preset ${preset.name}, as fio jobs for fio --client (written by diskdelta fleet run)`,
    '[global]',
    'ioengine=libaio',
    'direct=1',
    `directory=${opts.folder}`,
    `filename=${fileName}`,
    // A server prefixes the file name with the client's address by default (unique_filename):
    // the file on each host would be "198.18.0.2.diskdelta-fleet-….tmp", not the name said.
    'unique_filename=0',
    `size=${sizeBytes}`,
    'time_based=1',
    `runtime=${fioSeconds(runtime)}`,
    `ramp_time=${fioSeconds(preset.warmupSec)}`,
    // Incompressible data for every write, as the worker writes: fresh random buffers each I/O.
    'refill_buffers=1',
    'randrepeat=0',
    'group_reporting=1',
  ];
  const differences = [
    `one timed run of ${fioSeconds(runtime)} per test after a ${fioSeconds(preset.warmupSec)} warm-up: fio gives one mean per job, ` +
      (preset.precision > 0
        ? `where DiskDelta repeats ${fioSeconds(preset.durationSec)} runs until the median's 95 % interval is within ±${preset.precision * 100} %; a fleet figure has no run-to-run spread`
        : `where DiskDelta takes the median of ${preset.runs} run(s)`),
    'writes flush once at the end (end_fsync=1), where the worker flushes at the end of each timed run',
    `one test file ${opts.folder.replace(/\/+$/, '')}/.diskdelta-fleet-<random>.tmp of ${sizeBytes} bytes per host, laid out by fio before the first job and removed after the last`,
  ];
  return { text: `${global.join('\n')}\n\n${jobs.join('\n\n')}\n`, tests, skipped, differences, path, sizeBytes };
}
