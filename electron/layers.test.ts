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
import { LAYERS, layersRule, NODE_LAYERS, SHARED_LAYERS } from '../eslint-rules/layers.js';

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

test('the tree keeps its layers: no upward import, nothing outside shared/ from shared/, no Node in the page, no Electron outside its glue', async () => {
  const results = await layeringOnly().lintFiles(['electron', 'renderer']);
  const found = results.flatMap((r) => r.messages.filter(layering).map((m) => `${r.filePath.slice(ROOT.length)}:${m.line}: ${m.message}`));
  assert.deepEqual(found, []);
});

test('every folder of shared/ and node/ has its place in the order of layers (a new one must be added there)', () => {
  const folders = (dir: string) =>
    readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  assert.deepEqual(
    folders('./shared/').filter((f) => !SHARED_LAYERS.includes(f)),
    [],
    'add the folder to SHARED_LAYERS in eslint-rules/layers.js, in order',
  );
  assert.deepEqual(
    folders('./node/').filter((f) => !NODE_LAYERS.includes(f)),
    [],
    'add the folder to NODE_LAYERS in eslint-rules/layers.js, in order',
  );
  // Where a file runs is its folder: nothing is left in the old engine folder.
  assert.deepEqual(folders('./').sort(), ['cli', 'main', 'node', 'preload', 'server', 'shared']);
});

test('an upward import fails: node/system importing node/bench, shared/model importing shared/analysis', async () => {
  const found = await problems("import { x } from '../bench/orchestrator.ts';\nexport const y = x;", 'electron/node/system/planted.ts');
  assert.equal(found.length, 1);
  assert.match(found[0]!, /node\/system may not import node\/bench/);
  const [message] = await problems("export { ratio } from '../analysis/compare.ts';", 'electron/shared/model/planted.ts');
  assert.match(message ?? '', /shared\/model may not import shared\/analysis .*: shared\/model may import only nothing outside itself/);
});

test('shared/ imports nothing outside itself: not node/, the CLI, the renderer, Node or Electron', async () => {
  const from = 'electron/shared/analysis/planted.ts';
  assert.match(
    (await problems("import { x } from '../../node/store/library.ts';", from))[0] ?? '',
    /imports nothing outside electron\/shared\//,
  );
  assert.match((await problems("import { x } from '../../cli/main.ts';", from))[0] ?? '', /imports nothing outside electron\/shared\//);
  assert.match(
    (await problems("import { x } from '../../../renderer/src/pages/compare.tsx';", from))[0] ?? '',
    /imports nothing outside electron\/shared\//,
  );
  assert.match(
    (await problems("import { readFileSync } from 'node:fs';", from))[0] ?? '',
    /may not import the package "node:fs".*electron\/node/,
  );
  assert.match((await problems("import { app } from 'electron';", from))[0] ?? '', /may not import the package "electron"/);
  assert.deepEqual(await problems("import { TESTS } from '../model/catalog.ts';", from), []);
});

test('node/ may import shared/ and the layers below it, not the CLI or Electron', async () => {
  assert.deepEqual(
    await problems(
      "import { TESTS } from '../../shared/model/catalog.ts';\nimport { x } from '../system/sysfs.ts';",
      'electron/node/bench/planted.ts',
    ),
    [],
  );
  assert.match(
    (await problems("import { main } from '../../cli/main.ts';", 'electron/node/bench/planted.ts'))[0] ?? '',
    /node\/bench may not import cli/,
  );
  assert.match(
    (await problems("import { app } from 'electron';", 'electron/node/api/planted.ts'))[0] ?? '',
    /may not import the package "electron"/,
  );
});

test('the renderer importing Node or node/ fails; shared/ passes, the contract for types', async () => {
  assert.match((await problems("import { readFileSync } from 'node:fs';", 'renderer/src/planted.ts'))[0] ?? '', /"node:fs"/);
  assert.match(
    (await problems("import { openLibrary } from '../../electron/node/store/library.ts';", 'renderer/src/planted.ts'))[0] ?? '',
    /renderer may not import node\/store/,
  );
  assert.deepEqual(
    await problems(
      "import type { CONTRACT } from '../../electron/shared/contract/contract.ts';\nimport { TESTS } from '../../electron/shared/model/catalog.ts';",
      'renderer/src/planted.ts',
    ),
    [],
  );
});

test('the renderer takes only types from the contract: a value (zod schemas and all) would be bundled into it', async () => {
  assert.match(
    (await problems("import { MAX_LIST_PAGE } from '../../electron/shared/contract/contract.ts';", 'renderer/src/planted.ts'))[0] ?? '',
    /renderer may import only types from \.\.\/\.\.\/electron\/shared\/contract\/contract\.ts/,
  );
  assert.match(
    (
      await problems("import { type ApiError, CONTRACT } from '../../electron/shared/contract/contract.ts';", 'renderer/src/planted.ts')
    )[0] ?? '',
    /only types/,
  );
  assert.deepEqual(
    await problems("import { type ApiError } from '../../electron/shared/contract/contract.ts';", 'renderer/src/planted.ts'),
    [],
  );
});

test('electron/main and electron/preload have their places: node/ may not import them, the preload only the contract and bridge', async () => {
  assert.match(
    (await problems("import { x } from '../../main/main.ts';", 'electron/node/api/planted.ts'))[0] ?? '',
    /node\/api may not import main/,
  );
  assert.match((await problems("import { x } from '../main/main.ts';", 'electron/cli/planted.ts'))[0] ?? '', /cli may not import main/);
  assert.match(
    (await problems("import { openLibrary } from '../node/store/library.ts';", 'electron/preload/planted.ts'))[0] ?? '',
    /preload may not import node\/store/,
  );
  assert.deepEqual(
    await problems(
      "import { app } from 'electron';\nimport { openBackend } from '../node/api/backend.ts';\nimport { renderReportHtmlLazily } from '../shared/report/report-html-lazy.ts';",
      'electron/main/planted.ts',
    ),
    [],
  );
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
