// Bytes → text for the importers, before any parsing: enforces the size limit, recognises
// the encodings the tools write (UTF-8 with or without BOM; UTF-16LE with BOM, which is what
// CrystalDiskMark saves) and refuses binary files with the line of the first bad byte.
import { constants } from 'node:fs';
import { open, stat, statfs } from 'node:fs/promises';
import { basename } from 'node:path';
import { ImportError, MAX_IMPORT_BYTES } from './import-error.ts';
import { lineAt } from './json-scan.ts';
import { formatBytes } from '../../shared/analysis/units.ts';

function tooBig(fileName: string, size: number): ImportError {
  return new ImportError(
    fileName,
    null,
    `the file is ${formatBytes(size)}; imports are limited to ${formatBytes(MAX_IMPORT_BYTES)} (no benchmark report is that large)`,
  );
}

/** Refuses text with NUL or other C0 control characters that no text report contains. */
export function checkText(text: string, fileName: string): void {
  // Tab, LF, CR and form feed are fine; anything else below 0x20 means binary or corruption.
  const bad = /[\u0000-\u0008\u000b\u000e-\u001f\ufffd]/.exec(text);
  if (bad) {
    const what = bad[0] === '\ufffd' ? 'bytes that are not valid text' : 'a binary control character';
    throw new ImportError(fileName, lineAt(text, bad.index), `${what}: this is not a text report (binary or corrupted file?)`);
  }
}

export function decodeImportBytes(bytes: Uint8Array, fileName: string): string {
  if (bytes.length > MAX_IMPORT_BYTES) throw tooBig(fileName, bytes.length);
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) {
      text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    } else {
      // ignoreBOM: false strips a UTF-8 BOM.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    }
  } catch {
    // Find the line of the first invalid byte for the message.
    const lossy = new TextDecoder('utf-8').decode(bytes);
    const at = lossy.indexOf('\ufffd');
    throw new ImportError(fileName, at === -1 ? null : lineAt(lossy, at), 'not valid UTF-8 or UTF-16 text (binary or corrupted file?)');
  }
  checkText(text, fileName);
  return text;
}

// statfs f_type of filesystems whose "files" are made up by the kernel on reading: their size
// says 0 (or 4096) whatever they hold, and some never end.
const VIRTUAL_FILESYSTEMS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x64626720: 'debugfs',
  0x74726163: 'tracefs',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x73636673: 'securityfs',
  0x62656570: 'configfs',
  0xcafe4a11: 'bpf',
  0x6165676c: 'pstore',
  0xde5e81e4: 'efivarfs',
};

/** What a path is when it is not a regular file, for "… is a FIFO" messages. */
function kindOf(info: import('node:fs').Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Reads a file for import; the size is checked before reading so a huge file is never loaded.
 * Only regular files on a real filesystem are read, and that is checked before opening: a FIFO
 * would block the open (and the command) forever, /dev/zero never ends, and /proc files claim
 * to be empty. The bytes come back too: the library fingerprints imports by them.
 */
export async function readImportFile(path: string): Promise<{ text: string; fileName: string; bytes: Uint8Array }> {
  const fileName = basename(path);
  const info = await stat(path);
  if (!info.isFile()) throw new ImportError(fileName, null, `${kindOf(info)}, not a file: import reads result files only`);
  const fs = VIRTUAL_FILESYSTEMS[(await statfs(path)).type];
  if (fs) throw new ImportError(fileName, null, `a file of ${fs}, a virtual filesystem the kernel makes up, not a result file`);
  // O_NONBLOCK: should a FIFO be swapped in after the check, the open returns instead of waiting.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const now = await handle.stat();
    if (!now.isFile() || now.ino !== info.ino || now.dev !== info.dev)
      throw new ImportError(fileName, null, 'the file was replaced while being opened; nothing was read');
    const { size } = now;
    if (size > MAX_IMPORT_BYTES) throw tooBig(fileName, size);
    const bytes = new Uint8Array(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    const read = bytes.subarray(0, bytesRead);
    return { text: decodeImportBytes(read, fileName), fileName, bytes: read };
  } finally {
    await handle.close();
  }
}
