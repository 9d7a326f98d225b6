// The test manifest is complete and honest: every test file is classified, a file that shows
// the signs of a lab declares that need (so it cannot land in the fast loop by being listed
// with none), and the runner's selection follows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isLab, manifestGaps, selectTests, TEST_FILES, TEST_PATTERNS, type Need } from './test-manifest.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const found = TEST_PATTERNS.flatMap((p) => globSync(p, { cwd: ROOT, exclude: (f) => f.includes('node_modules') })).sort();

test('every test file on disk is in the manifest, and every file it lists exists', () => {
  assert.ok(found.length > 50, `the patterns found only ${found.length} files`);
  const { unlisted, missing } = manifestGaps(found);
  assert.deepEqual(unlisted, [], `add these to TEST_FILES in scripts/test-manifest.ts, with what they need: ${unlisted.join(', ')}`);
  assert.deepEqual(missing, [], `TEST_FILES lists files that are gone: ${missing.join(', ')}`);
});

test('manifestGaps names a new file nobody classified', () => {
  const gaps = manifestGaps([...found, 'e2e/new-lab.test.ts']);
  assert.deepEqual(gaps.unlisted, ['e2e/new-lab.test.ts']);
});

/** What in a file's code (comments removed) shows it needs something. */
const SIGNS: Array<[Need, RegExp]> = [
  ['qemu', /qemu-system|from '\.\/dm-crypt-lab\.ts'/],
  ['blkio', /blkio\.throttle|throttled-lab\.ts'/],
  ['polkit', /polkitd/],
  // Code that starts a browser, not a sentence that names one.
  ['chromium', /findChromium|chromium-printer|\/usr\/bin\/chromium|playwright/],
  ['ext4', /mkfs|scratch-ext4\.ts'/],
  ['loop', /'losetup'/],
  ['strace', /'strace'/],
];

const code = (file: string) =>
  readFileSync(`${ROOT}/${file}`, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

test('a file that shows the signs of a lab (QEMU, the throttle, polkitd, Chromium, mkfs, losetup) declares that need', () => {
  const signsOf = (file: string) => SIGNS.filter(([, sign]) => sign.test(code(file))).map(([need]) => need);
  // The signs do see the labs (so an empty list below means something).
  assert.ok(signsOf('e2e/dm-crypt-lab.test.ts').includes('qemu'));
  assert.ok(signsOf('e2e/device-lab.test.ts').includes('blkio'));
  assert.ok(signsOf('e2e/polkit-lab.test.ts').includes('polkit'));
  assert.ok(signsOf('electron/cli/commands/report.test.ts').includes('chromium'));
  assert.ok(signsOf('electron/node/bench/trim/trim-audit.test.ts').includes('ext4'));
  // This file names the signs themselves.
  const undeclared = found
    .filter((file) => file !== 'scripts/test-manifest.test.ts')
    .flatMap((file) =>
      SIGNS.filter(([need, sign]) => sign.test(code(file)) && !(TEST_FILES[file] ?? []).includes(need)).map(([need]) => `${file}: ${need}`),
    );
  assert.deepEqual(undeclared, []);
});

test('the fast selection has no lab and keeps the worker’s own tests; the full one is every file', () => {
  const fast = selectTests({ fast: true, only: [], skip: [], without: [] });
  const all = selectTests({ fast: false, only: [], skip: [], without: [] });
  assert.deepEqual(all, Object.keys(TEST_FILES).sort());
  assert.deepEqual(
    fast.filter((f) => isLab(f)),
    [],
  );
  for (const lab of ['e2e/dm-crypt-lab.test.ts', 'e2e/device-lab.test.ts', 'e2e/polkit-lab.test.ts', 'e2e/workload-lab.test.ts']) {
    assert.ok(all.includes(lab) && !fast.includes(lab), lab);
  }
  for (const own of ['native/test/worker.test.ts', 'native/test/workload.test.ts', 'native/test/argv-fuzz.test.ts'])
    assert.ok(fast.includes(own), own);
});

test('--only and --skip take ids (paths without .test.ts); --without a need; an unknown one is an error naming it', () => {
  assert.deepEqual(selectTests({ fast: false, only: ['native/test/worker', 'e2e/device-lab'], skip: [], without: [] }), [
    'e2e/device-lab.test.ts',
    'native/test/worker.test.ts',
  ]);
  assert.ok(!selectTests({ fast: true, only: [], skip: ['native/test/worker'], without: [] }).includes('native/test/worker.test.ts'));
  const withoutLoop = selectTests({ fast: false, only: [], skip: [], without: ['loop'] });
  assert.ok(!withoutLoop.includes('native/test/helper.test.ts') && withoutLoop.includes('electron/node/store/unsaved.test.ts'));
  assert.throws(
    () => selectTests({ fast: false, only: ['native/test/wroker'], skip: [], without: [] }),
    /no test file has the id 'native\/test\/wroker'/,
  );
  assert.throws(() => selectTests({ fast: false, only: [], skip: [], without: ['gpu' as Need] }), /--without 'gpu' is not a requirement/);
});

test('the runner: --list shows every id with fast or lab; a bad id exits 2 before running anything', () => {
  const list = spawnSync(process.execPath, ['scripts/run-tests.ts', '--list'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  assert.match(list.stdout, /^e2e\/dm-crypt-lab\s+lab\s+root, qemu/m);
  assert.match(list.stdout, /^native\/test\/worker\s+fast\s+root, loop/m);
  const bad = spawnSync(process.execPath, ['scripts/run-tests.ts', '--only', 'nope'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^run-tests: no test file has the id 'nope'/);
});

test('npm test is still the whole suite and what .ci/run runs; test:fast is the same runner with --fast', () => {
  const scripts = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
  assert.equal(scripts.test, 'node scripts/run-tests.ts');
  assert.equal(scripts['test:fast'], 'node scripts/run-tests.ts --fast');
  const ci = readFileSync(`${ROOT}/.ci/run`, 'utf8');
  assert.deepEqual(
    ci.split('\n').filter((line) => /\bnpm\b/.test(line) && !line.trimStart().startsWith('#')),
    ['npm install --no-audit --no-fund && npm test'],
  );
});
