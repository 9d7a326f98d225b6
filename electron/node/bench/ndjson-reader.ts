// Splits the worker's stdout into protocol messages. Chunks arrive cut anywhere (inside a line,
// inside a multi-byte character), so the reader keeps the unfinished tail; a line longer than
// any real message is dropped as invalid instead of growing without bound (a worker gone wrong,
// or something else on the pipe, must not take the app's memory with it).
import { StringDecoder } from 'node:string_decoder';
import { parseWorkerLine, type WorkerMessage } from './worker-protocol.ts';

/** Far above the longest real line (a result with its histogram is a few KiB). */
export const MAX_LINE_BYTES = 1 << 20;

export interface NdjsonReaderOptions {
  onMessage: (message: WorkerMessage) => void;
  /** Lines that are not valid protocol messages, and lines over the limit. */
  onInvalid?: (problem: string) => void;
  maxLineBytes?: number;
}

export interface NdjsonReader {
  push(chunk: Buffer | string): void;
  /** End of stream: a last line without its newline is still read. */
  end(): void;
}

export function createNdjsonReader(options: NdjsonReaderOptions): NdjsonReader {
  const limit = options.maxLineBytes ?? MAX_LINE_BYTES;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let skipping = false; // inside an overlong line: drop until its newline

  const tooLong = (line: string) => options.onInvalid?.(`a line longer than ${limit} bytes was dropped: ${line.slice(0, 120)}`);

  const emit = (line: string) => {
    if (!line.trim()) return;
    if (Buffer.byteLength(line) > limit) return tooLong(line);
    const parsed = parseWorkerLine(line);
    if ('invalid' in parsed) options.onInvalid?.(parsed.invalid);
    else options.onMessage(parsed);
  };

  const take = (text: string) => {
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) >= 0) {
      const piece = text.slice(start, newline);
      start = newline + 1;
      if (skipping) skipping = false;
      else emit(pending + piece);
      pending = '';
    }
    if (skipping) return;
    pending += text.slice(start);
    // Characters, not bytes: at most 4 bytes each in UTF-8, so this bound is never below the limit.
    if (Buffer.byteLength(pending) > limit) {
      tooLong(pending);
      pending = '';
      skipping = true;
    }
  };

  return {
    push(chunk) {
      take(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    },
    end() {
      take(decoder.end());
      if (!skipping) emit(pending);
      pending = '';
      skipping = false;
    },
  };
}
