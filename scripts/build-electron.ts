// Bundles the Electron main process and the preload (vite/rolldown) into dist/electron/:
// the sandboxed preload must be one CommonJS file that requires nothing but 'electron', and
// the main bundle carries the core so Electron need not understand TypeScript.
import { build } from 'vite';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * `outDir` (relative to the checkout) must sit two levels below it, as dist/electron does:
 * main.cjs finds the renderer, the worker and the reference runs from its own folder. Tests
 * that load the bundles build their own folder, so parallel test files never rebuild the
 * bundle another one is loading.
 */
export async function buildElectron(outDir = 'dist/electron'): Promise<void> {
  // Both bundles share the folder, so each build keeps the other's files (emptyOutDir: false);
  // the folder is emptied once here, or chunks of every earlier build (hashed names) pile up.
  await rm(`${root}${outDir}`, { recursive: true, force: true });
  for (const [entry, fileName] of [
    ['electron/main/main.ts', 'main.cjs'],
    ['electron/preload/preload.ts', 'preload.cjs'],
  ] as const) {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      ssr: { noExternal: true, target: 'node' },
      // The report's React (electron/shared/report) is rendered in the main process: its
      // production build, not the development one that checks every render and warns.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        ssr: entry,
        outDir,
        emptyOutDir: false,
        target: 'node22',
        minify: false,
        rollupOptions: {
          external: ['electron', /^node:/],
          output: { format: 'cjs', entryFileNames: fileName },
        },
      },
    });
  }
}

if (import.meta.main) await buildElectron();
