// Properties of the worker-output reader, shared by the bounded run in `npm test`
// (ndjson-reader.test.ts) and the long run of `npm run fuzz` (scripts/fuzz.ts).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createNdjsonReader } from './ndjson-reader.ts';
import { workerMessageSchema, type WorkerMessage } from './worker-protocol.ts';

const text = fc.string({ unit: 'binary', maxLength: 40 }); // any code points, astral ones too

const message: fc.Arbitrary<WorkerMessage> = fc.oneof(
  fc.record({ v: fc.constant(1 as const), type: fc.constant('warning' as const), code: text, message: text }, { noNullPrototype: true }),
  fc.record({ v: fc.constant(1 as const), type: fc.constant('error' as const), code: text, message: text }, { noNullPrototype: true }),
  fc.record(
    {
      v: fc.constant(1 as const),
      type: fc.constant('sample' as const),
      job: fc.nat(),
      name: text,
      run: fc.nat(),
      t_ms: fc.nat(),
      bytes_per_sec: fc.double({ min: 0, max: 1e12, noNaN: true }),
      iops: fc.double({ min: 0, max: 1e8, noNaN: true }),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    { v: fc.constant(1 as const), type: fc.constant('done' as const), status: text, exit_code: fc.integer({ min: 0, max: 255 }) },
    { noNullPrototype: true },
  ),
);

/** Cuts bytes at the given points (sorted, deduplicated, inside the buffer). */
function cut(bytes: Buffer, points: number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const p of at) {
    chunks.push(bytes.subarray(start, p));
    start = p;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

function read(chunks: Buffer[], maxLineBytes?: number) {
  const messages: WorkerMessage[] = [];
  const invalid: string[] = [];
  const reader = createNdjsonReader({
    onMessage: (m) => messages.push(m),
    onInvalid: (p) => invalid.push(p),
    ...(maxLineBytes ? { maxLineBytes } : {}),
  });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return { messages, invalid };
}

/** Valid messages, serialised one per line and cut anywhere (inside characters too), come back exactly. */
export const roundTrip = fc.property(
  fc.array(message, { maxLength: 20 }),
  fc.array(fc.nat(), { maxLength: 30 }),
  fc.boolean(),
  (messages, points, finalNewline) => {
    const body = messages.map((m) => JSON.stringify(m)).join('\n') + (finalNewline ? '\n' : '');
    const out = read(cut(Buffer.from(body), points));
    assert.deepEqual(out.invalid, []);
    assert.deepEqual(out.messages, messages);
  },
);

/** Any bytes at all: the reader never throws, everything it passes on is a schema-valid message,
 *  and each non-blank line is accounted for exactly once (a message or an invalid report). */
export const anyBytes = fc.property(fc.uint8Array({ maxLength: 600 }), fc.array(fc.nat(), { maxLength: 30 }), (raw, points) => {
  const bytes = Buffer.from(raw);
  const out = read(cut(bytes, points), 64);
  for (const m of out.messages) assert.ok(workerMessageSchema.safeParse(m).success);
  const lines = bytes
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  assert.equal(out.messages.length + out.invalid.length, lines.length, 'one message or one report per non-blank line');
});

/** A line over the limit is dropped with one report; the lines around it still come through. */
export const overlong = fc.property(
  message,
  message,
  fc.integer({ min: 1, max: 5000 }),
  fc.array(fc.nat(), { maxLength: 20 }),
  (before, after, extra, points) => {
    const limit = Math.max(64, Buffer.byteLength(JSON.stringify(before)), Buffer.byteLength(JSON.stringify(after)));
    const body = `${JSON.stringify(before)}\n${'x'.repeat(limit + extra)}\n${JSON.stringify(after)}\n`;
    const out = read(cut(Buffer.from(body), points), limit);
    assert.deepEqual(out.messages, [before, after]);
    assert.equal(out.invalid.length, 1);
    assert.match(out.invalid[0]!, /longer than/);
  },
);
