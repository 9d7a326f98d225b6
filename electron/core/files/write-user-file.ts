// The one writer of paths a user chose (export --out, PDF reports). What is at the path
// decides how it is written, because renaming a temporary file over it — the usual "atomic
// write" — is only right for a new regular file:
//  - a character device, pipe or terminal (/dev/null, /dev/full, a FIFO, /dev/tty) is
//    written directly, and a failed write is an error (/dev/full says "no space");
//  - /dev/stdout, /dev/fd/N, /proc/self/fd/N are the caller's own open descriptors: written
//    through that descriptor, so a shell redirect (`> file`, `| less`) gets the bytes;
//  - an existing regular file is only replaced with `force`, and is rewritten in place so it
//    keeps its owner, mode and hard links (a rename would give a new inode owned by us);
//  - a symlink is followed: its target is what gets written;
//  - a missing file is written to a temporary file beside it and linked into place, so an
//    interrupted write never leaves half a file and a file that appears meanwhile is kept;
//  - a block device is refused: DiskDelta never writes to a disk.
// Nothing is opened so that it can wait: a FIFO with no reader once made `export --out FIFO`
// wait forever in open(2). Opens are O_NONBLOCK (a FIFO without a reader fails with ENXIO,
// after a short grace for a reader started just before), the kind of the opened file is checked
// against what stat saw, and a full pipe is waited on write by write.
// Errors are UserFileError with a message that names the user's path, never the hidden
// temporary file.
import { constants, fstat, write, type Stats } from 'node:fs';
import { link, lstat, open, readlink, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { shortPath } from '../model/display.ts';

export type UserFileErrorCode = 'exists' | 'refused' | 'failed';

export class UserFileError extends Error {
  override name = 'UserFileError';
  /** exists: a regular file is there and force was not given; refused: not a writable kind of path; failed: the OS said no. */
  readonly code: UserFileErrorCode;
  readonly path: string;
  constructor(code: UserFileErrorCode, path: string, message: string) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

export interface WriteUserFileOptions {
  /** Replace an existing regular file (in place: owner, mode and hard links are kept). */
  force?: boolean;
}

/** Writes `data` to `path` as described above; resolves once every byte is written (and synced for files). */
export async function writeUserFile(path: string, data: string | Uint8Array, options: WriteUserFileOptions = {}): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = await ownDescriptor(path);
  if (fd !== null) return writeToOwnDescriptor(path, fd, bytes);

  let info;
  try {
    info = await stat(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw failed(path, error);
    if ((await lstat(path).catch(() => null))?.isSymbolicLink()) {
      const to = await readlink(path).catch(() => '?');
      throw new UserFileError('refused', path, `cannot write ${shortPath(path)}: it is a symbolic link to ${to}, which does not exist`);
    }
    return writeNewFile(path, bytes);
  }
  if (info.isDirectory())
    throw new UserFileError('refused', path, `cannot write ${shortPath(path)}: it is a folder; name a file inside it`);
  if (info.isBlockDevice())
    throw new UserFileError(
      'refused',
      path,
      `refusing to write ${shortPath(path)}: it is a block device, and DiskDelta never writes to disks`,
    );
  if (info.isSocket()) throw new UserFileError('refused', path, `cannot write ${shortPath(path)}: it is a socket`);
  if (info.isFile()) {
    if (!options.force) throw new UserFileError('exists', path, `${shortPath(path)} already exists and was left unchanged`);
    return writeInPlace(path, bytes, true);
  }
  return writeInPlace(path, bytes, false); // a character device or a FIFO
}

/** The fd number when `path` (or a symlink on the way) names one of this process's open descriptors. */
async function ownDescriptor(path: string): Promise<number | null> {
  const pattern = new RegExp(`^/(?:dev/fd|proc/(?:self|${process.pid})/fd)/(\\d+)$`);
  let current = resolve(path);
  for (let hop = 0; hop < 40; hop++) {
    const match = pattern.exec(current);
    if (match) return Number(match[1]);
    const info = await lstat(current).catch(() => null);
    if (!info?.isSymbolicLink()) return null;
    current = resolve(dirname(current), await readlink(current));
  }
  return null;
}

async function writeToOwnDescriptor(path: string, fd: number, bytes: Uint8Array): Promise<void> {
  const kind = await new Promise<Stats>((ok, fail) => fstat(fd, (e, s) => (e ? fail(e) : ok(s)))).catch((error: unknown) => {
    throw failed(path, error);
  });
  if (kind.isBlockDevice())
    throw new UserFileError(
      'refused',
      path,
      `refusing to write ${shortPath(path)}: it is a block device, and DiskDelta never writes to disks`,
    );
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += await new Promise<number>((ok, fail) =>
        write(fd, bytes, offset, bytes.length - offset, null, (e, n) => (e ? fail(e) : ok(n))),
      );
    } catch (error) {
      // Node leaves pipes it inherited non-blocking: a full pipe is a wait, not a failure.
      if (errnoCode(error) === 'EAGAIN') {
        await sleep(5);
        continue;
      }
      throw failed(path, error);
    }
  }
}

