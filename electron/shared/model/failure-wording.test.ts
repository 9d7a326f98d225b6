// Failure texts fit where they are shown: the app's wording of every action names no CLI flag,
// no measurement's message (the worker's error lines, core's BenchErrors, both shown by the app
// as they are) names one either, and a missing kernel feature is never called a fault.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { FAILURE_ACTIONS, FAILURES, actionOf, FAILURE_CODES } from './failures.ts';
import { RUN_SETTINGS } from './run-settings.ts';

const FLAG = /(^|[\s(`'"])--[a-z][\w-]*/;
const root = new URL('../../../', import.meta.url);

it("the app's wording of every action names no CLI flag; the CLI's may", () => {
  for (const code of FAILURE_CODES) assert.doesNotMatch(actionOf(code, 'app').text, FLAG, `${code}: ${actionOf(code, 'app').text}`);
  assert.match(actionOf('no-space', 'cli').text, /--size/);
  assert.match(actionOf('no-direct-io', 'cli').text, /--buffered/);
  assert.ok(Object.keys(FAILURE_ACTIONS).length >= 10);
});

it('a missing kernel feature or program is not "a fault in DiskDelta": it points to the ceilings and the forecast', () => {
  for (const code of ['no-cipher-backend', 'dm-crypt-unavailable'] as const) {
    assert.equal(FAILURES[code].action, 'missing-feature', code);
    assert.doesNotMatch(actionOf(code, 'app').text, /fault/);
    assert.match(actionOf(code, 'app').text, /Cipher ceilings on the Overview page.*forecast/);
  }
});

/** The string literals of each `emit_failure(FAIL_X, "…" "…"` call in the worker's sources. */
function workerMessages(): { code: string; text: string }[] {
  const dir = new URL('native/src/', root);
  const out: { code: string; text: string }[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.c'))) {
    const source = readFileSync(new URL(name, dir), 'utf8');
    for (const m of source.matchAll(/emit_failure\(\s*(FAIL_[A-Z_]+)\s*,((?:\s*"(?:[^"\\]|\\.)*")+)/g))
      out.push({ code: m[1]!, text: [...m[2]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => s[1]).join('') });
  }
  return out;
}

it("no worker failure message names a CLI flag (usage errors excepted: they are about the worker's own argv)", () => {
  const messages = workerMessages();
  assert.ok(messages.length >= 30, `read ${messages.length} messages`);
  const offending = messages.filter((m) => m.code !== 'FAIL_USAGE' && FLAG.test(m.text));
  assert.deepEqual(offending, []);
  assert.ok(
    messages.some((m) => m.code === 'FAIL_NO_SPACE' && /needs %s/.test(m.text)),
    'sizes go through shown_bytes',
  );
});

it('no BenchError message of shared/ or node/ outside usage names a CLI flag', () => {
  // The fixtures hold sysfs trees with symlink loops: the sources are what git tracks.
  const listed = spawnSync('git', ['ls-files', 'electron/node/*.ts', 'electron/shared/*.ts'], { cwd: root, encoding: 'utf8' }).stdout;
  const files = listed
    .split('\n')
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes('/fixtures/'))
    .map((name) => new URL(name, root));
  assert.ok(files.length > 50, `read ${files.length} files`);
  const offending: string[] = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/new BenchError\(\s*'([\w-]+)',([\s\S]{0,600}?)\)\s*;/g)) {
      // 'usage' names the setting; discard-cost's --remount and the job file are CLI-only ways.
      if (m[1] === 'usage' || /--remount|--job/.test(m[2]!)) continue;
      if (FLAG.test(m[2]!)) offending.push(`${file.pathname.split('/electron/')[1]}: ${m[1]}: ${m[2]!.trim().slice(0, 120)}`);
    }
  }
  assert.deepEqual(offending, []);
});

it("no warning or refusal a measurement stores names one of `run`'s flags: the app shows them as they are", () => {
  // The app's Compare said "raise --duration or --runs" under a run the app itself had made.
  const flags = new Set([...RUN_SETTINGS.map((s) => s.flag), 'db', 'mode', 'tarball', 'runs', 'duration', 'max-time']);
  const listed = spawnSync(
    'git',
    ['ls-files', 'electron/node/bench/*.ts', 'electron/node/crypto/*.ts', 'electron/shared/analysis/*.ts', 'electron/node/system/*.ts'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  ).stdout;
  const files = listed.split('\n').filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes('/fixtures/'));
  assert.ok(files.length > 40, `read ${files.length} files`);
  const offending: string[] = [];
  for (const name of files) {
    // Comments say flags freely; code has no " --name" outside a text (an argv element is
    // '--name', a quote before it). Read line by line, so a template literal with literals
    // nested in its ${…} (encryption-run's left-out writes) is read whole too.
    const source = readFileSync(new URL(name, root), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const line of source.split('\n')) {
      // The sustained write's cost wording has a CLI and an app form (sustainedCostText); the
      // cold-cache warning names `diskdelta run --elevate` beside what the app does by itself.
      if (/give the TBW .* with --rated-endurance|the app asks by itself/.test(line)) continue;
      for (const f of line.matchAll(/\s--([a-z][\w-]*)/g))
        if (flags.has(f[1]!)) offending.push(`${name}: --${f[1]}: ${line.trim().slice(0, 100)}`);
    }
  }
  assert.deepEqual(offending, []);
});
