// The Linux packages without building them (electron-builder needs the Electron zip, which
// cannot be downloaded here): the .deb's scripts run against a scratch root (dpkg's DPKG_ROOT)
// with stand-in AppArmor tools, and the packaging metadata electron-builder's deb target
// refuses to build without, or builds wrong without.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXECUTABLE = 'diskdelta-app';

/**
 * A deb script as electron-builder 26 writes it (FpmTarget's writeConfigFile): every `${name}`
 * macro filled, an unknown one an error, as it is when packing.
 */
function fill(file: string): string {
  const macros: Record<string, string> = { executable: EXECUTABLE, sanitizedProductName: 'DiskDelta', productFilename: 'DiskDelta' };
  return readFileSync(join(ROOT, 'assets', 'deb', file), 'utf8').replace(/\${([a-zA-Z]+)}/g, (_m, name: string) => {
    if (!(name in macros)) throw new Error(`Macro ${name} is not defined`);
    return macros[name]!;
  });
}

interface Machine {
  /** AppArmor running (apparmor_status --enabled). */
  apparmor: boolean;
  /** This AppArmor accepts the profile (abi/4.0). */
  acceptsProfile: boolean;
  /** kernel.apparmor_restrict_unprivileged_userns, or absent. */
  restrictUserns?: '0' | '1';
}

