// The one door into the handlers, shared by the Electron IPC bridge and the WebSocket server:
// the procedure name is looked up in the contract and the input parsed with its schema BEFORE
// any handler runs; the handler's output is checked against the contract on the way out.
import type { z } from 'zod';
import type { FailureCode } from '../../shared/model/failures.ts';
import { checkSchema, type SchemaIssue } from '../../shared/model/schema-check.ts';
import {
  isProcedureName,
  procedures,
  requestEnvelopeSchema,
  type ApiError,
  type ApiResult,
  type ErrorCode,
  type ProcedureName,
  type Procedures,
  type ServerMessage,
} from '../../shared/contract/contract.ts';

/** A handler receives parsed input and returns data; it signals failure by throwing ApiFailure. */
export type Handlers = {
  [P in ProcedureName]: (input: z.output<Procedures[P]['input']>) => Promise<z.input<Procedures[P]['output']>>;
};

/** A failure a handler reports on purpose, with a code the renderer can act on. */
export class ApiFailure extends Error {
  override name = 'ApiFailure';
  readonly code: ErrorCode;
  /** The run failure behind it (model/failures.ts), when there is one. */
  readonly failure: FailureCode | undefined;
  constructor(code: ErrorCode, message: string, failure?: FailureCode) {
    super(message);
    this.code = code;
    this.failure = failure;
  }
}

export function failure(code: ErrorCode, message: string, cause?: FailureCode): { ok: false; error: ApiError } {
  return { ok: false, error: cause ? { code, message, failure: cause } : { code, message } };
}

function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)
    .join('; ');
}

export async function invoke(handlers: Handlers, procedure: string, input: unknown): Promise<ApiResult<unknown>> {
  if (!isProcedureName(procedure)) return failure('UNKNOWN_PROCEDURE', `no procedure named '${procedure.slice(0, 100)}'`);
  const def = procedures[procedure];
  // checkSchema: zod's own safeParse overflows the stack on ~50,000 bad entries (#38).
  const parsed = checkSchema(def.input, input);
  if (!parsed.success) return failure('BAD_INPUT', `${procedure}: ${describeIssues(parsed.issues)}`);
  let data: unknown;
  try {
    const handler = handlers[procedure] as (input: unknown) => Promise<unknown>;
    data = await handler(parsed.data);
  } catch (error) {
    if (error instanceof ApiFailure) return failure(error.code, error.message, error.failure);
    const message = error instanceof Error ? error.message : String(error);
    return failure('INTERNAL', `${procedure}: ${message}`);
  }
  const checked = checkSchema(def.output, data);
  if (!checked.success) return failure('BAD_OUTPUT', `${procedure} returned data outside its contract: ${describeIssues(checked.issues)}`);
  return { ok: true, data: checked.data };
}

/**
 * One raw text message from the WebSocket: parsed as JSON, checked as an envelope, then
 * dispatched. Anything malformed gets an error reply and never reaches a handler.
 */
export async function handleWireMessage(handlers: Handlers, raw: string): Promise<ServerMessage> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { type: 'error', id: null, error: { code: 'BAD_MESSAGE', message: 'message is not JSON' } };
  }
  const envelope = checkSchema(requestEnvelopeSchema, json);
  if (!envelope.success) {
    return { type: 'error', id: null, error: { code: 'BAD_MESSAGE', message: `not a request: ${describeIssues(envelope.issues)}` } };
  }
  const { id, procedure, input } = envelope.data;
  return { type: 'result', id, result: await invoke(handlers, procedure, input) };
}
