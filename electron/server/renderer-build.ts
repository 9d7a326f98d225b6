// Browser mode serves the built renderer (dist/renderer). `npm install` does not build it, so
// `diskdelta serve` builds it on its first start, and again when a source is newer than the
// build (after a `git pull`), so the page never lags behind the API it talks to.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the renderer bundle is made of: its own sources and the core modules it imports. */
const SOURCES = ['renderer', 'electron/shared', 'vite.config.ts'];

export type RendererState = { state: 'fresh' } | { state: 'missing' | 'stale'; newest: string };

/** Newest source file (tests and fixtures are not in the bundle) and its mtime. */
function newestSource(root: string): { path: string; mtimeMs: number } {
  let newest = { path: '', mtimeMs: 0 };
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'fixtures' && entry !== 'node_modules') visit(join(path, entry));
      }
    } else if (!/\.test\.tsx?$/.test(path) && stat.mtimeMs > newest.mtimeMs) {
      newest = { path, mtimeMs: stat.mtimeMs };
    }
  };
  for (const source of SOURCES) visit(join(root, source));
  return newest;
}

export function rendererState(distDir: string, root = PROJECT_ROOT): RendererState {
  const built = statSync(join(distDir, 'index.html'), { throwIfNoEntry: false });
  const newest = newestSource(root);
  if (!built) return { state: 'missing', newest: newest.path };
  return newest.mtimeMs > built.mtimeMs ? { state: 'stale', newest: newest.path } : { state: 'fresh' };
}

export class RendererBuildError extends Error {
  override name = 'RendererBuildError';
}

/**
 * Builds the renderer into distDir with the project's vite when it is missing or older than
 * its sources. Vite writes into a sibling folder that then replaces distDir, so a server that
 * is running from distDir never serves a half-written build. Progress goes to `log`.
 */
export function ensureRendererBuilt(distDir: string, log: (line: string) => void, root = PROJECT_ROOT): 'fresh' | 'built' {
  const current = rendererState(distDir, root);
  if (current.state === 'fresh') return 'fresh';
  const vite = join(root, 'node_modules', '.bin', 'vite');
  if (!existsSync(vite)) {
    throw new RendererBuildError(
      `the app's pages are not built (${distDir}) and vite, which builds them, is not installed: run \`npm install\` in ${root}`,
    );
  }
  log(
    current.state === 'missing'
      ? "building the app's pages (first start: vite, a few seconds)…"
      : `rebuilding the app's pages: ${current.newest} is newer than the build…`,
  );
  const temp = `${distDir.replace(/\/+$/, '')}.building-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  // stdout too goes to stderr: the server's stdout carries only its URL.
  const result = spawnSync(vite, ['build', '--logLevel', 'warn', '--outDir', temp, '--emptyOutDir'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0 || !existsSync(join(temp, 'index.html'))) {
    rmSync(temp, { recursive: true, force: true });
    const why = result.error ? result.error.message : `vite exited with status ${result.status ?? result.signal}`;
    throw new RendererBuildError(
      `building the app's pages failed (${why}); the messages above say why. \`npm run build:renderer\` repeats it`,
    );
  }
  rmSync(distDir, { recursive: true, force: true });
  renameSync(temp, distDir);
  return 'built';
}
