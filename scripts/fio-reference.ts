// fio (the Debian package) as the reference engine of the benchmark scripts: the same test,
// on the same file, with the same settings as DiskDelta's worker.
//
// --scramble_buffers=0: by default fio stamps offsets into every 512-byte sector, which makes
// its data ~9 % compressible and a compressing device (zram, some SSDs) faster or slower for
// reasons that are not the I/O path. The worker's data is incompressible.
import type { TestParams } from '../electron/shared/model/results.ts';

export interface FioRun {
  file: string;
  sizeBytes: number;
  params: TestParams;
  ioengine: 'libaio' | 'io_uring';
  durationSec: number;
  warmupSec: number;
}

export function fioArgs(run: FioRun): string[] {
  const p = run.params;
  const write = p.rw === 'write' || p.rw === 'randwrite';
  return [
    '--name=reference',
    `--filename=${run.file}`,
    `--size=${run.sizeBytes}`,
    '--direct=1',
    `--ioengine=${run.ioengine}`,
    `--rw=${p.rw}`,
    `--bs=${p.blockSize}`,
    `--iodepth=${p.queueDepth}`,
    `--numjobs=${p.threads}`,
    '--time_based',
    `--runtime=${run.durationSec}`,
    `--ramp_time=${run.warmupSec}`,
    '--norandommap',
    '--randrepeat=0',
    '--scramble_buffers=0',
    '--group_reporting',
    '--output-format=json',
    ...(write ? ['--end_fsync=1'] : []),
  ];
}

type FioDirection = { bw_bytes: number; iops: number; total_ios: number };
export type FioJob = Record<'read' | 'write', FioDirection> & { usr_cpu: number; sys_cpu: number };

/** fio's JSON (after any warning text it prints first) → the group's job. */
export function parseFioJson(stdout: string): FioJob {
  const json = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { jobs: FioJob[] };
  const job = json.jobs[0];
  if (!job) throw new Error('fio printed no job');
  return job;
}
