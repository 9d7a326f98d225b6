// The docs say what the code does, where a sentence can be checked against it: the README's
// two commands and its order of layers, the pages it points to, and which tests the
// orchestrator names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NODE_LAYERS, SHARED_LAYERS } from '../eslint-rules/layers.js';
import { TEST_IDS } from '../electron/shared/model/catalog.ts';
import { RUN_SOURCES } from '../electron/shared/model/figure-terms.ts';
import { foreignToolNames, formatsText } from '../electron/shared/model/source-formats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const readme = read('README.md');
/** Prose with its line breaks and indents as single spaces: a sentence may wrap anywhere. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

test('the README starts with the two commands, as .ci/run and npm start expect them', () => {
  assert.ok(
    readme.startsWith(
      '# DiskDelta\n\n```sh\n# 1. Install and start the app (the first start fetches the Electron binary):\nnpm install && npm start\n\n' +
        '# 2. Install and run every test (as root on Debian 12: installs fio, bonnie++, Chromium… with apt-get):\nbash .ci/run\n```\n',
    ),
  );
  assert.ok(readme.split('\n').length <= 200, `the README is ${readme.split('\n').length} lines: move detail to docs/`);
});

test("the README's order of layers in shared/ and node/ is eslint-rules/layers.js's, every layer named", () => {
  const chain = (side: string) => new RegExp(`${side}: ([a-z →\\n]+)`).exec(readme)?.[1]!.replace(/\s+/g, ' ').trim();
  assert.equal(chain('shared'), SHARED_LAYERS.join(' → '));
  assert.equal(chain('node'), NODE_LAYERS.join(' → '));
});

test('every page the README points to exists', () => {
  const pages = [...readme.matchAll(/`((?:docs|e2e|electron)\/[\w/.-]+\.md)`/g)].map((m) => m[1]!);
  assert.ok(pages.length >= 6);
  assert.deepEqual(
    pages.filter((p) => !existsSync(`${ROOT}${p}`)),
    [],
  );
});

test('the README says lint runs before the tests, as scripts/run-tests.ts does', () => {
  const runner = read('scripts/run-tests.ts');
  assert.ok(runner.indexOf('await lint()') > 0);
  assert.ok(runner.indexOf('await lint()') < runner.indexOf('await nodeTests(files)'));
  const order = readme.slice(readme.indexOf('`npm test` runs, in this order'));
  assert.ok(order.indexOf('npm run lint') < order.indexOf('every unit and lab test'));
});

test('every test the orchestrator names is named in docs/measurement-kinds.md and kinds/kind.ts', () => {
  const code = read('electron/node/bench/orchestrator.ts');
  const named = TEST_IDS.filter((id) => code.includes(`'${id}'`));
  assert.ok(named.length > 0, 'the orchestrator names no test any more: say so in the docs and drop this check');
  for (const doc of ['docs/measurement-kinds.md', 'electron/node/bench/kinds/kind.ts']) {
    for (const id of named) assert.ok(read(doc).includes(`\`${id}\``), `${doc} does not say the orchestrator names ${id}`);
  }
});

test('the formats the README and docs/cli.md say DiskDelta imports are the one list (model/source-formats.ts)', () => {
  assert.ok(
    flat(readme).includes(`imported (${foreignToolNames().join(', ')})`),
    `the README's "imported (…)" should name ${foreignToolNames().join(', ')}`,
  );
  const cli = flat(read('docs/cli.md'));
  const sentence = `\`import\` recognises a file's format from its content: ${formatsText()}.`;
  assert.ok(cli.includes(sentence), `docs/cli.md should say: ${sentence}`);
  assert.ok(
    cli.includes(`[--source ${RUN_SOURCES.join('|')}]`),
    `docs/cli.md's list synopsis should offer --source ${RUN_SOURCES.join('|')}`,
  );
});

test('every test docs/privileged-surfaces.md names exists: a surface is attacked by a test that is really there', () => {
  const page = read('docs/privileged-surfaces.md');
  const rows = page.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| surface'));
  assert.ok(rows.length >= 15, `${rows.length} surfaces`);
  const missing: string[] = [];
  let named = 0;
  for (const row of rows) {
    const attack =
      row
        .replace(/\s*\|\s*$/, '')
        .split(' | ')
        .at(-1) ?? '';
    // "`file.test.ts` › a test's name › another name; `other.test.ts` › …": a name up to "…" is its start.
    for (const [, file, names] of attack.matchAll(/`([\w./-]+\.test\.ts)`([^`]*)/g)) {
      const source = existsSync(`${ROOT}${file}`) ? read(file!) : null;
      if (source === null) missing.push(`${file} (no such file)`);
      for (const name of names!.split('›').slice(1)) {
        const start = name
          .split('…')[0]!
          .replace(/[;,.\s]+$/, '')
          .trim()
          .slice(0, 60);
        named++;
        if (source !== null && start && !source.includes(start)) missing.push(`${file} › ${start}`);
      }
    }
  }
  assert.ok(named >= 30, `${named} tests named`);
  assert.deepEqual(missing, []);
});

test('docs/measurement-kinds.md names every kind of the KINDS table, and says how many', async () => {
  const { KINDS } = await import('../electron/node/bench/kinds/index.ts');
  const page = read('docs/measurement-kinds.md');
  const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
  assert.match(page, new RegExp(`holds ${words[KINDS.length]}\\b`), `the page says how many kinds KINDS holds (${KINDS.length})`);
  for (const kind of KINDS) assert.ok(page.includes(`\`${kind.id}\``), `docs/measurement-kinds.md does not name the kind ${kind.id}`);
});

test('the terminal-text modules live in the CLI (electron/cli/), as the README says all terminal text does', () => {
  for (const module of ['cipher-text.ts', 'encryption-text.ts', 'compare-text.ts'])
    assert.ok(existsSync(`${ROOT}electron/cli/${module}`), module);
  assert.ok(readme.includes('`electron/cli/` is the command (and all terminal text)'));
});

/** The TypeScript sources under dir, tests left out; symlinks not followed (the sysfs fixtures loop). */
function sourceFiles(dir: string): string[] {
  return readdirSync(`${ROOT}${dir}`, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sourceFiles(path);
    return e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [path] : [];
  });
}

