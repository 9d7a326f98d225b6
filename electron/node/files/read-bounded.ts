// Reading a file whose path may not hold what it promises: a sysfs or procfs attribute, a
// hwmon sensor, a file the user named. Two things must never happen while a run goes on:
//  - an open(2) that waits: a FIFO planted where a file was expected (a sensor's temp1_input,
//    --tarball FIFO) makes open(O_RDONLY) wait for a writer that never comes. On the threadpool
//    that wait held the run forever, and even process.exit() waits for the threadpool's threads
//    (libuv joins them at exit), so SIGTERM could not end it. Every open here is O_NONBLOCK and
//    what it opened is checked with fstat (no race with a path check): anything but a regular
//    file is refused with what it is.
//  - a read that waits unbounded: every asynchronous read here has a bound after which the
//    caller gets an error and goes on. A read stuck in the kernel still holds its thread, so a
//    caller that may meet one again (a drive's sensor, read every 2 s) stops asking after the
//    first (bench/temperature-watch.ts reads the sensor in a child for that reason).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** O_NONBLOCK: a FIFO opens at once (and is then refused) instead of waiting for a writer. */
export const OPEN_NO_WAIT = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** How long an asynchronous read may take before its caller stops waiting for it. */
export const READ_BOUND_MS = 5000;

/** The most read from one file: sysfs attributes are a page, mountinfo a few hundred KiB; /proc/kcore is not to be read whole. */
const MAX_READ_BYTES = 16 * 2 ** 20;

/** What a path is when it is not a regular file, for "… is a FIFO" messages. */
export function fileKind(info: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'>): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A path that is not a regular file (code ENOTREG), or one that did not answer in time (ETIMEDOUT). */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
  readonly code: 'ENOTREG' | 'ETIMEDOUT' | 'EFBIG';
  readonly path: string;
  constructor(code: UnreadableFileError['code'], path: string, message: string) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

function notRegular(path: string, info: Stats): UnreadableFileError {
  return new UnreadableFileError('ENOTREG', path, `${path} is ${fileKind(info)}, not a regular file: it was not read`);
}

/** Opens `path` for reading without waiting in open(2); refuses (and closes) anything but a regular file. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, OPEN_NO_WAIT);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(path, info);
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

/** Resolves with `work`, or rejects with ETIMEDOUT once `ms` have passed (the work itself goes on, unwaited). */
export function withinBound<T>(work: Promise<T>, ms: number, what: string, path: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnreadableFileError('ETIMEDOUT', path, `${what} did not answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function readAll(handle: FileHandle, path: string, maxBytes: number): Promise<Buffer> {
  // procfs and sysfs files say size 0: read to the end rather than trust the size.
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(65536, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw new UnreadableFileError('EFBIG', path, `${path} holds more than ${maxBytes} bytes: it was not read`);
  }
}

export interface BoundedReadOptions {
  /** Milliseconds before the caller stops waiting (READ_BOUND_MS). */
  boundMs?: number;
  maxBytes?: number;
}

/**
 * The whole of a regular file, opened without waiting and read within a bound. Rejects with
 * the open's own error (ENOENT, EACCES…) or an UnreadableFileError.
 */
export async function readRegularFile(path: string, options: BoundedReadOptions = {}): Promise<Buffer> {
  const boundMs = options.boundMs ?? READ_BOUND_MS;
  const work = (async () => {
    const handle = await openRegularFile(path);
    try {
      return await readAll(handle, path, options.maxBytes ?? MAX_READ_BYTES);
    } finally {
      await handle.close().catch(() => {});
    }
  })();
  work.catch(() => {}); // a read given up on may still fail later: not an unhandled rejection
  return withinBound(work, boundMs, path, path);
}

/**
 * The synchronous form, for procfs files read between two steps (/proc/stat, /proc/self/mountinfo):
 * no open that waits, regular files only. A regular procfs file's read does not wait on
 * anything outside the kernel, so it needs no bound of its own.
 */
export function readRegularFileSync(path: string, maxBytes = MAX_READ_BYTES): string {
  const fd = openSync(path, OPEN_NO_WAIT);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw notRegular(path, info);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(65536);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks, total).toString('utf8');
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw new UnreadableFileError('EFBIG', path, `${path} holds more than ${maxBytes} bytes: it was not read`);
    }
  } finally {
    closeSync(fd);
  }
}
