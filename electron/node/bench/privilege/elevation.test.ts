// Which helper pkexec runs, and what a user is told to install when it cannot: pkexec missing,
// the policy missing (a source checkout), the installed policy, an AppImage's generic fallback.
// Also `diskdelta helper install` into a scratch root, and the .deb's after-install script.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BenchError } from '../errors.ts';
import { INSTALL_COMMAND, POLICY_FILE, deviceAccessArgs, installedHelper, locateHelper, needsElevation } from './elevation.ts';
import { INSTALLED_HELPER, installHelper, policyText, uninstallHelper } from './helper-install.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
let dir = '';
const saved = { PATH: process.env.PATH, DISKDELTA_HELPER: process.env.DISKDELTA_HELPER, APPIMAGE: process.env.APPIMAGE };

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'diskdelta-elevation-test-'));
  delete process.env.DISKDELTA_HELPER;
  delete process.env.APPIMAGE;
  // A PATH holding a stand-in pkexec, so these tests do not depend on the machine's.
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'pkexec'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'bin', 'pkexec'), 0o755);
  process.env.PATH = join(dir, 'bin');
});

after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

const rejectsWith = (code: string, says: RegExp) => (e: unknown) => e instanceof BenchError && e.code === code && says.test(e.message);

test('pkexec missing: pkexec-missing, naming the package to install', async () => {
  process.env.PATH = join(dir, 'nowhere');
  try {
    await assert.rejects(
      locateHelper({ policyFile: join(dir, 'none.policy') }),
      rejectsWith('pkexec-missing', /sudo apt-get install pkexec/),
    );
  } finally {
    process.env.PATH = join(dir, 'bin');
  }
});

test('a source checkout without the policy: elevate-policy-missing, naming the install command', async () => {
  await assert.rejects(
    locateHelper({ policyFile: join(dir, 'none.policy') }),
    rejectsWith('elevate-policy-missing', new RegExp(INSTALL_COMMAND)),
  );
});

test("installed: the helper the policy names, under DiskDelta's own action", async () => {
  const helper = join(dir, 'diskdelta-helper');
  writeFileSync(helper, '');
  const policy = join(dir, 'installed.policy');
  writeFileSync(policy, await policyText(helper));
  assert.equal(await installedHelper(policy), helper);
  const choice = await locateHelper({ policyFile: policy });
  assert.deepEqual(choice, { path: helper, action: 'policy', warnings: [] });
  // A policy naming a helper that is gone counts as not installed.
  rmSync(helper);
  await assert.rejects(locateHelper({ policyFile: policy }), rejectsWith('elevate-policy-missing', /not installed/));
});

