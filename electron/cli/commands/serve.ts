// `diskdelta serve`: the app in a browser, for machines without a display (reach it through
// an SSH tunnel: ssh -L 8080:127.0.0.1:PORT host, then open the printed URL with port 8080).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCount, parseFlags, type CliCommand } from '../args.ts';
import { DEFAULT_DIST_DIR, startAppServer } from '../../server/app-server.ts';
import { STOP_SIGNALS } from '../signals.ts';
import { writeOut, writeErr } from '../terminal.ts';

const HELP = `Usage: diskdelta serve [--port N] [--open] [--db FILE]

Serves the DiskDelta app and its API on 127.0.0.1 only. The printed URL carries a token
made for this launch; without it the page and the API are refused.

  --port N     listen on port N (default: a free port)
  --open       open the URL in the default browser (xdg-open)
  --db FILE    use this results library file instead of the default one
`;

export const serveCommand: CliCommand = {
  name: 'serve',
  synopsis: 'serve [--port N] [--open]',
  summary: 'the app in a browser: UI and API on 127.0.0.1 with a per-launch token',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      port: { type: 'string' },
      open: { type: 'boolean' },
      db: { type: 'string' },
    });
    const port = values.port === undefined ? 0 : parseCount(values.port, '--port', 0, 65535);
    if (!existsSync(join(DEFAULT_DIST_DIR, 'index.html'))) {
      writeErr('diskdelta serve: the renderer is not built; run `npm run build:renderer` first.\n');
      return 1;
    }
    let server;
    try {
      server = await startAppServer({ port, dbPath: values.db });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'EADDRINUSE' ? `port ${port} is already in use on 127.0.0.1: choose another with --port, or leave it out for a free one` : error instanceof Error ? error.message : String(error);
      writeErr(`diskdelta serve: ${reason}\n`);
      return 1;
    }
    writeOut(`DiskDelta is serving on ${server.url}\n(127.0.0.1 only; Ctrl+C stops it and cancels running benchmarks)\n`);
    if (values.open) {
      const opener = spawn('xdg-open', [server.url], { stdio: 'ignore', detached: true });
      opener.on('error', () => writeErr('diskdelta serve: could not run xdg-open; open the URL yourself.\n'));
      opener.unref();
    }
    return new Promise<number>((resolve) => {
      // Stays installed during the shutdown: a repeated signal must not cut the workers'
      // cleanup short.
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        server.shutdown().then(() => resolve(0), () => resolve(1)).finally(() => {
          for (const signal of STOP_SIGNALS) process.off(signal, stop);
        });
      };
      for (const signal of STOP_SIGNALS) process.on(signal, stop);
    });
  },
};
