// A preset's tests as one fio job file, for `fio --client` on a fleet (issue #26). In client
// mode every option must be in the job file (fio sends the file, not its command line, to each
// server), so this file is the whole test. Each job is named by its DiskDelta test id, so the
// importer (formats/fio-json.ts) maps it back to the same test: bs, iodepth, numjobs and rw are
// the catalog's parameters, and the import names a job from those, not from the name.
//
// Where fio cannot do what DiskDelta's worker does, the file says so (DIFFERENCES): the worker
// repeats short timed runs until the median's interval is tight; fio gives one mean per job.
import { rateTestParams } from '../../model/catalog.ts';
import type { TestParams } from '../../model/test-params.ts';
import type { Preset } from '../presets.ts';

export interface FleetJobFile {
  /** The job file's text. */
  text: string;
  /** The DiskDelta tests written as jobs, in order. */
  tests: string[];
  /** Tests of the preset fio has no job for, with why. */
  skipped: Array<{ test: string; why: string }>;
  /** How these jobs differ from DiskDelta's own run of the preset, said to the user. */
  differences: string[];
}

/** The test file on each host, in the folder given: one file for every job, removed by the last. */
export const FLEET_FILE_NAME = 'diskdelta-fleet.fio.tmp';

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
 * sizeBytes/durationSec override the preset's, as `diskdelta run`'s flags do.
 */
export function fleetJobFile(preset: Preset, opts: { folder: string; sizeBytes?: number; durationSec?: number }): FleetJobFile {
  if (!opts.folder.startsWith('/') || /[\n\r]/.test(opts.folder)) {
    throw new Error(`the folder on each host must be an absolute path on one line, got ${JSON.stringify(opts.folder)}`);
  }
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
    `filename=${FLEET_FILE_NAME}`,
    // A server prefixes the file name with the client's address by default (unique_filename):
    // the file on each host would be "198.18.0.2.diskdelta-fleet.fio.tmp", not the name said.
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
    `one test file ${opts.folder}/${FLEET_FILE_NAME} of ${sizeBytes} bytes per host, laid out by fio before the first job and removed after the last`,
  ];
  return { text: `${global.join('\n')}\n\n${jobs.join('\n\n')}\n`, tests, skipped, differences };
}
