// `npm run soak:serve [-- --seconds 60 --connections 20 --max-ops 200000]`: fuzzes browser
// mode while a benchmark runs, then checks that nothing was lost and nothing leaked.
//
// It starts `diskdelta serve` (a child process, 127.0.0.1 only, a temporary library and a
// stand-in renderer folder), starts a real run on a temporary folder sized to outlast the
// soak, and then, from many connections at once until the time or the operation count is
// used up: malformed and hostile request lines, WebSocket frames the protocol forbids (reserved
// opcodes, invalid UTF-8, oversize lengths, unmasked, garbage), and API calls with random and
// malformed inputs. Afterwards:
//  - the server still answers (the page with its token, and an API call);
//  - the run finished and was saved (library.get of its record id);
//  - the server's open file descriptors are back to the count before the soak;
//  - its resident memory is within 2x of the start.
// Exit 0 when all hold, 1 otherwise; every figure is printed with its unit.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { PROCEDURE_NAMES } from '../electron/shared/contract/contract.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '20' },
    'max-ops': { type: 'string', default: '200000' },
  },
});
const SECONDS = Math.min(Math.max(Number(values.seconds), 1), 600);
const CONNECTIONS = Math.min(Math.max(Number(values.connections), 1), 200);
const MAX_OPS = Math.min(Math.max(Number(values['max-ops']), 1), 10_000_000);
const HOST = '127.0.0.1';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const work = mkdtempSync(join(tmpdir(), 'diskdelta-soak-'));
const dist = join(work, 'renderer');
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>DiskDelta soak</title>');
writeFileSync(join(dist, 'assets', 'app.js'), 'void 0;');
const target = join(work, 'target');
mkdirSync(target);

const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}
function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

// --- the server ---------------------------------------------------------------------------
const server = spawn(NODE, ['bin/diskdelta.js', 'serve', '--db', join(work, 'library.sqlite')], {
  cwd: ROOT,
  env: { ...process.env, DISKDELTA_RENDERER_DIR: dist },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverExit: string | null = null;
server.on('exit', (code, signal) => (serverExit = `exited (code ${code}, signal ${signal})`));
// Stopped from outside (a test's time limit, Ctrl-C): the server and its temporary library end
// with this script, never orphaned.
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => {
    server.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
let serverErr = '';
server.stderr.setEncoding('utf8').on('data', (c: string) => (serverErr = (serverErr + c).slice(-4000)));
const url = await new Promise<URL>((resolve, reject) => {
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
    if (match) resolve(new URL(match[1]!));
  });
  server.on('exit', () => reject(new Error(`serve did not start: ${serverErr}`)));
});
const PORT = Number(url.port);
const TOKEN = url.searchParams.get('token')!;
const ORIGIN = `http://${HOST}:${PORT}`;
const pid = server.pid!;
console.log(`soak:serve: diskdelta serve (pid ${pid}) on ${HOST}:${PORT}, its library in ${work}`);

/** A well-behaved API client: call(procedure, input) → result; events collected. */
async function client() {
  const ws = new WebSocket(`ws://${HOST}:${PORT}/api?token=${TOKEN}`, { headers: { origin: ORIGIN } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const pending = new Map<number, (r: unknown) => void>();
  const events: Array<{ event: string; payload: any }> = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: number; result?: unknown; event?: string; payload?: unknown };
    if (message.type === 'result' && message.id !== undefined) pending.get(message.id)?.(message.result);
    else if (message.type === 'event') events.push({ event: message.event!, payload: message.payload });
  });
  ws.on('error', () => {});
  return {
    ws,
    events,
    call(procedure: string, input: unknown): Promise<any> {
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ type: 'invoke', id, procedure, input }));
      });
    },
  };
}

