// A throwaway dm-crypt mapping over DiskDelta's own test file, for users who are not encrypted
// yet: test file → loop device → `cryptsetup open --type plain` with a random key read from
// /dev/urandom by cryptsetup itself (never seen, never stored). Root only: this is the one
// small module the privileged helper can later call. Everything it creates carries a DiskDelta
// name with the owner's pid — mapping diskdelta-crypt-PID-RAND, file .diskdelta-crypt-PID-RAND.img
// — so a later run can find what a killed one left, and nothing else is ever touched.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { BenchError } from '../bench/errors.ts';
import { workerCommand } from '../bench/worker-argv.ts';
import { locateWorker } from '../bench/worker-client.ts';
import { isRunning, listLoopDevices, ownerPid } from '../system/leftovers.ts';
import { DM_PREFIX, FILE_PREFIX } from '../system/throwaway-devices.ts';
import { withStderr } from '../../shared/model/stderr-tail.ts';

const run = promisify(execFile);

/** dm-crypt's performance flags, as cryptsetup's --perf-* options name them. */
export const DM_CRYPT_FLAGS = ['no_read_workqueue', 'no_write_workqueue', 'same_cpu_crypt', 'submit_from_crypt_cpus'] as const;
export type DmCryptFlag = (typeof DM_CRYPT_FLAGS)[number];

export interface ThrowawayOptions {
  /** The folder the test file goes in (the disk being assessed). */
  folder: string;
  sizeBytes: number;
  /** dm-crypt cipher spec, e.g. aes-xts-plain64. */
  cipher: string;
  keyBits: number;
  sectorBytes: 512 | 4096;
  flags: DmCryptFlag[];
  workerPath?: string;
}

export interface Throwaway {
  file: string;
  loop: string;
  name: string;
  /** /dev/mapper/NAME */
  mapping: string;
  /** Close the mapping, detach the loop, remove the file; safe to call twice. */
  teardown: () => Promise<void>;
}

async function has(cmd: string, args: string[]): Promise<boolean> {
  return run(cmd, args).then(
    () => true,
    () => false,
  );
}

/** Why a throwaway mapping cannot be made here (what is missing, what still works), or null. */
export async function throwawayUnavailable(): Promise<string | null> {
  const still = 'the cipher ceilings and the forecast still work';
  if (process.getuid?.() !== 0) return `a throwaway dm-crypt mapping needs root (loop device + device-mapper); ${still}`;
  if (!(await has('cryptsetup', ['--version']))) return `cryptsetup is not installed (Debian cryptsetup-bin); ${still}`;
  if (!(await has('losetup', ['--version']))) return `losetup is not installed (Debian util-linux); ${still}`;
  // `dmsetup version` asks the kernel's driver itself: /proc/misc misses a dm-mod that is a
  // module not loaded yet, and a /dev/mapper/control node can exist on a kernel without it.
  if (!(await has('dmsetup', ['version']))) {
    return `this kernel has no device-mapper (dm-mod), so dm-crypt cannot run here; ${still}`;
  }
  return null;
}

/**
 * Remove what killed runs left: DiskDelta mappings and loop devices whose owner is gone, and
 * their files. Returns one sentence per thing removed. Names without the DiskDelta prefix, or
 * whose owner still runs, are never touched.
 */
export async function sweepThrowaways(): Promise<string[]> {
  const said: string[] = [];
  const dm = await run('dmsetup', ['ls']).then(
    (r) => r.stdout,
    () => '',
  );
  for (const line of dm.split('\n')) {
    const name = line.split(/\s+/)[0] ?? '';
    const pid = ownerPid(name, DM_PREFIX);
    if (pid === null || isRunning(pid)) continue;
    await run('cryptsetup', ['close', name]).catch(() => run('dmsetup', ['remove', '--force', name]));
    said.push(`removed the dm-crypt mapping ${name} left by a killed run (pid ${pid})`);
  }
  for (const d of await listLoopDevices()) {
    const back = d.backFile;
    const pid = ownerPid(basename(back), FILE_PREFIX);
    if (pid === null || isRunning(pid)) continue;
    await run('losetup', ['-d', d.name]).catch(() => {});
    said.push(`detached the loop device ${d.name} left by a killed run (pid ${pid})`);
    if (existsSync(back)) {
      await rm(back, { force: true });
      said.push(`removed its file ${back}`);
    }
  }
  return said;
}

