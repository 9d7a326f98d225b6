// Errors of a benchmark run. `code` is stable (the worker's error code, or one of ours);
// `message` says what happened and what to do.

/** The worker's documented exit codes (native/src/util.h). */
export const WORKER_EXIT = {
  ok: 0,
  usage: 2,
  target: 3,
  noSpace: 4,
  noDirectIo: 5,
  io: 6,
  interrupted: 7,
  internal: 8,
} as const;

/**
 * `diskdelta run` only: the measurement finished and was printed, but the library could not
 * save it (disk full, damaged file). After the worker's codes so that none is shadowed.
 */
export const EXIT_NOT_SAVED = 9;

export class BenchError extends Error {
  override name = 'BenchError';
  readonly code: string;
  readonly workerExitCode: number | null;
  constructor(code: string, message: string, workerExitCode: number | null = null) {
    super(message);
    this.code = code;
    this.workerExitCode = workerExitCode;
  }
}
