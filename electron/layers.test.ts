// The layering of design.md, enforced by the ESLint rule `diskdelta/layers` (eslint-rules/layers.js
// holds the one table of layers). `npm run lint` checks the whole tree with every rule; this test
// runs the layering rule alone, without type information, so it stays fast, and proves it fails on
// each kind of boundary it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { CORE_LAYERS, LAYERS, layersRule } from '../eslint-rules/layers.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

// Only this rule's findings: the tree's disable comments name rules this instance does not load.
const layering = (m: { ruleId: string | null }) => m.ruleId === 'diskdelta/layers';

function layeringOnly(): ESLint {
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      { ignores: ['**/node_modules/**', '**/*.test.ts', '**/*.fuzz.ts', '**/fixtures/**'] },
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        plugins: { diskdelta: { rules: { layers: layersRule } } },
        rules: { 'diskdelta/layers': ['error', { root: ROOT, layers: LAYERS }] },
      },
    ],
  });
}

async function problems(code: string, path: string): Promise<string[]> {
  const [result] = await layeringOnly().lintText(code, { filePath: `${ROOT}${path}` });
  return (result?.messages ?? []).filter(layering).map((m) => m.message);
}

test('the tree keeps its layers: no upward import in core, no Electron in core, no Node in the renderer', async () => {
  const results = await layeringOnly().lintFiles(['electron', 'renderer']);
  const found = results.flatMap((r) => r.messages.filter(layering).map((m) => `${r.filePath.slice(ROOT.length)}:${m.line}: ${m.message}`));
  assert.deepEqual(found, []);
});

test('every folder of core/ has its place in the order of layers (a new one must be added there)', () => {
  const folders = readdirSync(new URL('.', import.meta.url), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  assert.deepEqual(
    folders.filter((f) => !CORE_LAYERS.includes(f)),
    [],
    'add the folder to CORE_LAYERS in eslint-rules/layers.js, in order',
  );
});

test('an upward import inside core fails (system importing analysis)', async () => {
  const found = await problems(
    "import { ratio } from '../analysis/compare.ts';\nexport const x = ratio;",
    'electron/core/system/planted.ts',
  );
  assert.equal(found.length, 1);
  assert.match(found[0]!, /system may not import analysis/);
});

test('core importing the CLI (outside core) or Electron fails', async () => {
  assert.match(
    (await problems("import { main } from '../../cli/main.ts';", 'electron/core/bench/planted.ts'))[0] ?? '',
    /bench may not import cli/,
  );
  assert.match(
    (await problems("import { app } from 'electron';", 'electron/core/api/planted.ts'))[0] ?? '',
    /may not import the package "electron"/,
  );
});

test('the renderer importing Node or a core internal fails; the contract and shared pure modules pass', async () => {
  assert.match((await problems("import { readFileSync } from 'node:fs';", 'renderer/src/planted.ts'))[0] ?? '', /"node:fs"/);
  assert.match(
    (await problems("import { openLibrary } from './node/store/library.ts';", 'renderer/src/planted.ts'))[0] ?? '',
    /renderer may not import store/,
  );
  assert.deepEqual(
    await problems(
      "import type { CONTRACT } from './shared/contract/contract.ts';\nimport { TESTS } from './shared/model/catalog.ts';",
      'renderer/src/planted.ts',
    ),
    [],
  );
});

test('the renderer takes only types from the contract: a value (zod schemas and all) would be bundled into it', async () => {
  assert.match(
    (await problems("import { MAX_LIST_PAGE } from './shared/contract/contract.ts';", 'renderer/src/planted.ts'))[0] ?? '',
    /renderer may import only types from \.\.\/\.\.\/electron\/core\/api\/contract\.ts/,
  );
  assert.match(
    (await problems("import { type ApiError, CONTRACT } from './shared/contract/contract.ts';", 'renderer/src/planted.ts'))[0] ?? '',
    /only types/,
  );
  assert.deepEqual(await problems("import { type ApiError } from './shared/contract/contract.ts';", 'renderer/src/planted.ts'), []);
});

test('electron/main and electron/preload have their places: core may not import them, the preload only the contract and bridge', async () => {
  assert.match(
    (await problems("import { x } from '../../main/main.ts';", 'electron/core/api/planted.ts'))[0] ?? '',
    /api may not import main/,
  );
  assert.match((await problems("import { x } from './main/main.ts';", 'electron/cli/planted.ts'))[0] ?? '', /cli may not import main/);
  assert.match(
    (await problems("import { openLibrary } from './node/store/library.ts';", 'electron/preload/planted.ts'))[0] ?? '',
    /preload may not import store/,
  );
  assert.deepEqual(
    await problems(
      "import { app } from 'electron';\nimport { openBackend } from './node/api/backend.ts';\nimport { renderReportHtmlLazily } from '../renderer/src/report/report-html-lazy.ts';",
      'electron/main/planted.ts',
    ),
    [],
  );
});

test('a lower layer importing a higher one is named with what it may import', async () => {
  const [message] = await problems("export { x } from '../api/contract.ts';", 'electron/shared/model/planted.ts');
  assert.match(message ?? '', /model may not import api .*: model may import only nothing outside itself/);
});

test('model/ has no import cycle, type-only imports included (a cycle means one module is two)', () => {
  const dir = fileURLToPath(new URL('./shared/model/', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const edges = new Map(
    files.map((f) => [
      f,
      [...readFileSync(`${dir}${f}`, 'utf8').matchAll(/^import\s[^;]*?from\s+'\.\/([\w-]+\.ts)'/gm)]
        .map((m) => m[1]!)
        .filter((t) => files.includes(t)),
    ]),
  );
  const cycles: string[] = [];
  const walk = (file: string, path: string[]) => {
    for (const next of edges.get(file) ?? []) {
      if (next === path[0]) cycles.push([...path, next].join(' → '));
      else if (!path.includes(next) && next > path[0]!) walk(next, [...path, next]);
    }
  };
  for (const f of files) walk(f, [f]);
  assert.deepEqual(cycles, []);
});
