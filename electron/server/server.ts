// Browser mode: the built renderer and the API over a WebSocket, on 127.0.0.1 only.
// Three locks, because any web page the user visits can try to reach a loopback port:
//  - a per-launch random token, required for the page and the socket (only the person who
//    read the printed URL has it);
//  - the Host header must name a loopback host (defeats DNS rebinding, where evil.example
//    resolves to 127.0.0.1);
//  - the socket's Origin must be this same server (defeats cross-site WebSocket hijacking,
//    which browsers do not block by themselves).
// The port in Host/Origin is not pinned, so an SSH tunnel to another local port still works.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, realpath } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { extname, join, normalize, posix, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, EventPayload, ServerMessage } from '../shared/contract/contract.ts';
import { handleWireMessage, type Handlers } from '../node/api/dispatch.ts';
import { MAX_IMPORT_BYTES } from '../node/formats/import-error.ts';

export interface ServerOptions {
  handlers: Handlers;
  /** The built renderer (vite's output). */
  distDir: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// An import up to the importers' own limit, base64 (4/3) inside a JSON envelope, still fits.
export const MAX_MESSAGE_BYTES = Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 64 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

// The same policy the Electron window sets: no inline script, no remote code; the socket
// may only go back to where the page came from.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** The hostname part of a Host header, or null when it is not a loopback name. */
export function loopbackHost(host: string | undefined): string | null {
  if (!host) return null;
  const match = /^(\[[0-9a-f:]+\]|[^:]+)(?::(\d{1,5}))?$/i.exec(host);
  if (!match) return null;
  return LOOPBACK_HOSTS.has(match[1]!.toLowerCase()) ? host.toLowerCase() : null;
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${message}\n`);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * The request target as a URL, or null when it cannot be one. Node's parser lets through
 * targets `new URL()` rejects (an absolute URL with a bad host, for one): those get a 400,
 * never an exception in the request handler, which would stop the server for everyone.
 */
export function requestUrl(target: string | undefined, host: string): URL | null {
  try {
    return new URL(target ?? '/', `http://${host}`);
  } catch {
    return null;
  }
}

/**
 * The path a request names, decoded and normalised ("/%2f/index.html" → "/index.html",
 * "/a/../b" → "/b"), so that the page's token check and the folder boundary judge the path
 * that will be read, not one spelling of it. Null when it does not decode or holds a NUL.
 */
export function normalisedPath(url: URL): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  return posix.normalize(`/${decoded}`);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  // Real paths: a file is served only if its own real path lies inside this one, so a
  // symlink in the folder cannot lead outside it.
  const distDir = (() => {
    try {
      return realpathSync(options.distDir);
    } catch {
      return normalize(options.distDir);
    }
  })();
  const clients = new Set<WebSocket>();

  const serveStatic = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    const pathname = normalisedPath(url);
    if (pathname === null) return refuse(res, 400, 'bad path');
    const isPage = pathname === '/' || pathname === '/index.html';
    // The page needs the token; the hashed assets it loads carry no data and are public.
    const given = url.searchParams.get('token');
    if (isPage && !tokenMatches(given, token)) {
      // A wrong token is most often a tab left open across a restart: each launch prints a new one.
      return refuse(
        res,
        403,
        given
          ? "DiskDelta: the token in this address is not this server's: it is stale if `diskdelta serve` was restarted (each start prints a new one). Open the full URL it printed last."
          : 'DiskDelta: this address needs the token. Open the full URL printed by `diskdelta serve`.',
      );
    }
    let file: string;
    let body: Buffer;
    try {
      file = await realpath(join(distDir, isPage ? 'index.html' : pathname));
      if (!file.startsWith(distDir + sep)) return refuse(res, 404, 'not found');
      body = await readFile(file);
    } catch {
      if (isPage) return refuse(res, 500, 'The renderer is not built: run `npm run build:renderer` first.');
      return refuse(res, 404, 'not found');
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': isPage ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const http = createServer((req, res) => {
    const host = loopbackHost(req.headers.host);
    if (!host) return refuse(res, 403, 'refused: not a loopback Host');
    const url = requestUrl(req.url, host);
    if (!url) return refuse(res, 400, 'bad request target');
    serveStatic(req, res, url).catch((error: unknown) => refuse(res, 500, String(error)));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  http.on('upgrade', (req, socket, head) => {
    // A peer that resets the connection must not raise an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    const host = loopbackHost(req.headers.host);
    if (!host) return refuseUpgrade(socket, 403, 'Forbidden');
    const url = requestUrl(req.url, host);
    if (!url) return refuseUpgrade(socket, 400, 'Bad Request');
    if (url.pathname !== '/api') return refuseUpgrade(socket, 404, 'Not Found');
    if (req.headers.origin !== `http://${host}`) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!tokenMatches(url.searchParams.get('token'), token)) return refuseUpgrade(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    // A protocol error (a frame over the size limit, invalid UTF-8, a reserved opcode) is this
    // socket's problem: ws closes it with the matching close code. Without a listener the
    // 'error' event would be thrown and stop the server, with any run in progress.
    ws.on('error', () => clients.delete(ws));
    ws.on('message', (data, isBinary) => {
      const reply = (message: ServerMessage) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
      };
      if (isBinary) {
        reply({ type: 'error', id: null, error: { code: 'BAD_MESSAGE', message: 'binary messages are not accepted' } });
        return;
      }
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a text frame: ws hands it over as a Buffer
      handleWireMessage(options.handlers, data.toString()).then(reply, (error: unknown) =>
        reply({ type: 'error', id: null, error: { code: 'INTERNAL', message: String(error) } }),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    broadcast(event, payload) {
      const text = JSON.stringify({ type: 'event', event, payload } satisfies ServerMessage);
      for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(text);
    },
    async close() {
      for (const ws of clients) ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
