// Errors of a benchmark run. `code` is one of the one list of failure codes
// (model/failures.ts), which the worker's error lines carry too; it decides the CLI's exit
// status and the action the app offers. `message` says what happened and what to do.
import { exitCodeOf, failureOfExit, isFailureCode, type FailureCode } from '../../shared/model/failures.ts';

export class BenchError extends Error {
  override name = 'BenchError';
  readonly code: FailureCode;
  constructor(code: FailureCode, message: string) {
    super(message);
    this.code = code;
  }

  /** The exit status of `diskdelta run` for this failure: always one its --help lists. */
  get exitCode(): number {
    return exitCodeOf(this.code);
  }

  /** From the worker's error line (its code) or, failing that, its exit status. */
  static fromWorker(code: string | undefined, message: string, exitStatus: number | null): BenchError {
    return new BenchError(code !== undefined && isFailureCode(code) ? code : failureOfExit(exitStatus), message);
  }
}