test("the page's code makes its number and date formatters once (docs/app.md): no toLocaleString call in renderer/src or electron/shared", () => {
  const calls = [...sourceFiles('renderer/src'), ...sourceFiles('electron/shared')].filter((f) =>
    /\.toLocale(String|DateString|TimeString)\(/.test(read(f)),
  );
  assert.deepEqual(
    calls,
    [],
    'each builds an Intl formatter per call in Chromium: use formatNumber, formatCount, groupedFormat or formatDate',
  );
});

test('no rate or size is printed by hand ("(x / 1e6).toFixed(1) MB/s" has no thousands separator: "2345.6 MB/s"): units.ts formats them', () => {
  const byHand = /\/ (?:1e\d+|2 \*\* \d+)\)\.toFixed\(/;
  const found = [...sourceFiles('renderer/src'), ...sourceFiles('electron')].flatMap((f) =>
    read(f)
      .split('\n')
      .flatMap((line, i) => (byHand.test(line) ? [`${f}:${i + 1}`] : [])),
  );
  assert.deepEqual(found, [], 'use formatThroughput, formatCount or groupedDecimals (electron/shared/analysis/units.ts)');
});

test("docs/cli.md names every preset of catalog/presets.ts, and the sweep's count of block sizes", async () => {
  const { PRESETS, SWEEP_BLOCK_SIZES } = await import('../electron/shared/catalog/presets.ts');
  const { formatBytes } = await import('../electron/shared/analysis/units.ts');
  const cli = flat(read('docs/cli.md'));
  const unnamed = Object.keys(PRESETS).filter((name) => !cli.includes(`\`${name}\``));
  assert.deepEqual(unnamed, [], 'presets docs/cli.md does not name');
  const sweep = `${formatBytes(SWEEP_BLOCK_SIZES[0]!)}, ${formatBytes(SWEEP_BLOCK_SIZES[1]!)} … ${formatBytes(SWEEP_BLOCK_SIZES.at(-1)!)} (${SWEEP_BLOCK_SIZES.length} powers of two)`;
  assert.ok(cli.includes(sweep), `docs/cli.md's sweep row should say: ${sweep}`);
});

test('docs/benchmarks.md lists every bench: and soak: script of package.json, and names no script that is not there', () => {
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
  const page = read('docs/benchmarks.md');
  const listed = [...page.matchAll(/`npm run ([\w:-]+)/g)].map((m) => m[1]!);
  assert.deepEqual(
    scripts.filter((s) => /^(bench|soak):/.test(s) && !listed.includes(s)),
    [],
    'benchmarks docs/benchmarks.md does not list',
  );
  assert.deepEqual(
    listed.filter((s) => !scripts.includes(s)),
    [],
    'npm scripts docs/benchmarks.md names that package.json lacks',
  );
});

test('every file path the README and the docs name in backticks exists (a test id: its .test.ts)', () => {
  const pages = ['README.md', 'e2e/README.md', ...readdirSync(`${ROOT}docs`).map((f) => `docs/${f}`)];
  const missing: string[] = [];
  for (const page of pages) {
    for (const [, path] of read(page).matchAll(/`((?:electron|renderer|scripts|native|e2e|docs|bin|assets)\/[\w./-]+)`/g)) {
      if (!existsSync(`${ROOT}${path}`) && !existsSync(`${ROOT}${path}.test.ts`)) missing.push(`${page}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("docs/cli.md's tree workload figures are the shape file's (assets/workloads/linux-6.1.192.tree-shape.json)", async () => {
  const { formatCount } = await import('../electron/shared/analysis/units.ts');
  const shape = JSON.parse(read('assets/workloads/linux-6.1.192.tree-shape.json')) as {
    files: number;
    bytes: number;
    dirs: number;
    depths: unknown[];
  };
  const said = `${formatCount(shape.files)} files, ${formatCount(shape.bytes)} bytes, ${formatCount(shape.dirs)} folders, ${shape.depths.length} levels`;
  assert.ok(flat(read('docs/cli.md')).includes(said), `docs/cli.md should say: ${said}`);
});
