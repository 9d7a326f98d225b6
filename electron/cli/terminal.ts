// THE writer of the CLI for people: everything a command, `serve` or the launcher prints goes
// through here, so that a label, an imported name, a path or a child's message can never send
// escape sequences to the user's terminal (see shared/model/display.ts). The ESLint rule
// diskdelta/terminal-writes (eslint-rules/terminal-writes.js) keeps every other module from
// writing to stdout or stderr itself.
//
// Data written to stdout on purpose (export, --json) goes through writeOut too: the exporters
// already neutralize control characters (JSON escapes them losslessly, CSV cells show them as
// text), so the escaping changes nothing there, and a pipe gets the same bytes as a terminal.
import { createInterface } from 'node:readline/promises';
import { terminalField, terminalText } from '../shared/model/display.ts';

export function writeOut(text: string): void {
  process.stdout.write(terminalText(text));
}

export function writeErr(text: string): void {
  process.stderr.write(terminalText(text));
}

// A terminal's status line (the run's progress bar): carriage return and "erase line" are the
// only sequences DiskDelta itself sends, and only around a line whose own text is escaped.
const ERASE_LINE = '\r\u001b[2K';

/** Redraws the one-line status on stdout (a terminal: the caller checks isTTY). */
export function drawStatusLine(text: string): void {
  process.stdout.write(`${ERASE_LINE}${terminalField(text).slice(0, (process.stdout.columns || 100) - 1)}`);
}

export function clearStatusLine(): void {
  process.stdout.write(ERASE_LINE);
}

/** Asks a yes/no question on stderr (a terminal), the answer read from stdin. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(terminalText(question))).trim());
  } finally {
    rl.close();
  }
}
