// THE way a command says it failed: one line for people on stderr and, when the command was
// given --json, one JSON object for programs on stdout, so a script that asked for JSON never
// reads an empty stdout and has to scrape stderr. main() switches JSON on from the argv; every
// command's failure path (a thrown UsageError or BenchError, or a failure it says itself)
// comes through here.
import { EXIT_CODES, FAILURES, actionOf, failureOfExit, isFailureCode, type FailureCode } from '../shared/model/failures.ts';
import { writeErr, writeOut } from './terminal.ts';

let jsonWanted = false;

/** Set by main() for the one command a process runs. */
export function failuresAsJson(on: boolean): void {
  jsonWanted = on;
}

/** The JSON a failing command prints on stdout under --json. */
export interface FailureJson {
  error: { command: string; code: string; exit: number; exitName: string; message: string; action: string };
}

function cliWordingOwn(code: FailureCode): boolean {
  return actionOf(code, 'cli').text !== actionOf(code, 'app').text;
}

/**
 * Says the failure and returns its exit status. `code` is a failure code of model/failures.ts;
 * without one, the code the exit status stands for.
 */
export function sayFailure(command: string, message: string, exit: number, code?: string): number {
  const text = message.replace(/^diskdelta [\w-]+: /, '').trimEnd();
  const failure = code !== undefined && isFailureCode(code) ? code : failureOfExit(exit);
  // A measurement's message says what happened in words that fit the app too; where the CLI
  // has its own wording of the action (--size, --buffered, --elevate), it follows on its own line.
  const action = code !== undefined && isFailureCode(code) && cliWordingOwn(code) ? actionOf(code, 'cli').text : null;
  writeErr(`diskdelta ${command}: ${text}\n${action ? `  ${action}\n` : ''}`);
  if (jsonWanted) {
    const json: FailureJson = {
      error: {
        command,
        code: code ?? failure,
        exit,
        exitName: EXIT_CODES.find((e) => e.exit === exit)?.name ?? 'INTERNAL',
        message: text,
        action: Object.hasOwn(FAILURES, failure) ? actionOf(failure, 'cli').text : '',
      },
    };
    writeOut(`${JSON.stringify(json, null, 2)}\n`);
  }
  return exit;
}
