// Waiting for a descriptor holder (`diskdelta-worker hold` or `crypt-hold`) to say it holds:
// its "holding" line, or the worker's error line once it has exited. Shared by the app's
// session holders (elevation-session.ts) and the throwaway mapping without root
// (crypto/throwaway-held.ts).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { BenchError } from '../errors.ts';
import { parseWorkerLine, type WorkerMessage } from '../worker-protocol.ts';
import { appendTail, withStderr } from '../../../shared/model/stderr-tail.ts';

export type HoldingMessage = Extract<WorkerMessage, { type: 'holding' }>;

/**
 * Resolves with the holder's "holding" line; rejects with its error (a BenchError of the
 * worker's code) when it exits without one, else with `gone(exit code)`; either with the tail of
 * its stderr (pkexec's, the helper's, cryptsetup's reason), which is read for as long as it runs.
 */
export function holding(child: ChildProcessWithoutNullStreams, gone: (code: number | null) => BenchError): Promise<HoldingMessage> {
  return new Promise<HoldingMessage>((resolve, reject) => {
    let pending = '';
    let failure: { code: string; message: string } | null = null;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = appendTail(stderr, chunk)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const m = parseWorkerLine(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
        if ('invalid' in m) continue;
        if (m.type === 'holding') resolve(m);
        if (m.type === 'error') failure ??= m;
      }
    });
    child.once('error', (error) => reject(new BenchError('internal', `cannot start the worker: ${error.message}`)));
    child.once('close', (code) => {
      const error = failure ? BenchError.fromWorker(failure.code, failure.message, code) : gone(code);
      reject(new BenchError(error.code, withStderr(error.message, stderr, 'the holder')));
    });
  });
}
