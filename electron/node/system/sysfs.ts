// Reading a Linux filesystem tree (sysfs, procfs, /etc) under a chosen root, so every reader
// runs unchanged on this machine (root "/") and on fixture trees in tests. A missing or
// unreadable entry is a value of null with a reason, never an exception: the caller shows
// "unknown (reason)" instead of guessing. Every read is bounded (files/read-bounded.ts): a FIFO
// or a device planted where an attribute was expected is refused, never waited on.
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile, UnreadableFileError } from '../files/read-bounded.ts';

export interface RootOptions {
  /** The filesystem root to read from; '/' on a live machine, a fixture tree in tests. */
  root?: string;
}

export type Read<T> = { value: T; reason?: undefined } | { value: null; reason: string };

/** A block device's MAJOR:MINOR from stat's rdev (glibc's dev_t split, enough for block majors). */
export function devNumberOf(rdev: number): string {
  const major = Math.floor(rdev / 256) & 0xfff;
  const minor = (rdev & 0xff) | ((rdev >> 12) & 0xfff00);
  return `${major}:${minor}`;
}

export function rootOf(opts?: RootOptions): string {
  return path.resolve(opts?.root ?? '/');
}

export function isLiveRoot(root: string): boolean {
  return root === '/';
}

/** The real path of `abs` (absolute inside the root) on disk. */
export function inRoot(root: string, abs: string): string {
  return path.join(root, abs);
}

/** An error reading `abs` as the reason a value is unknown. */
export function explain(abs: string, error: unknown): string {
  if (error instanceof UnreadableFileError) return error.message.replace(error.path, abs);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return `${abs} does not exist`;
  if (code === 'EACCES' || code === 'EPERM') return `${abs} is not readable without root`;
  if (code === 'EINVAL' || code === 'EIO' || code === 'ENXIO' || code === 'ENODEV') return `${abs} cannot be read here (${code})`;
  return `${abs}: ${error instanceof Error ? error.message : String(error)}`;
}

/** A text attribute with its trailing newline removed. */
export async function readText(root: string, abs: string): Promise<Read<string>> {
  try {
    return { value: (await readRegularFile(inRoot(root, abs))).toString('utf8').replace(/\s+$/, '') };
  } catch (error) {
    return { value: null, reason: explain(abs, error) };
  }
}

export async function readBytes(root: string, abs: string): Promise<Read<Buffer>> {
  try {
    return { value: await readRegularFile(inRoot(root, abs)) };
  } catch (error) {
    return { value: null, reason: explain(abs, error) };
  }
}

/** A decimal integer attribute (sysfs sizes fit in a double up to 2^53 bytes). */
export async function readNumber(root: string, abs: string): Promise<Read<number>> {
  const text = await readText(root, abs);
  if (text.value === null) return text;
  const n = Number(text.value.trim());
  if (text.value.trim() === '' || !Number.isFinite(n)) return { value: null, reason: `${abs} holds '${text.value}', not a number` };
  return { value: n };
}

export async function listDir(root: string, abs: string): Promise<string[]> {
  try {
    return (await readdir(inRoot(root, abs))).sort();
  } catch {
    return [];
  }
}

export async function exists(root: string, abs: string): Promise<boolean> {
  try {
    await lstat(inRoot(root, abs));
    return true;
  } catch {
    return false;
  }
}

/**
 * Follow symlinks (sysfs is built of them) and return the result as an absolute path inside
 * the root, or null when it does not resolve or leaves the root.
 */
export async function resolveInRoot(root: string, abs: string): Promise<string | null> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(inRoot(root, abs));
    if (realRoot === '/') return real;
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
    return '/' + path.relative(realRoot, real);
  } catch {
    return null;
  }
}
