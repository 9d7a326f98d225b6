// The Electron bundles (built here without the Electron binary, which cannot be downloaded on
// the build machines): a sandboxed preload requires nothing but 'electron', the main bundle
// nothing but 'electron' and Node's own modules, and a rebuild leaves no chunk of an earlier one.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from './build-electron.ts';

// Its own build folder, two levels down as dist/electron is: `npm start` (electron-path.test.ts)
// rebuilds dist/electron in the same fast loop, and emptied it under this test's feet once.
const BUILD = 'dist/electron-build-test';
const OUT = fileURLToPath(new URL(`../${BUILD}/`, import.meta.url));
after(() => rmSync(OUT, { recursive: true, force: true }));

/** Every module a CommonJS bundle requires by name (not its own relative chunks). */
function requiredModules(file: string): string[] {
  const text = readFileSync(join(OUT, file), 'utf8');
  return [...new Set([...text.matchAll(/\brequire\(["']([^"'.][^"']*)["']\)/g)].map((m) => m[1]!))].sort();
}

test('the bundles require only electron (and node: modules in main); a rebuild removes stale chunks', async () => {
  await buildElectron(BUILD);
  writeFileSync(join(OUT, 'stale-chunk-from-an-old-build.cjs'), '');
  await buildElectron(BUILD);
  const files = readdirSync(OUT);
  assert.ok(!files.includes('stale-chunk-from-an-old-build.cjs'), `a stale chunk survived the rebuild: ${files.join(', ')}`);
  assert.ok(files.includes('main.cjs') && files.includes('preload.cjs'));
  assert.deepEqual(requiredModules('preload.cjs'), ['electron']);
  const main = requiredModules('main.cjs');
  assert.ok(main.includes('electron'));
  assert.deepEqual(
    // The bundler's import.meta.url shim requires 'url': a Node module too.
    main.filter((m) => m !== 'electron' && !m.startsWith('node:') && !builtinModules.includes(m)),
    [],
    'the main bundle carries everything else',
  );
});

test('the bundles carry React’s production build only: process.env.NODE_ENV is decided when bundling', async () => {
  await buildElectron(BUILD);
  const files = readdirSync(OUT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs'));
  for (const file of files) {
    const text = readFileSync(join(OUT, file), 'utf8');
    assert.doesNotMatch(text, /process\.env\.NODE_ENV/, `${file} leaves React's build to run time (the development one in Electron)`);
    assert.doesNotMatch(text, /\.development\.js/, `${file} bundles a React development build`);
  }
});

test('the preload carries the contract’s names, not its schemas: no zod (whose new Function probe the CSP refuses)', async () => {
  await buildElectron(BUILD);
  const preload = readFileSync(join(OUT, 'preload.cjs'), 'utf8');
  assert.doesNotMatch(preload, /new Function|\bZodError\b/);
  assert.ok(preload.length < 20_000, `preload.cjs is ${preload.length} bytes`);
});
