// Bundles the Electron main process and the preload (vite/rolldown) into dist/electron/:
// the sandboxed preload must be one CommonJS file that requires nothing but 'electron', and
// the main bundle carries the core so Electron need not understand TypeScript.
import { build } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildElectron(): Promise<void> {
  for (const [entry, fileName] of [
    ['electron/main/main.ts', 'main.cjs'],
    ['electron/preload/preload.ts', 'preload.cjs'],
  ] as const) {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      ssr: { noExternal: true, target: 'node' },
      build: {
        ssr: entry,
        outDir: 'dist/electron',
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
