// `diskdelta serve`: the app in a browser, for machines without a display (reach it through
// an SSH tunnel: ssh -L 8080:127.0.0.1:PORT host, then open the printed URL with port 8080).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCount, parseFlags, type CliCommand } from '../args.ts';
import { DEFAULT_DIST_DIR, startAppServer } from '../../server/app-server.ts';
import { STOP_SIGNALS } from '../signals.ts';
import { writeOut, writeErr } from '../terminal.ts';
import { ensureRendererBuilt, RendererBuildError } from '../../server/renderer-build.ts';

const HELP = `Usage: diskdelta serve [--port N] [--open] [--db FILE]

Serves the DiskDelta app and its API on 127.0.0.1 only. The printed URL carries a token
made for this launch; without it the page and the API are refused.

  --port N     listen on port N (default: a free port)
  --open       open the URL in the default browser (xdg-open); without a display it says
               so, and the printed URL is what to open
  --db FILE    use this results library file instead of the default one

The app's pages are built (vite) on the first start and whenever a source is newer than
the build, so this works right after \`npm install\`.
`;

export const serveCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      port: { type: 'string' },
      open: { type: 'boolean' },
      db: { type: 'string' },
    });
    const port = values.port === undefined ? 0 : parseCount(values.port, '--port', 0, 65535);
    const say = (line: string) => writeErr(`diskdelta serve: ${line}\n`);
    if (process.env.DISKDELTA_RENDERER_DIR) {
      // A build placed elsewhere (packaged app, tests) is used as it is, never rebuilt.
      if (!existsSync(join(DEFAULT_DIST_DIR, 'index.html'))) {
        say(
          `no index.html in DISKDELTA_RENDERER_DIR=${DEFAULT_DIST_DIR}: point it at a renderer build (\`npm run build:renderer\` makes dist/renderer)`,
        );
        return 1;
      }
    } else {
      try {
        ensureRendererBuilt(DEFAULT_DIST_DIR, say);
      } catch (error) {
        if (!(error instanceof RendererBuildError)) throw error;
        say(error.message);
        return 1;
      }
    }
    let server;
    try {
      server = await startAppServer({ port, dbPath: values.db, log: say });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        code === 'EADDRINUSE'
          ? `port ${port} is already in use on 127.0.0.1: choose another with --port, or leave it out for a free one`
          : error instanceof Error
            ? error.message
            : String(error);
      writeErr(`diskdelta serve: ${reason}\n`);
      return 1;
    }
    writeOut(`DiskDelta is serving on ${server.url}\n(127.0.0.1 only; Ctrl+C stops it and cancels running benchmarks)\n`);
    if (values.open) openInBrowser(server.url, say);
    return new Promise<number>((resolve) => {
      // Stays installed during the shutdown: a repeated signal must not cut the workers'
      // cleanup short.
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        server
          .shutdown()
          .then(
            () => resolve(0),
            () => resolve(1),
          )
          .finally(() => {
            for (const signal of STOP_SIGNALS) process.off(signal, stop);
          });
      };
      for (const signal of STOP_SIGNALS) process.on(signal, stop);
    });
  },
};

/**
 * xdg-open without a display does nothing and says nothing, so look first; and report a
 * failure to start it or a non-zero exit (no browser configured) instead of staying silent.
 */
export function openInBrowser(url: string, say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  const port = new URL(url).port;
  const yourself = `open ${url} in a browser yourself (from another machine: ssh -L ${port}:127.0.0.1:${port} THIS-HOST, then the same URL there)`;
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) {
    say(`--open: no display here (neither DISPLAY nor WAYLAND_DISPLAY is set), so no browser was started; ${yourself}`);
    return;
  }
  const opener = spawn('xdg-open', [url], { stdio: 'ignore', detached: true, env });
  opener.on('error', (error) => say(`--open: could not run xdg-open (${error.message}); ${yourself}`));
  opener.on('exit', (code) => {
    if (code !== 0 && code !== null) say(`--open: xdg-open found no browser to start (exit status ${code}); ${yourself}`);
  });
  opener.unref();
}