// --- a run in progress ---------------------------------------------------------------------
const control = await client();
await sleep(500); // let the server settle before the baseline
const fdStart = fdCount(pid);
const rssStart = rssBytes(pid);
const started = await control.call('runs.start', {
  target,
  tests: ['rnd4k-q1t1-read'],
  sizeBytes: 32 * 1024 * 1024,
  warmupSec: 0,
  runs: 1,
  durationSec: SECONDS + 5, // outlasts the soak: the fuzzing happens while it measures
  label: 'soak',
});
if (!started.ok) throw new Error(`runs.start failed: ${JSON.stringify(started)}`);
const runId = started.data.runId as string;

// --- the fuzz ------------------------------------------------------------------------------
const counts: Record<string, number> = { requestLines: 0, frames: 0, apiCalls: 0, errors: 0 };
let ops = 0;
const deadline = Date.now() + SECONDS * 1000;
const more = () => Date.now() < deadline && ops < MAX_OPS && serverExit === null;

const REQUEST_TARGETS = [
  'http://[::1:80/',
  '//[/',
  'http://%zz/',
  'http://[x]/',
  '/%2findex.html',
  '/%2F%2Findex.html',
  '//index.html',
  '/assets/../index.html',
  '/assets/%2e%2e/%2e%2e/etc/passwd',
  '/%00',
  '/%',
  '/..%2f..%2fetc%2fpasswd',
  `/?token=${'A'.repeat(5000)}`,
  '/' + 'x/'.repeat(2000),
  '*',
  'https://:80/',
  '/api',
  `/api?token=${TOKEN}`,
  `/?token=${TOKEN}`,
  '/assets/app.js',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PRI', 'G\u0000T', 'CONNECT'];

function rawExchange(bytes: Buffer | string, wait = 100): Promise<void> {
  return new Promise((resolve) => {
    const socket: Socket = connect(PORT, HOST, () => socket.write(bytes));
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.on('close', () => resolve());
    socket.setTimeout(wait, () => socket.destroy());
  });
}

function requestLine(): string {
  const target = pick(REQUEST_TARGETS);
  const host = pick([`${HOST}:${PORT}`, 'evil.example', 'localhost', '', '[::1]', '127.0.0.1.evil.example']);
  const extra = pick([
    '',
    'Connection: close\r\n',
    'Transfer-Encoding: chunked\r\n',
    'Content-Length: -1\r\n',
    'Content-Length: 99999999\r\n',
    `X: ${'y'.repeat(random(20000))}\r\n`,
  ]);
  return `${pick(METHODS)} ${target} HTTP/1.${random(2)}\r\nHost: ${host}\r\n${extra}\r\n`;
}

function frame(opcode: number, payload: Buffer, { length = payload.length, masked = true, fin = true } = {}): Buffer {
  const first = (fin ? 0x80 : 0) | (opcode & 0x0f) | (random(8) === 0 ? 0x70 : 0); // sometimes RSV bits
  let head: Buffer;
  if (length < 126) head = Buffer.from([first, (masked ? 0x80 : 0) | length]);
  else if (length < 65536) head = Buffer.from([first, (masked ? 0x80 : 0) | 126, length >> 8, length & 0xff]);
  else {
    head = Buffer.alloc(10);
    head[0] = first;
    head[1] = (masked ? 0x80 : 0) | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!masked) return Buffer.concat([head, payload]);
  const mask = Buffer.from([random(256), random(256), random(256), random(256)]);
  return Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]);
}

function hostileFrames(): Buffer {
  const kind = random(7);
  switch (kind) {
    case 0:
      return frame(pick([0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xd, 0xe, 0xf]), Buffer.from('x')); // reserved opcode
    case 1:
      return frame(0x1, Buffer.from([0xc3, 0x28, 0xff, 0xfe])); // invalid UTF-8
    case 2:
      return frame(0x1, Buffer.alloc(16), { length: 2 ** 40 }); // oversize length
    case 3:
      return frame(0x1, Buffer.from('{"type":"invoke"}'), { masked: false }); // unmasked
    case 4:
      return Buffer.from(Array.from({ length: 1 + random(512) }, () => random(256))); // garbage
    case 5:
      return Buffer.concat([
        frame(0x1, Buffer.from('{"ty'), { fin: false }),
        frame(0x9, Buffer.from('ping')),
        frame(0x0, Buffer.from('pe":1}')),
      ]);
    default:
      return frame(0x8, Buffer.from([0x03, 0xe8, 0xff])); // close with invalid reason
  }
}

