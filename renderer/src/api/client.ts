// The renderer's one way to the backend. Stores use an ApiClient; components never do.
// Two transports implement it: Electron's preload bridge and the browser-mode WebSocket.
import type {
  ApiResult,
  EventName,
  EventPayload,
  ProcedureInput,
  ProcedureName,
  ProcedureOutput,
} from '../../../electron/shared/contract/contract.ts';

export interface ApiClient {
  readonly kind: 'electron' | 'browser';
  call<P extends ProcedureName>(procedure: P, input: ProcedureInput<P>): Promise<ApiResult<ProcedureOutput<P>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** Turns a thrown transport failure into the same error shape the backend uses. */
export function transportError(error: unknown): { ok: false; error: { code: 'FAILED'; message: string } } {
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error: { code: 'FAILED', message: `connection to DiskDelta failed: ${message}` } };
}
