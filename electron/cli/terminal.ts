// The CLI's writers for people: everything a command prints for a human goes through these, so
// that a label or an imported name can never send escape sequences to the user's terminal
// (see core/model/display.ts). Data written on purpose (export to stdout) is not altered.
import { terminalText } from '../core/model/display.ts';

export function writeOut(text: string): void {
  process.stdout.write(terminalText(text));
}

export function writeErr(text: string): void {
  process.stderr.write(terminalText(text));
}
