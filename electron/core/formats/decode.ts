// Bytes → text for the importers, before any parsing: enforces the size limit, recognises
// the encodings the tools write (UTF-8 with or without BOM; UTF-16LE with BOM, which is what
// CrystalDiskMark saves) and refuses binary files with the line of the first bad byte.
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { ImportError, MAX_IMPORT_BYTES } from './import-error.ts';
import { lineAt } from './json-scan.ts';

const MiB = 1024 * 1024;

function tooBig(fileName: string, size: number): ImportError {
  return new ImportError(
    fileName,
    null,
    `the file is ${(size / MiB).toFixed(1)} MiB; imports are limited to ${MAX_IMPORT_BYTES / MiB} MiB (no benchmark report is that large)`,
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

/**
 * Reads a file for import; the size is checked before reading so a huge file is never loaded.
 * The bytes come back too: the library fingerprints imports by them.
 */
export async function readImportFile(path: string): Promise<{ text: string; fileName: string; bytes: Uint8Array }> {
  const fileName = basename(path);
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_IMPORT_BYTES) throw tooBig(fileName, size);
    const bytes = new Uint8Array(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    const read = bytes.subarray(0, bytesRead);
    return { text: decodeImportBytes(read, fileName), fileName, bytes: read };
  } finally {
    await handle.close();
  }
}
