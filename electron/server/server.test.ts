import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { loopbackHost, MAX_MESSAGE_BYTES, startServer, type RunningServer } from './server.ts';
import { MAX_IMPORT_BYTES } from '../node/formats/import-error.ts';
import { PROCEDURE_NAMES } from '../shared/contract/contract.ts';
import type { Handlers } from '../node/api/dispatch.ts';

function spyHandlers() {
  const calls: string[] = [];
  const handlers = Object.fromEntries(PROCEDURE_NAMES.map((name) => [name, async () => (calls.push(name), [])])) as unknown as Handlers;
  return { calls, handlers };
}

async function withServer(t: import('node:test').TestContext) {
  const dist = mkdtempSync(join(tmpdir(), 'dd-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>DiskDelta</title>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dist, '..', 'secret-dd-test.txt'), 'secret');
  const spy = spyHandlers();
  const server = await startServer({ handlers: spy.handlers, distDir: dist });
  t.after(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
    rmSync(join(dist, '..', 'secret-dd-test.txt'), { force: true });
  });
  return { server: Object.assign(server, { distDir: dist }), ...spy };
}

function get(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with the socket once open, or with the HTTP status that refused it. */
function connect(server: RunningServer, query: string, headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api${query}`, { headers });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

function ask(ws: WebSocket, message: string): Promise<any> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(data.toString())));
    ws.send(message);
  });
}

test('loopbackHost accepts loopback names only', () => {
  assert.equal(loopbackHost('127.0.0.1:8080'), '127.0.0.1:8080');
  assert.equal(loopbackHost('localhost:1'), 'localhost:1');
  assert.equal(loopbackHost('[::1]:9'), '[::1]:9');
  assert.equal(loopbackHost('evil.example:8080'), null);
  assert.equal(loopbackHost('127.0.0.1.evil.example'), null);
  assert.equal(loopbackHost(undefined), null);
});

test('the page needs the token; assets do not; traversal and foreign Host are refused', async (t) => {
  const { server } = await withServer(t);
  const bare = await get(server, '/');
  assert.equal(bare.status, 403);
  assert.match(bare.body, /needs the token/);
  // A token that is not this server's is most often one from an earlier start: it is named stale, not missing.
  const wrong = await get(server, '/?token=wrong');
  assert.equal(wrong.status, 403);
  assert.match(wrong.body, /not this server's.*stale/);
  assert.doesNotMatch(wrong.body, /needs the token/);
  const page = await get(server, `/?token=${server.token}`);
  assert.equal(page.status, 200);
  assert.match(page.body, /DiskDelta/);
  assert.equal((await get(server, '/assets/app.js')).status, 200);
  assert.equal((await get(server, '/../secret-dd-test.txt')).status, 404);
  assert.equal((await get(server, '/%2e%2e/secret-dd-test.txt')).status, 404);
  assert.equal((await get(server, `/?token=${server.token}`, { host: 'evil.example' })).status, 403);
});

test('the socket refuses: no token, wrong token, wrong Origin, missing Origin, foreign Host', async (t) => {
  const { server, calls } = await withServer(t);
  const origin = `http://127.0.0.1:${server.port}`;
  assert.equal(await connect(server, '', { origin }), 401);
  assert.equal(await connect(server, '?token=x', { origin }), 401);
  assert.equal(await connect(server, `?token=${server.token}`, { origin: 'http://evil.example' }), 403);
  assert.equal(await connect(server, `?token=${server.token}`, { origin: `http://localhost:${server.port}` }), 403);
  assert.equal(await connect(server, `?token=${server.token}`, {}), 403);
  assert.equal(await connect(server, `?token=${server.token}`, { origin, host: `evil.example:${server.port}` }), 403);
  assert.deepEqual(calls, []);
});

test('with token and Origin: bad messages get errors, good ones reach the handler, events are pushed', async (t) => {
  const { server, calls } = await withServer(t);
  const ws = await connect(server, `?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
  assert.ok(ws instanceof WebSocket);
  t.after(() => ws.close());
  assert.equal((await ask(ws, 'not json')).error.code, 'BAD_MESSAGE');
  assert.equal(
    (await ask(ws, JSON.stringify({ type: 'invoke', id: 1, procedure: 'fs.readFile', input: {} }))).result.error.code,
    'UNKNOWN_PROCEDURE',
  );
  assert.equal(
    (await ask(ws, JSON.stringify({ type: 'invoke', id: 2, procedure: 'library.get', input: { id: 'x' } }))).result.error.code,
    'BAD_INPUT',
  );
  assert.deepEqual(calls, []);
  const ok = await ask(ws, JSON.stringify({ type: 'invoke', id: 3, procedure: 'runs.active', input: {} }));
  assert.deepEqual(ok, { type: 'result', id: 3, result: { ok: true, data: [] } });
  assert.deepEqual(calls, ['runs.active']);
  const event = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
  server.broadcast('run.warning', { runId: 'r', code: 'noisy', message: 'm' });
  assert.deepEqual(await event, { type: 'event', event: 'run.warning', payload: { runId: 'r', code: 'noisy', message: 'm' } });
});

/** Sends raw bytes on a new TCP connection; resolves with everything the server sent back. */
function raw(server: RunningServer, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = netConnect(server.port, '127.0.0.1', () => socket.write(bytes));
    let got = '';
    socket.on('data', (chunk) => (got += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(got));
    socket.setTimeout(3000, () => socket.destroy());
  });
}

/** A client-to-server frame, masked as the protocol requires; `length` may lie about the payload. */
function frame(opcode: number, payload: Buffer, length = payload.length): Buffer {
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | length])
      : Buffer.concat([
          Buffer.from([0x80 | opcode, 0x80 | 127]),
          (() => {
            const b = Buffer.alloc(8);
            b.writeBigUInt64BE(BigInt(length));
            return b;
          })(),
        ]);
  return Buffer.concat([head, mask, masked]);
}

test('a malformed request target gets 400 on the page and the socket path; the server carries on', async (t) => {
  const { server } = await withServer(t);
  for (const target of ['http://[::1:80/', '//[/', 'http://%zz/?token=x']) {
    const page = await raw(server, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.match(page, /^HTTP\/1\.1 400 /, `page ${target}`);
    const upgrade = await raw(
      server,
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    assert.match(upgrade, /^HTTP\/1\.1 400 /, `upgrade ${target}`);
  }
  assert.equal((await get(server, `/?token=${server.token}`)).status, 200);
});

test('a WebSocket protocol error closes only that socket: oversize frame, invalid UTF-8, reserved opcode', async (t) => {
  const { server } = await withServer(t);
  const handshake =
    `GET /api?token=${server.token} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: http://127.0.0.1:${server.port}\r\n` +
    'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
  const bad = [
    frame(0x1, Buffer.alloc(8), MAX_MESSAGE_BYTES + 1), // announces more than the limit
    frame(0x1, Buffer.from([0xc3, 0x28])), // invalid UTF-8 in a text frame
    frame(0x3, Buffer.from('x')), // reserved opcode
  ];
  const bystander = await connect(server, `?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
  assert.ok(bystander instanceof WebSocket);
  t.after(() => bystander.close());
  for (const bytes of bad) {
    const reply = await raw(server, Buffer.concat([Buffer.from(handshake), bytes]));
    assert.match(reply, /^HTTP\/1\.1 101 /);
  }
  const ok = await ask(bystander, JSON.stringify({ type: 'invoke', id: 9, procedure: 'runs.active', input: {} }));
  assert.deepEqual(ok, { type: 'result', id: 9, result: { ok: true, data: [] } });
});

test("the frame limit holds an import at the importers' limit, as the page sends it", () => {
  const envelope = JSON.stringify({
    type: 'invoke',
    id: 1,
    procedure: 'library.import',
    input: { fileName: 'x'.repeat(255), contentBase64: '' },
  });
  assert.ok(Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + envelope.length <= MAX_MESSAGE_BYTES);
});

test('the token check and the folder boundary judge the normalised, real path', async (t) => {
  const { server } = await withServer(t);
  for (const spelling of [
    '/%2findex.html',
    '/%2F%2Findex.html',
    '//index.html',
    '/assets/../index.html',
    '/./index.html',
    '/assets/%2e%2e/index.html',
  ]) {
    assert.equal((await get(server, spelling)).status, 403, spelling);
  }
  const dist = server.distDir;
  symlinkSync(join(dist, '..', 'secret-dd-test.txt'), join(dist, 'assets', 'leak.txt'));
  symlinkSync('/etc', join(dist, 'assets', 'etc'));
  assert.equal((await get(server, '/assets/leak.txt')).status, 404);
  assert.equal((await get(server, '/assets/etc/hostname')).status, 404);
  assert.equal((await get(server, '/assets/app.js')).status, 200);
});