/** The exact name openThrowaway gives its file: FILE_PREFIX, the owner's pid, 8 hex digits, .img. */
const THROWAWAY_FILE = new RegExp(`^${FILE_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-[0-9a-f]{8}\\.img$`);

/**
 * Files of killed runs in a folder that no loop device holds any more: only a regular file of
 * this user with one link, under the exact name openThrowaway gives it, whose owner pid is gone.
 * A folder, a link, another user's file or a look-alike name stays.
 */
export async function sweepThrowawayFiles(folder: string): Promise<string[]> {
  const { lstat, readdir } = await import('node:fs/promises');
  const said: string[] = [];
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const m = THROWAWAY_FILE.exec(name);
    if (!m || isRunning(Number(m[1]))) continue;
    const st = await lstat(join(folder, name)).catch(() => null);
    if (!st?.isFile() || st.uid !== process.geteuid?.() || st.nlink !== 1) continue;
    await rm(join(folder, name), { force: true });
    said.push(`removed ${join(folder, name)} left by a killed run (pid ${m[1]})`);
  }
  return said;
}

/** The cryptsetup argv for a plain mapping with a key cryptsetup reads from /dev/urandom itself. */
export function cryptsetupOpenArgs(
  o: Pick<ThrowawayOptions, 'cipher' | 'keyBits' | 'sectorBytes' | 'flags'>,
  loop: string,
  name: string,
): string[] {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*(-[a-z0-9]+(:[a-z0-9]+)?)?$/.test(o.cipher))
    throw new BenchError('usage', `not a dm-crypt cipher spec: ${o.cipher}`);
  return [
    'open',
    '--type',
    'plain',
    '--cipher',
    o.cipher,
    '--key-size',
    String(o.keyBits),
    '--sector-size',
    String(o.sectorBytes),
    '--key-file',
    '/dev/urandom',
    '--keyfile-size',
    String(o.keyBits / 8),
    ...o.flags.map((f) => `--perf-${f}`),
    loop,
    name,
  ];
}

/**
 * The worker fills a test file with incompressible data (O_DIRECT) in the folder and keeps it
 * (named .diskdelta-PID-….tmp; it sweeps killed runs' files first). Returns its path.
 */
export async function prepareTestFile(o: Pick<ThrowawayOptions, 'folder' | 'sizeBytes' | 'workerPath'>): Promise<string> {
  const prep = await run(o.workerPath ?? locateWorker(), workerCommand('prepare', { target: o.folder, size: o.sizeBytes }), {
    maxBuffer: 1 << 24,
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  const prepared = prep.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; file?: string; message?: string });
  const made = prepared.find((m) => m.type === 'prepared')?.file;
  if (!made)
    throw new BenchError(
      'throwaway-failed',
      `could not make the test file in ${o.folder}: ${prepared.find((m) => m.type === 'error')?.message ?? 'no answer from the worker'}`,
    );
  return made;
}

/** Make the throwaway mapping. On any failure what was made so far is removed again. */
export async function openThrowaway(o: ThrowawayOptions): Promise<Throwaway> {
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const name = `${DM_PREFIX}${id}`;
  let file = '';
  let loop = '';
  let opened = false;
  const teardown = async () => {
    if (opened) await run('cryptsetup', ['close', name]).catch(() => run('dmsetup', ['remove', '--force', name]).catch(() => {}));
    opened = false;
    if (loop) await run('losetup', ['-d', loop]).catch(() => {});
    loop = '';
    if (file) await rm(file, { force: true });
  };
  try {
    const made = await prepareTestFile(o);
    file = join(dirname(made), `${FILE_PREFIX}${id}.img`);
    await rename(made, file);
    // --direct-io: the loop device reads the file with O_DIRECT, so the host's page cache is not measured.
    loop = (await run('losetup', ['-f', '--show', '--direct-io=on', file])).stdout.trim();
    await run('cryptsetup', cryptsetupOpenArgs(o, loop, name));
    opened = true;
    return { file, loop, name, mapping: `/dev/mapper/${name}`, teardown };
  } catch (error) {
    await teardown();
    if (error instanceof BenchError) throw error;
    const e = error as { stderr?: string; message: string };
    throw new BenchError(
      'throwaway-failed',
      withStderr(`could not set up the throwaway mapping: ${e.message.split('\n')[0]}`, e.stderr ?? ''),
    );
  }
}
