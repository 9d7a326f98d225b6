// What a child process (the worker, tar under it, the helper, cryptsetup) said on stderr, for the
// failure message that explains it: a child's reason is often only there ("tar: This does not
// look like a tar archive"). Kept bounded while it runs (a chatty child must not fill memory) and
// escaped (a child's text, or a file name in it, must not drive the terminal or the app's log).
// Pure: used by bench/, crypto/ and the API alike.
import { terminalField } from './display.ts';

/** Bytes of a child's stderr kept while it runs: the tail is what explains a failure. */
export const STDERR_KEEP_CHARS = 16_384;
const MAX_LINES = 8;
const MAX_LINE_CHARS = 300;

/** `kept` with `chunk` appended, cut to its last `max` characters. */
export function appendTail(kept: string, chunk: string, max = STDERR_KEEP_CHARS): string {
  const joined = kept + chunk;
  return joined.length > max ? joined.slice(-max) : joined;
}

// The worker echoes each protocol error and warning on stderr ("diskdelta-worker: error: …");
// those are already in the message, so only what others said (tar, the kernel, a sanitizer) is new.
const PROTOCOL_ECHO = /^diskdelta-worker: (error|warning): /;

/** The last lines of a child's stderr, each escaped and cut, without the worker's protocol echoes. */
export function stderrTail(stderr: string, maxLines = MAX_LINES): string[] {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !PROTOCOL_ECHO.test(l));
  return lines.slice(-maxLines).map((l) => {
    const shown = terminalField(l);
    return shown.length > MAX_LINE_CHARS ? `${shown.slice(0, MAX_LINE_CHARS)}…` : shown;
  });
}

/** A failure's message with the tail of the child's stderr after it, if it said anything. */
export function withStderr(message: string, stderr: string, who = 'the worker'): string {
  const tail = stderrTail(stderr);
  if (tail.length === 0) return message;
  return `${message}\n${who} said on stderr:\n${tail.map((l) => `  ${l}`).join('\n')}`;
}
