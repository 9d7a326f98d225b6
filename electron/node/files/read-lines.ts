// A text file's lines, one at a time, in bounded memory: a file of any size (a recording's trace
// grows for days; readFileSync of one over 512 MiB fails with ERR_STRING_TOO_LONG, issue 38
// item 3) is read in chunks, and only one line is ever held. A line longer than maxLineBytes
// (zeros a crash left in an appended file, a damaged line) yields its first maxLineBytes only:
// a reader that parses lines sees a line it cannot parse, not a process out of memory.
import { closeSync, constants, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

export function* readLines(path: string, maxLineBytes = 1 << 16): Generator<string> {
  // Never through a link at the file's own name (the trace's writer refuses one too).
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    const line = Buffer.allocUnsafe(maxLineBytes);
    let length = 0;
    const take = (from: Buffer, start: number, end: number) => {
      const room = Math.min(end - start, maxLineBytes - length);
      if (room > 0) from.copy(line, length, start, start + room);
      length += Math.max(0, room);
    };
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1 && nl < n; nl = chunk.indexOf(10, start)) {
        take(chunk, start, nl);
        yield line.toString('utf8', 0, length);
        length = 0;
        start = nl + 1;
      }
      take(chunk, start, n);
    }
    if (length > 0) yield line.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}