/** A scratch root with the package's files, stand-in AppArmor tools and /proc switches. */
function scratchRoot(machine: Machine) {
  const dir = mkdtempSync(join(tmpdir(), 'dd-deb-'));
  const root = join(dir, 'root');
  const resources = join(root, 'opt', 'DiskDelta', 'resources');
  mkdirSync(join(resources, 'polkit'), { recursive: true });
  writeFileSync(join(resources, 'diskdelta-helper'), 'binary');
  writeFileSync(
    join(resources, 'apparmor-profile'),
    'abi <abi/4.0>,\nprofile "diskdelta-app" "/opt/DiskDelta/diskdelta-app" flags=(unconfined) { userns, }\n',
  );
  writeFileSync(join(root, 'opt', 'DiskDelta', 'chrome-sandbox'), 'binary');
  writeFileSync(
    join(resources, 'polkit', 'org.diskdelta.helper.policy.in'),
    readFileSync(join(ROOT, 'assets', 'polkit', 'org.diskdelta.helper.policy.in')),
  );
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const calls = join(dir, 'calls.log');
  const tool = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  tool('apparmor_status', machine.apparmor ? 'exit 0' : 'exit 1');
  tool('apparmor_parser', `case "$*" in *--skip-kernel-load*) exit ${machine.acceptsProfile ? 0 : 1};; esac; exit 0`);
  const proc = join(dir, 'proc');
  mkdirSync(join(proc, 'self', 'ns'), { recursive: true });
  mkdirSync(join(proc, 'sys', 'kernel'), { recursive: true });
  symlinkSync('user:[4026531837]', join(proc, 'self', 'ns', 'user'));
  if (machine.restrictUserns)
    writeFileSync(join(proc, 'sys', 'kernel', 'apparmor_restrict_unprivileged_userns'), `${machine.restrictUserns}\n`);
  const env = { PATH: `${bin}:/usr/bin:/bin`, DPKG_ROOT: root, DISKDELTA_PROC: proc };
  const run = (file: string) => spawnSync('sh', ['-c', fill(file)], { env, encoding: 'utf8' });
  const called = () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : []);
  return {
    dir,
    root,
    run,
    called,
    profile: join(root, 'etc', 'apparmor.d', EXECUTABLE),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const mode = (path: string) => statSync(path).mode & 0o7777;

test('after-install with AppArmor that accepts the profile: installs it (checked first, never loaded into this kernel for another root); after-remove removes it', (t) => {
  const m = scratchRoot({ apparmor: true, acceptsProfile: true });
  t.after(m.cleanup);
  const install = m.run('after-install.sh');
  assert.equal(install.status, 0, install.stderr);
  assert.equal(readFileSync(m.profile, 'utf8'), readFileSync(join(m.root, 'opt', 'DiskDelta', 'resources', 'apparmor-profile'), 'utf8'));
  assert.deepEqual(m.called(), [
    'apparmor_status --enabled',
    `apparmor_parser --skip-kernel-load --debug ${m.root}/opt/DiskDelta/resources/apparmor-profile`,
  ]);
  assert.equal(
    readFileSync(join(m.root, 'usr', 'share', 'polkit-1', 'actions', 'org.diskdelta.helper.policy'), 'utf8').includes(
      '/opt/DiskDelta/resources/diskdelta-helper',
    ),
    true,
  );
  assert.equal(
    statSync(join(m.root, 'usr', 'bin', EXECUTABLE), { throwIfNoEntry: false }),
    undefined,
    'a link to /opt, dangling outside the root',
  );
  const remove = m.run('after-remove.sh');
  assert.equal(remove.status, 0, remove.stderr);
  assert.ok(!existsSync(m.profile), 'the profile goes with the package');
  assert.ok(!m.called().some((c) => c.includes('--remove')), 'nothing unloaded from this kernel for another root');
});

test('after-install where AppArmor is too old for the profile, or off: no profile, and the install still succeeds', (t) => {
  for (const machine of [
    { apparmor: true, acceptsProfile: false },
    { apparmor: false, acceptsProfile: true },
  ]) {
    const m = scratchRoot(machine);
    t.after(m.cleanup);
    const install = m.run('after-install.sh');
    assert.equal(install.status, 0, install.stderr);
    assert.ok(!existsSync(m.profile), JSON.stringify(machine));
    if (!machine.apparmor) assert.deepEqual(m.called(), ['apparmor_status --enabled'], 'the parser is not asked when AppArmor is off');
    else assert.match(install.stdout, /does not accept the app's profile/);
  }
});

test("chrome-sandbox: 4755 where user namespaces stay blocked (Ubuntu's restriction, no profile loaded), 0755 where they work", (t) => {
  const blocked = scratchRoot({ apparmor: true, acceptsProfile: true, restrictUserns: '1' });
  t.after(blocked.cleanup);
  assert.equal(blocked.run('after-install.sh').status, 0);
  assert.equal(mode(join(blocked.root, 'opt', 'DiskDelta', 'chrome-sandbox')), 0o4755);
  const open = scratchRoot({ apparmor: false, acceptsProfile: false, restrictUserns: '0' });
  t.after(open.cleanup);
  assert.equal(open.run('after-install.sh').status, 0);
  assert.equal(mode(join(open.root, 'opt', 'DiskDelta', 'chrome-sandbox')), 0o755);
});

/** The keys of electron-builder.yml that the checks read (a flat YAML reading: no parser is shipped). */
function ymlList(yml: string, section: string, key: string): string[] {
  const block = new RegExp(`^${section}:\\n((?:[ ]+.*\\n?)*)`, 'm').exec(yml)?.[1] ?? '';
  const list = new RegExp(`^  ${key}:\\n((?: {4}(?:- |#).*\\n?)*)`, 'm').exec(block)?.[1] ?? '';
  return [...list.matchAll(/^ {4}- (.*)$/gm)].map((m) => m[1]!.trim().replace(/^'(.*)'$/, '$1'));
}
function ymlValue(yml: string, section: string, key: string): string | null {
  const block = new RegExp(`^${section}:\\n((?:[ ]+.*\\n?)*)`, 'm').exec(yml)?.[1] ?? '';
  return (
    new RegExp(`^  ${key}: (.+)$`, 'm')
      .exec(block)?.[1]
      ?.trim()
      .replace(/^'(.*)'$/, '$1') ?? null
  );
}

/** electron-builder 26's own deb dependencies (FpmTarget.getDefaultDepends), which a `depends` list replaces. */
const ELECTRON_BUILDER_DEB_DEFAULTS = [
  'libgtk-3-0',
  'libnotify4',
  'libnss3',
  'libxss1',
  'libxtst6',
  'xdg-utils',
  'libatspi2.0-0',
  'libuuid1',
  'libsecret-1-0',
];

test('electron-builder.yml + package.json: what the deb target needs to build and to run', () => {
  const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & {
    author?: { email?: string };
    homepage?: string;
    devDependencies: Record<string, string>;
    dependencies: Record<string, string>;
  };
  // The deb target throws without a maintainer (deb.maintainer or author.email) and a homepage.
  const maintainer = ymlValue(yml, 'deb', 'maintainer') ?? (pkg.author?.email ? 'author' : null);
  assert.ok(maintainer && /<[^@\s]+@[^>\s]+>|author/.test(maintainer), `a maintainer with an email: ${String(maintainer)}`);
  assert.match(pkg.homepage ?? '', /^https:\/\//, 'package.json homepage');
  const depends = ymlList(yml, 'deb', 'depends');
  for (const name of ELECTRON_BUILDER_DEB_DEFAULTS)
    assert.ok(depends.includes(name), `deb.depends keeps electron-builder's default ${name}`);
  assert.ok(depends.includes('libgbm1'), "Electron's GPU process needs libgbm1");
  // The worker and the helper need the newest glibc symbol version they were linked against.
  const needed = Math.max(
    ...['diskdelta-worker', 'diskdelta-helper'].flatMap((b) =>
      [
        ...readFileSync(join(ROOT, 'native', 'build', b))
          .toString('latin1')
          .matchAll(/GLIBC_2\.(\d+)/g),
      ].map((m) => Number(m[1])),
    ),
  );
  assert.ok(needed >= 34, `the built programs need glibc 2.${needed}`);
  const libc = /^libc6 \(>= 2\.(\d+)\)$/.exec(depends.find((d) => d.startsWith('libc6')) ?? '');
  assert.ok(libc && Number(libc[1]) >= needed, `deb.depends declares libc6 (>= 2.${needed}): ${String(libc?.[0])}`);
  // Pinned, so `npm run dist` runs the electron-builder this was written against.
  assert.match(pkg.devDependencies['electron-builder'] ?? '', /^26\.\d+\.\d+$/);
  assert.equal(ymlValue(yml, 'linux', 'executableName'), EXECUTABLE);
  assert.equal(typeof pkg.desktopName, 'string', 'desktopName: the window is matched to its desktop entry');
  assert.ok(existsSync(join(ROOT, 'assets', 'icons')), 'assets/icons: the desktop entry and the window have an icon');
});
