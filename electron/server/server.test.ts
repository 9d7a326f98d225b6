import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { loopbackHost, startServer, type RunningServer } from './server.ts';
import { PROCEDURE_NAMES } from '../core/api/contract.ts';
import type { Handlers } from '../core/api/dispatch.ts';

function spyHandlers() {
  const calls: string[] = [];
  const handlers = Object.fromEntries(
    PROCEDURE_NAMES.map((name) => [name, async () => (calls.push(name), [])]),
  ) as unknown as Handlers;
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
  return { server, ...spy };
}

function get(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
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
  assert.equal((await get(server, '/')).status, 403);
  assert.equal((await get(server, '/?token=wrong')).status, 403);
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
  assert.equal((await ask(ws, JSON.stringify({ type: 'invoke', id: 1, procedure: 'fs.readFile', input: {} }))).result.error.code, 'UNKNOWN_PROCEDURE');
  assert.equal((await ask(ws, JSON.stringify({ type: 'invoke', id: 2, procedure: 'library.get', input: { id: 'x' } }))).result.error.code, 'BAD_INPUT');
  assert.deepEqual(calls, []);
  const ok = await ask(ws, JSON.stringify({ type: 'invoke', id: 3, procedure: 'runs.active', input: {} }));
  assert.deepEqual(ok, { type: 'result', id: 3, result: { ok: true, data: [] } });
  assert.deepEqual(calls, ['runs.active']);
  const event = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
  server.broadcast('run.warning', { runId: 'r', code: 'noisy', message: 'm' });
  assert.deepEqual(await event, { type: 'event', event: 'run.warning', payload: { runId: 'r', code: 'noisy', message: 'm' } });
});
