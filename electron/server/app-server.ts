// Wires the real backend to the WebSocket server: what `diskdelta serve` runs, and what the
// e2e tests and the app benchmark start in-process.
import { fileURLToPath } from 'node:url';
import { createHandlers } from '../node/api/handlers.ts';
import { createCoalescer, type EventSink } from '../node/api/events.ts';
import { openBackend } from '../node/api/backend.ts';
import { startServer, type RunningServer } from './server.ts';
import { chromiumPrinter } from '../node/report/chromium-printer.ts';
import { renderReportHtmlLazily } from '../shared/report/report-html-lazy.ts';
import { appVersion } from '../node/app-version.ts';

/** The built renderer; DISKDELTA_RENDERER_DIR points elsewhere (tests, packaged layouts). */
export const DEFAULT_DIST_DIR = process.env.DISKDELTA_RENDERER_DIR || fileURLToPath(new URL('../../dist/renderer', import.meta.url));

export interface AppServerOptions {
  port?: number;
  dbPath?: string;
  distDir?: string;
  /** Lines for the operator (`diskdelta serve` prints them through its escaping writer). */
  log?: (line: string) => void;
}

export interface AppServer extends RunningServer {
  /** Cancels runs (workers remove their test files), closes the library and the server. */
  shutdown(): Promise<void>;
}

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  // The server exists only after the backend; events emitted before it (none in practice)
  // would have nobody to reach anyway.
  let server: RunningServer | null = null;
  const sink: EventSink = (event, payload) => server?.broadcast(event, payload);
  const coalescer = createCoalescer(sink);
  // Browser mode prints report PDFs in the system's Chromium, as the CLI does.
  const backend = await openBackend({
    dbPath: options.dbPath,
    emit: coalescer.emit,
    sample: coalescer.sample,
    reportHtml: renderReportHtmlLazily,
    printer: chromiumPrinter(),
    appVersion: await appVersion(),
    ...(options.log ? { log: options.log } : {}),
  });
  server = await startServer({
    handlers: createHandlers(backend),
    distDir: options.distDir ?? DEFAULT_DIST_DIR,
    port: options.port,
  });
  const running = server;
  return {
    ...running,
    async shutdown() {
      await backend.runs?.stopAll();
      coalescer.close();
      await backend.close();
      await running.close();
    },
  };
}