const HANDSHAKE = () =>
  `GET /api?token=${TOKEN} HTTP/1.1\r\nHost: ${HOST}:${PORT}\r\nOrigin: ${ORIGIN}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
  `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${Buffer.from(String(Math.random())).toString('base64').slice(0, 22)}==\r\n\r\n`;

function randomValue(depth = 0): unknown {
  switch (random(depth > 2 ? 6 : 9)) {
    case 0:
      return random(2) === 0;
    case 1:
      return random(2 ** 31) * (random(2) ? 1 : -1);
    case 2:
      return pick([NaN, Infinity, -0, 1e308, 2 ** 53 + 1]);
    case 3:
      return pick(['', '\u001b]52;c;eA==\u0007', '../../etc/passwd', '\ud800', 'x'.repeat(random(3000)), '/tmp', '__proto__']);
    case 4:
      return null;
    case 5:
      return undefined;
    case 6:
      return Array.from({ length: random(5) }, () => randomValue(depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random(5) }, () => [
          pick([
            'id',
            'ids',
            'label',
            'target',
            'format',
            'runs',
            'path',
            '__proto__',
            'constructor',
            'limit',
            'fileName',
            'contentBase64',
          ]),
          randomValue(depth + 1),
        ]),
      );
  }
}

/** Random API calls; never a valid runs.start (one run is the point), never a delete of a real id. */
function randomCall(): [string, unknown] {
  const procedure = pick([
    ...PROCEDURE_NAMES.filter((p) => p !== 'library.delete' && p !== 'runs.start'),
    'fs.readFile',
    '__proto__',
    'constructor',
  ]);
  if (random(3) === 0) {
    const safe: Record<string, unknown> = {
      'library.list': { limit: 1 + random(5000) },
      'library.get': { id: 1_000_000 + random(1000) },
      'runs.active': {},
      'library.relabel': { id: 1_000_000 + random(1000), label: 'x' },
      'library.import': { fileName: 'fuzz.csv', contentBase64: Buffer.from(`garbage,${random(1e9)}\n`).toString('base64') },
      'runs.cancel': { runId: 'not-a-run' },
    };
    const name = pick(Object.keys(safe));
    return [name, safe[name]];
  }
  return [procedure, randomValue()];
}

async function apiWorker(): Promise<void> {
  let api: Awaited<ReturnType<typeof client>> | null = null;
  while (more()) {
    try {
      api ??= await client();
      if (random(10) === 0) {
        api.ws.send(
          pick([
            'not json',
            '{',
            '[]',
            'null',
            '{"type":"invoke","id":"x"}',
            JSON.stringify({ type: 'invoke', id: 1, procedure: 'runs.start', input: { target: 7 } }),
          ]),
        );
      } else {
        const [procedure, input] = randomCall();
        await Promise.race([api.call(procedure, input), sleep(5000)]);
      }
      counts.apiCalls!++;
      if (random(50) === 0) {
        api.ws.terminate();
        api = null;
      }
    } catch {
      counts.errors!++;
      api?.ws.terminate();
      api = null;
      await sleep(20);
    }
    ops++;
  }
  api?.ws.close();
}

async function rawWorker(): Promise<void> {
  while (more()) {
    if (random(2) === 0) {
      await rawExchange(requestLine());
      counts.requestLines!++;
    } else {
      await rawExchange(Buffer.concat([Buffer.from(HANDSHAKE()), hostileFrames()]));
      counts.frames!++;
    }
    ops++;
  }
}

const t0 = Date.now();
await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => (i % 2 === 0 ? apiWorker() : rawWorker())));
const fuzzSeconds = (Date.now() - t0) / 1000;

// --- checks ----------------------------------------------------------------------------------
const failures: string[] = [];
if (serverExit !== null) failures.push(`the server ${serverExit} during the soak: ${serverErr.trim().split('\n').slice(-5).join(' | ')}`);

let recordId: number | null = null;
if (serverExit === null) {
  // The run was sized to outlast the soak: wait for it (bounded) and check it was saved. A run
  // that first waited for its disk (another DiskDelta process, e.g. a second test suite on this
  // machine, was measuring it: a 'disk-busy' warning) started late, and gets 15 minutes.
  const waitedForDisk = () =>
    control.events.some((e) => e.event === 'run.warning' && e.payload.runId === runId && e.payload.code === 'disk-busy');
  const soakEnd = Date.now();
  const finishBy = (): number => soakEnd + 60_000 + (waitedForDisk() ? 15 * 60_000 : 0);
  let finished: any = null;
  while (!finished && Date.now() < finishBy() && serverExit === null) {
    finished = control.events.find((e) => e.event === 'run.finished' && e.payload.runId === runId)?.payload ?? null;
    if (!finished) await sleep(200);
  }
  if (!finished)
    failures.push(`the run did not finish within ${waitedForDisk() ? '15 min after it waited for its disk' : '60 s after the soak'}`);
  else if (finished.status !== 'done') failures.push(`the run ended ${finished.status}: ${JSON.stringify(finished.error)}`);
  else {
    recordId = finished.recordId;
    const saved = await control.call('library.get', { id: recordId });
    if (!saved.ok || saved.data.label !== 'soak' || !(saved.data.results?.[0]?.iops > 0))
      failures.push(`run ${recordId} is not in the library as measured: ${JSON.stringify(saved).slice(0, 200)}`);
  }
  const page = await fetch(`${ORIGIN}/?token=${TOKEN}`).then(
    (r) => r.status,
    () => 0,
  );
  if (page !== 200) failures.push(`the page answers ${page}, not 200`);
  const active = await control.call('runs.active', {});
  if (!active.ok) failures.push('runs.active failed after the soak');
}

// Back to the starting state: only the control socket open, as at the baseline.
let fdEnd = NaN;
let rssEnd = NaN;
if (serverExit === null) {
  for (let i = 0; i < 50; i++) {
    fdEnd = fdCount(pid);
    if (fdEnd <= fdStart) break;
    await sleep(100);
  }
  rssEnd = rssBytes(pid);
  if (fdEnd > fdStart) failures.push(`open file descriptors: ${fdEnd} after, ${fdStart} before`);
  if (rssEnd > 2 * rssStart)
    failures.push(
      `resident memory: ${(rssEnd / 2 ** 20).toFixed(1)} MiB after, over 2x the ${(rssStart / 2 ** 20).toFixed(1)} MiB at the start`,
    );
}

control.ws.close();
server.kill('SIGTERM');
await new Promise((r) => (serverExit === null ? server.once('exit', r) : r(null)));
const leftovers = readdirSync(target);
if (leftovers.length > 0) failures.push(`test files left in the target: ${leftovers.join(', ')}`);
rmSync(work, { recursive: true, force: true });

console.log(`soak:serve on ${HOST}:${PORT}, ${CONNECTIONS} connections, ${fuzzSeconds.toFixed(1)} s, ${ops} operations (cap ${MAX_OPS})`);
console.log(
  `  hostile request lines ${counts.requestLines}, hostile WebSocket sessions ${counts.frames}, API calls ${counts.apiCalls}, client-side errors ${counts.errors}`,
);
console.log(`  run ${runId}: ${recordId !== null ? `finished and saved as #${recordId}` : 'NOT saved'}`);
console.log(`  file descriptors: ${fdStart} at the start, ${fdEnd} at the end`);
console.log(
  `  resident memory: ${(rssStart / 2 ** 20).toFixed(1)} MiB at the start, ${(rssEnd / 2 ** 20).toFixed(1)} MiB at the end (ratio ${(rssEnd / rssStart).toFixed(2)}, limit 2.00)`,
);
if (failures.length > 0) {
  console.log(`FAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('ok: the server is up, the run was saved, no descriptor leaked, memory within 2x');
