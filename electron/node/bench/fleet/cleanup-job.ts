// A host that stopped during a fleet run (its server killed, its jobs killed, its connection lost)
// never ran the last job, whose unlink=1 removes the test file: the file stays in its folder
// (issue #38 item 20). It is asked once more, with a job that removes that one file and nothing
// else; a host that cannot be asked is named with the file left there, its size and the command
// to remove it.
//
// The job: ioengine=filedelete unlinks the file by name. create_on_open=1 keeps fio from laying a
// missing file out first (without it, fio creates and truncates a missing file, following any link
// at its name, before deleting it: seen with strace on fio 3.33). unlink() removes a name, never
// what a link points to, and the name is the run's own unpredictable one (FLEET_FILE_PATTERN).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLEET_FILE_PATTERN, type FleetJobFile } from './fio-job-file.ts';
import type { FleetHost } from './hosts.ts';

/** How long one host may take to answer the cleanup: it connects and unlinks one file. */
const CLEANUP_TIMEOUT_MS = 30_000;

export function cleanupJobText(job: Pick<FleetJobFile, 'path'>): string {
  const slash = job.path.lastIndexOf('/');
  const folder = job.path.slice(0, slash) || '/';
  const name = job.path.slice(slash + 1);
  if (!FLEET_FILE_PATTERN.test(name)) throw new Error(`not a fleet test file: ${job.path}`);
  return [
    '[diskdelta-cleanup]',
    'ioengine=filedelete',
    `directory=${folder}`,
    `filename=${name}`,
    'unique_filename=0',
    'nrfiles=1',
    'create_on_open=1',
    'allow_file_create=0',
    'rw=read',
    'bs=4k',
    'size=4k',
    '',
  ].join('\n');
}

/** What fio's client said about the cleanup job: its error number, or why there is none. */
function cleanupError(stdout: string): number | null {
  const start = stdout.indexOf('{');
  if (start < 0) return null;
  try {
    const doc = JSON.parse(stdout.slice(start)) as { client_stats?: Array<{ error?: unknown; jobname?: unknown }> };
    const entry = doc.client_stats?.find((e) => e.jobname === 'diskdelta-cleanup');
    return typeof entry?.error === 'number' ? entry.error : null;
  } catch {
    return null;
  }
}

function runCleanup(fio: string, host: FleetHost, jobPath: string): Promise<{ stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(fio, ['--output-format=json', `--client=${host.clientArg}`, jobPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CLEANUP_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve({ stdout, stderr, timedOut });
    };
    child.on('error', (error) => {
      stderr += `fio: ${error.message}\n`;
      done();
    });
    child.on('close', done);
  });
}

const ENOENT = 2;

/** A path as one shell word, to be pasted on the host: single quotes, a quote inside closed and reopened. */
function shellWord(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

/** Asks each host to remove its test file; one line per host saying what became of it. */
export async function removeLeftTestFiles(
  hosts: ReadonlyArray<{ host: FleetHost; job: Pick<FleetJobFile, 'path' | 'sizeBytes'> }>,
  opts: { fio: string; dir: string },
): Promise<string[]> {
  return Promise.all(
    hosts.map(async ({ host, job }, i) => {
      const jobPath = join(opts.dir, `cleanup-${i}.fio`);
      writeFileSync(jobPath, cleanupJobText(job));
      const out = await runCleanup(opts.fio, host, jobPath);
      const error = cleanupError(out.stdout);
      if (error === 0) return `${host.key} stopped during the run; its test file ${job.path} was removed.`;
      if (error === ENOENT)
        return `${host.key} stopped during the run; its test file ${job.path} is not there (never made, or already removed).`;
      const said = out.stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('fio:'))
        .slice(0, 2)
        .join('; ');
      const why = out.timedOut
        ? `did not answer within ${CLEANUP_TIMEOUT_MS / 1000} s`
        : error !== null
          ? `could not remove it (error ${error})`
          : `cannot be reached${said ? ` (${said})` : ''}`;
      return (
        `${host.key} stopped during the run and ${why}: its test file ${job.path} (up to ${job.sizeBytes} bytes) may be left there. ` +
        `Remove it on that host: rm -f -- ${shellWord(job.path)}`
      );
    }),
  );
}
