// The docs say what the code does, where a sentence can be checked against it: the README's
// two commands and its order of layers, the pages it points to, and which tests the
// orchestrator names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CORE_LAYERS } from '../eslint-rules/layers.js';
import { TEST_IDS } from '../electron/core/model/catalog.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const readme = read('README.md');

test('the README starts with the two commands, as .ci/run and npm start expect them', () => {
  assert.ok(
    readme.startsWith(
      '# DiskDelta\n\n```sh\n# 1. Install and start the app (the first start fetches the Electron binary):\nnpm install && npm start\n\n' +
        '# 2. Install and run every test (as root on Debian 12: installs fio, bonnie++, Chromium… with apt-get):\nbash .ci/run\n```\n',
    ),
  );
  assert.ok(readme.split('\n').length <= 200, `the README is ${readme.split('\n').length} lines: move detail to docs/`);
});

test("the README's order of core layers is eslint-rules/layers.js's, every layer named", () => {
  const chain = /model → [a-z →\n]+ → api/.exec(readme)?.[0].replace(/\s+/g, ' ');
  assert.equal(chain, CORE_LAYERS.join(' → '));
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
  const code = read('electron/core/bench/orchestrator.ts');
  const named = TEST_IDS.filter((id) => code.includes(`'${id}'`));
  assert.ok(named.length > 0, 'the orchestrator names no test any more: say so in the docs and drop this check');
  for (const doc of ['docs/measurement-kinds.md', 'electron/core/bench/kinds/kind.ts']) {
    for (const id of named) assert.ok(read(doc).includes(`\`${id}\``), `${doc} does not say the orchestrator names ${id}`);
  }
});

test('docs/measurement-kinds.md names every kind of the KINDS table, and says how many', async () => {
  const { KINDS } = await import('../electron/core/bench/kinds/index.ts');
  const page = read('docs/measurement-kinds.md');
  const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
  assert.match(page, new RegExp(`holds ${words[KINDS.length]}\\b`), `the page says how many kinds KINDS holds (${KINDS.length})`);
  for (const kind of KINDS) assert.ok(page.includes(`\`${kind.id}\``), `docs/measurement-kinds.md does not name the kind ${kind.id}`);
});

test('the terminal-text modules in core are the ones the README names', () => {
  // Each module in core that formats text only a terminal (or a text report) reads.
  for (const module of ['crypto/cipher-text.ts', 'crypto/encryption-text.ts', 'analysis/compare-text.ts']) {
    assert.ok(existsSync(`${ROOT}electron/core/${module}`), module);
    assert.ok(readme.includes(`\`${module}\``), `the README does not name electron/core/${module}`);
  }
});

test('the renderer makes its number and date formatters once (docs/app.md): no toLocaleString call', async () => {
  const { readdirSync } = await import('node:fs');
  const files = (readdirSync(`${ROOT}renderer/src`, { recursive: true }) as string[]).filter(
    (f) => /\.tsx?$/.test(f) && !f.includes('.test.'),
  );
  const calls = files.filter((f) => /\.toLocale(String|DateString|TimeString)\(/.test(read(`renderer/src/${f}`)));
  assert.deepEqual(calls, [], 'each builds an Intl formatter per call in Chromium: use formatNumber, formatCount or formatDate');
});