/**
 * Writes into what is at the path, keeping it what it is. A stream (device, FIFO) just gets the
 * bytes: O_TRUNC means nothing to it and O_CREAT must not turn a vanished device into a file.
 * A regular file is rewritten from its start and then cut to length: no O_TRUNC before the
 * bytes are written, so a write that fails for lack of space leaves the old length, not an
 * empty file.
 */
async function writeInPlace(path: string, bytes: Uint8Array, regular: boolean): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await openForWriting(path);
    // A regular file swapped for a FIFO (or the reverse) since stat: not what was decided on.
    if ((await handle.stat()).isFile() !== regular)
      throw new UserFileError('failed', path, `cannot write ${shortPath(path)}: it was replaced while being opened; nothing was written`);
    await writeAll(handle, bytes);
    if (regular) {
      await handle.truncate(bytes.length);
      await handle.sync();
    }
    await handle.close();
    handle = undefined;
  } catch (error) {
    throw failed(path, error);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** A reader started just before DiskDelta (`cat FIFO & diskdelta export --out FIFO`) may open its end a moment later. */
const READER_GRACE_MS = 1000;

/** O_NONBLOCK: a FIFO without a reader (or a device that waits for a carrier) fails instead of waiting. */
async function openForWriting(path: string): Promise<FileHandle> {
  const started = Date.now();
  for (;;) {
    try {
      return await open(path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
    } catch (error) {
      if (errnoCode(error) !== 'ENXIO' || Date.now() - started > READER_GRACE_MS) throw error;
      await sleep(20);
    }
  }
}

async function writeNewFile(path: string, bytes: Uint8Array): Promise<void> {
  const folder = dirname(resolve(path));
  const folderInfo = await stat(folder).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT')
      throw new UserFileError('failed', path, `cannot write ${shortPath(path)}: the folder ${shortPath(folder)} does not exist`);
    throw failed(path, error);
  });
  if (!folderInfo.isDirectory())
    throw new UserFileError('failed', path, `cannot write ${shortPath(path)}: ${shortPath(folder)} is not a folder`);
  const tmp = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
    await writeAll(handle, bytes);
    await handle.sync();
    await handle.close();
    handle = undefined;
    // link() fails if the name appeared since stat(): that file is kept, not replaced.
    await link(tmp, path).catch(async (error: unknown) => {
      const code = errnoCode(error);
      if (code === 'EEXIST') throw new UserFileError('exists', path, `${shortPath(path)} appeared while writing and was left unchanged`);
      // Filesystems without hard links (vfat, some FUSE): rename, which the stat above made safe enough.
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EMLINK' || code === 'ENOSYS')
        await rename(tmp, path);
      else throw error;
    });
  } catch (error) {
    throw error instanceof UserFileError ? error : failed(path, error);
  } finally {
    await handle?.close().catch(() => {});
    await rm(tmp, { force: true }).catch(() => {});
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    let bytesWritten: number;
    try {
      ({ bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, null));
    } catch (error) {
      // Opened O_NONBLOCK: a full pipe is a wait for the reader, not a failure.
      if (errnoCode(error) !== 'EAGAIN') throw error;
      await sleep(5);
      continue;
    }
    if (bytesWritten === 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
    offset += bytesWritten;
  }
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the filesystem is read-only',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENXIO: 'nothing is reading at the other end (a FIFO without a reader, or a device not there): start the reader first',
  EPIPE: 'the reader went away',
  EIO: 'an I/O error',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/** An OS error as a message about the user's path; error.message is not used because it may name the temporary file. */
function failed(path: string, error: unknown): UserFileError {
  if (error instanceof UserFileError) return error;
  const code = errnoCode(error);
  const reason = code ? `${REASONS[code] ?? 'the system refused'} (${code})` : error instanceof Error ? error.message : String(error);
  return new UserFileError('failed', path, `cannot write ${shortPath(path)}: ${reason}`);
}