test("in an AppImage: a private copy of the bundled helper under pkexec's generic action, and it says so", async () => {
  const bundled = join(dir, 'bundled-helper');
  writeFileSync(bundled, '#!/bin/sh\n');
  const choice = await locateHelper({ policyFile: join(dir, 'none.policy'), appImage: '/tmp/DiskDelta.AppImage', bundledHelper: bundled });
  assert.equal(choice.action, 'generic');
  assert.notEqual(choice.path, bundled);
  assert.equal(readFileSync(choice.path, 'utf8'), '#!/bin/sh\n');
  assert.equal(statSync(choice.path).mode & 0o777, 0o500);
  assert.equal(choice.warnings[0]?.code, 'elevate-generic-action');
  assert.match(choice.warnings[0]!.message, /pkexec's generic one/);
  rmSync(join(choice.path, '..'), { recursive: true, force: true });
});

test('needsElevation: only a block device this user cannot read, never as root', async () => {
  assert.equal(await needsElevation(dir), false, 'a folder never');
  const isRoot = process.getuid?.() === 0;
  // As root every device is readable; the unprivileged case runs in e2e/polkit-lab.test.ts.
  if (isRoot) assert.equal(await needsElevation('/dev/null'), false);
});

test('the worker gets --helper or --fd-from only when the device needs it', () => {
  assert.deepEqual(deviceAccessArgs({}), []);
  assert.deepEqual(deviceAccessArgs({ helper: '/usr/local/libexec/diskdelta/diskdelta-helper' }), [
    '--helper',
    '/usr/local/libexec/diskdelta/diskdelta-helper',
  ]);
  // A session holder's descriptor wins: no second authentication.
  assert.deepEqual(deviceAccessArgs({ helper: '/h', fdFrom: '/run/user/1000/diskdelta-hold-x/fd.sock' }), [
    '--fd-from',
    '/run/user/1000/diskdelta-hold-x/fd.sock',
  ]);
});

test('helper install/uninstall into a scratch root: a root-owned copy and a policy naming it, one action per verb', async () => {
  const root = join(dir, 'root');
  const built = join(dir, 'built-helper');
  writeFileSync(built, 'binary');
  const { helper, policy } = await installHelper({ root, builtHelper: built });
  assert.equal(helper, join(root, INSTALLED_HELPER));
  assert.equal(policy, join(root, POLICY_FILE));
  assert.equal(statSync(helper).mode & 0o777, 0o755);
  const xml = readFileSync(policy, 'utf8');
  assert.ok(!xml.includes('@HELPER@'));
  const verbs = [...xml.matchAll(/exec\.argv1">([^<]+)</g)].map((m) => m[1]);
  // One action per verb of the helper's own table (its --help), so a new verb cannot ship
  // without the action pkexec needs to run it.
  const help = spawnSync(join(ROOT, 'native', 'build', 'diskdelta-helper'), ['--help'], { encoding: 'utf8' }).stdout;
  const helperVerbs = [...help.matchAll(/^ {2}([a-z][a-z-]*)(?: |$)/gm)].map((m) => m[1]);
  assert.ok(helperVerbs.includes('open-ro') && helperVerbs.includes('crypt-setup'), `the helper's verbs: ${helperVerbs.join(', ')}`);
  assert.deepEqual(verbs, helperVerbs);
  assert.equal(
    [...xml.matchAll(/exec\.path">([^<]+)</g)].every((m) => m[1] === INSTALLED_HELPER),
    true,
  );
  assert.equal((xml.match(/<allow_active>auth_admin_keep<\/allow_active>/g) ?? []).length, verbs.length, 'each action auth_admin_keep');
  assert.match(xml, /read a disk directly .* \$\(command_line\)/, 'the message names the device (pkexec fills in the command line)');
  assert.deepEqual(await uninstallHelper({ root }), [policy, helper]);
  assert.deepEqual(await uninstallHelper({ root }), []);
  await assert.rejects(installHelper({ root, builtHelper: join(dir, 'missing') }), /run `npm install` first/);
});

test("the .deb's after-install writes the policy naming the packaged helper; after-remove removes it", () => {
  // electron-builder fills in its ${…} macros; here they are filled the way it would.
  const fill = (file: string) =>
    readFileSync(join(ROOT, 'assets', 'deb', file), 'utf8')
      .replaceAll('${sanitizedProductName}', 'DiskDelta')
      .replaceAll('${executable}', 'diskdelta-app');
  const resources = join(dir, 'opt', 'DiskDelta', 'resources');
  mkdirSync(join(resources, 'polkit'), { recursive: true });
  writeFileSync(join(resources, 'diskdelta-helper'), 'binary');
  writeFileSync(
    join(resources, 'polkit', 'org.diskdelta.helper.policy.in'),
    readFileSync(join(ROOT, 'assets', 'polkit', 'org.diskdelta.helper.policy.in')),
  );
  const actions = join(dir, 'actions');
  // dpkg's DPKG_ROOT: an install into the scratch root `dir` (the scripts prefix every path).
  const env = { PATH: '/usr/bin:/bin', DPKG_ROOT: dir, DISKDELTA_POLKIT_ACTIONS: actions };
  const install = spawnSync('sh', ['-c', fill('after-install.sh')], { env, encoding: 'utf8' });
  assert.equal(install.status, 0, install.stderr);
  const xml = readFileSync(join(actions, 'org.diskdelta.helper.policy'), 'utf8');
  // Every action of the template names the packaged helper (one action per verb).
  const actionsInTemplate = (
    readFileSync(join(ROOT, 'assets', 'polkit', 'org.diskdelta.helper.policy.in'), 'utf8').match(/<action id=/g) ?? []
  ).length;
  assert.ok(actionsInTemplate >= 4, `the template's actions: ${actionsInTemplate}`);
  assert.equal((xml.match(new RegExp(`exec\\.path">/opt/DiskDelta/resources/diskdelta-helper<`, 'g')) ?? []).length, actionsInTemplate);
  const remove = spawnSync('sh', ['-c', fill('after-remove.sh')], { env, encoding: 'utf8' });
  assert.equal(remove.status, 0, remove.stderr);
  assert.throws(() => statSync(join(actions, 'org.diskdelta.helper.policy')));
  // And electron-builder.yml ships what the script reads, and runs the scripts.
  const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
  for (const needle of [
    'from: native/build/diskdelta-helper',
    'from: assets/polkit',
    'afterInstall: assets/deb/after-install.sh',
    'afterRemove: assets/deb/after-remove.sh',
  ]) {
    assert.ok(yml.includes(needle), `electron-builder.yml: ${needle}`);
  }
});
