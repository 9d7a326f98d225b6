// The one writer of paths a user chose (export --out, PDF and HTML reports, runs kept when the
// library cannot take them). What is at the path decides how it is written, because renaming a
// temporary file over it — the usual "atomic write" — is only right for a new regular file:
//  - a character device, pipe or terminal (/dev/null, /dev/full, a FIFO, /dev/tty) is
//    written directly, and a failed write is an error (/dev/full says "no space");
//  - /dev/stdout, /dev/fd/N, /proc/self/fd/N are the caller's own open descriptors: written
//    through that descriptor, so a shell redirect (`> file`, `| less`) gets the bytes;
//  - an existing regular file is only replaced with `force`, and is rewritten in place so it
//    keeps its owner, mode and hard links (a rename would give a new inode owned by us);
//  - a symlink is refused, never followed: in a folder others may write (a group-writable
//    one), a link planted at the name would send a report run as root over any file;
//  - a missing file is written to a temporary file of an unpredictable name beside it and
//    linked into place, so an interrupted write never leaves half a file and a file that
//    appears meanwhile is kept;
//  - a block device is refused: DiskDelta never writes to disks.
// The folder is opened once, when the output is opened (openUserOutput, before a report is
// rendered), and every later step goes through that descriptor (/proc/self/fd/N/NAME, with
// O_NOFOLLOW on the name): a folder swapped for a symlink while the report renders no longer
// redirects it. This is how the worker opens its files (openat on a held folder, O_NOFOLLOW).
// Nothing is opened so that it can wait: a FIFO with no reader once made `export --out FIFO`
// wait forever in open(2). Opens are O_NONBLOCK (a FIFO without a reader fails with ENXIO,
// after a short grace for a reader started just before), the kind of the opened file is checked
// against what lstat saw, and a full pipe is waited on write by write.
// Errors are UserFileError with a message that names the user's path, never the hidden
// temporary file.
import { constants, fstat, write, type Stats } from 'node:fs';
import { link, lstat, open, readlink, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { shortPath } from '../../shared/model/display.ts';

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

/** An output opened before its bytes exist: its folder is held from here on. */
export interface UserOutput {
  /** Writes `data` as described above; resolves once every byte is written (and synced for files). */
  write(data: string | Uint8Array): Promise<void>;
  /** Lets the folder go (after write, or instead of it). */
  close(): Promise<void>;
}

/** Writes `data` to `path` as described above. */
export async function writeUserFile(path: string, data: string | Uint8Array, options: WriteUserFileOptions = {}): Promise<void> {
  const output = await openUserOutput(path, options);
  try {
    await output.write(data);
  } finally {
    await output.close();
  }
}

/**
 * Opens the output at `path`: the caller's own descriptor, or the folder that will hold the file,
 * held from now on. What is at the name is checked now (a report says "exists" before it renders)
 * and again when writing.
 */
export async function openUserOutput(path: string, options: WriteUserFileOptions = {}): Promise<UserOutput> {
  const fd = await ownDescriptor(path);
  if (fd !== null) return { write: (data) => writeToOwnDescriptor(path, fd, bytesOf(data)), close: () => Promise.resolve() };
  const folder = await openFolder(path);
  try {
    await decide(path, folder, options);
  } catch (error) {
    await folder.handle.close();
    throw error;
  }
  let closed = false;
  return {
    write: (data) => writeInFolder(path, folder, bytesOf(data), options),
    close: async () => {
      if (closed) return;
      closed = true;
      await folder.handle.close();
    },
  };
}

const bytesOf = (data: string | Uint8Array) => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

interface HeldFolder {
  handle: FileHandle;
  /** The name inside the folder. */
  name: string;
  /** A name inside the held folder as a path: the folder's descriptor, then the name (never re-resolved from the user's path). */
  at(name: string): string;
}

async function openFolder(path: string): Promise<HeldFolder> {
  const folder = dirname(resolve(path));
  const name = basename(resolve(path));
  let handle: FileHandle;
  try {
    handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT')
      throw new UserFileError('failed', path, `cannot write ${shortPath(path)}: the folder ${shortPath(folder)} does not exist`);
    if (code === 'ENOTDIR')
      throw new UserFileError('failed', path, `cannot write ${shortPath(path)}: ${shortPath(folder)} is not a folder`);
    throw failed(path, error);
  }
  return { handle, name, at: (n) => `/proc/self/fd/${handle.fd}/${n}` };
}

/** What is at the name, through the held folder: null for nothing; refusals thrown. */
async function decide(path: string, folder: HeldFolder, options: WriteUserFileOptions): Promise<Stats | null> {
  let info: Stats;
  try {
    info = await lstat(folder.at(folder.name));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw failed(path, error);
  }
  if (info.isSymbolicLink()) {
    const to = await readlink(folder.at(folder.name)).catch(() => '?');
    throw new UserFileError(
      'refused',
      path,
      `cannot write ${shortPath(path)}: it is a symbolic link to ${to}, and DiskDelta does not write through links (one planted there could send the file anywhere): name the file itself`,
    );
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
  if (info.isFile() && !options.force) throw new UserFileError('exists', path, `${shortPath(path)} already exists and was left unchanged`);
  return info;
}

async function writeInFolder(path: string, folder: HeldFolder, bytes: Uint8Array, options: WriteUserFileOptions): Promise<void> {
  const info = await decide(path, folder, options);
  if (info === null) return writeNewFile(path, folder, bytes);
  return writeInPlace(path, folder, bytes, info); // a regular file (with force), a character device or a FIFO
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
 * Writes into what is at the name, keeping it what it is. A stream (device, FIFO) just gets the
 * bytes: O_TRUNC means nothing to it and O_CREAT must not turn a vanished device into a file.
 * A regular file is rewritten from its start and then cut to length: no O_TRUNC before the
 * bytes are written, so a write that fails for lack of space leaves the old length, not an
 * empty file. O_NOFOLLOW and the inode check: what is opened is what lstat saw.
 */
async function writeInPlace(path: string, folder: HeldFolder, bytes: Uint8Array, seen: Stats): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await openForWriting(folder.at(folder.name));
    const now = await handle.stat();
    if (now.ino !== seen.ino || now.dev !== seen.dev)
      throw new UserFileError('failed', path, `cannot write ${shortPath(path)}: it was replaced while being opened; nothing was written`);
    await writeAll(handle, bytes);
    if (now.isFile()) {
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
      return await open(path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch (error) {
      if (errnoCode(error) !== 'ENXIO' || Date.now() - started > READER_GRACE_MS) throw error;
      await sleep(20);
    }
  }
}

async function writeNewFile(path: string, folder: HeldFolder, bytes: Uint8Array): Promise<void> {
  const tmp = folder.at(`.${folder.name}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
    await writeAll(handle, bytes);
    await handle.sync();
    await handle.close();
    handle = undefined;
    // link() fails if the name appeared since lstat() (a file, or a link planted meanwhile): it is kept, not replaced.
    await link(tmp, folder.at(folder.name)).catch(async (error: unknown) => {
      const code = errnoCode(error);
      if (code === 'EEXIST') throw new UserFileError('exists', path, `${shortPath(path)} appeared while writing and was left unchanged`);
      // Filesystems without hard links (vfat, some FUSE): rename, within the held folder.
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EMLINK' || code === 'ENOSYS')
        await rename(tmp, folder.at(folder.name));
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
