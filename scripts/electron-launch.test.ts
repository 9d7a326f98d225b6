// How `npm start` opens the app, judged with stand-in probes (a machine whose user namespaces
// are blocked, as Ubuntu 24.04+'s are; one without Electron). The real npm start's Chromium
// app-mode window is electron-path.test.ts's (one file, so two npm starts never build at once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideLaunch, probeSandboxHelper, probeUserNamespaces, type LaunchProbes } from './electron-launch.ts';

const APP = '/home/u/diskdelta';
const ELECTRON = '/home/u/diskdelta/node_modules/electron/dist/electron';
const BLOCKED = { usable: false, why: "kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 24.04+'s AppArmor restriction" } as const;

function probes(overrides: Partial<LaunchProbes>): LaunchProbes {
  return {
    electron: ELECTRON,
    isRoot: false,
    userNamespaces: { usable: true },
    sandboxHelper: { path: `${ELECTRON.replace(/electron$/, '')}chrome-sandbox`, setuidRoot: false },
    chromium: '/opt/stand-in/chromium',
    display: true,
    ...overrides,
  };
}

test('user namespaces blocked and chrome-sandbox not root-owned 4755: --no-sandbox, said with the reason and the fix', () => {
  const launch = decideLaunch(probes({ userNamespaces: BLOCKED }), APP);
  assert.equal(launch.kind, 'electron');
  assert.deepEqual(launch.kind === 'electron' && launch.args, ['--no-sandbox', APP]);
  const said = launch.notes.join('\n');
  assert.match(said, /blocks the user namespaces Chromium's sandbox needs \(kernel\.apparmor_restrict_unprivileged_userns=1/);
  assert.match(said, /chrome-sandbox is not root-owned 4755/);
  assert.match(said, /sudo chown root:root '.*chrome-sandbox' && sudo chmod 4755 '.*chrome-sandbox'/);
  assert.match(said, /uses --no-sandbox/);
});

test('the sandbox is kept where it can run: user namespaces usable, or a setuid-root chrome-sandbox', () => {
  for (const p of [probes({}), probes({ userNamespaces: BLOCKED, sandboxHelper: { path: '/x/chrome-sandbox', setuidRoot: true } })]) {
    const launch = decideLaunch(p, APP);
    assert.deepEqual(launch.kind === 'electron' && launch.args, [APP]);
    assert.deepEqual(launch.notes, []);
  }
  const asRoot = decideLaunch(probes({ isRoot: true }), APP);
  assert.deepEqual(asRoot.kind === 'electron' && asRoot.args, ['--no-sandbox', APP]);
  assert.match(asRoot.notes.join(), /running as root/);
});

test('Electron is given the app folder (package.json names the bundle), so the app is DiskDelta, not "Electron"', () => {
  const launch = decideLaunch(probes({}), APP);
  assert.deepEqual(launch.kind === 'electron' && launch.args, [APP]);
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { main: string; productName: string };
  assert.equal(pkg.main, 'dist/electron/main.cjs');
  assert.equal(pkg.productName, 'DiskDelta');
});

test('no Electron binary: Chromium app mode where a Chromium and a display are; otherwise why not, and browser mode', () => {
  const app = decideLaunch(probes({ electron: null }), APP);
  assert.equal(app.kind, 'chromium-app');
  assert.equal(app.kind === 'chromium-app' && app.executable, '/opt/stand-in/chromium');
  assert.match(app.notes.join(), /Chromium's app mode/);
  assert.ok(app.kind === 'chromium-app' && app.args.includes('--window-size=1280,800'), 'the size of the Electron window');
  const blocked = decideLaunch(probes({ electron: null, userNamespaces: BLOCKED }), APP);
  assert.ok(blocked.kind === 'chromium-app' && blocked.args.includes('--no-sandbox'));
  // As root: the reason in the terminal, and no "unsupported command-line flag" bar in the window
  // (--test-type keeps it out: seen on Xvfb, the bar is there without it).
  const asRoot = decideLaunch(probes({ electron: null, isRoot: true }), APP);
  assert.ok(asRoot.kind === 'chromium-app' && asRoot.args.includes('--no-sandbox') && asRoot.args.includes('--test-type'));
  assert.match(
    asRoot.notes.join('\n'),
    /running as root: Chromium's sandbox does not run as root\. Chromium starts with --no-sandbox \(said here, not in a yellow bar/,
  );
  assert.ok(
    app.kind === 'chromium-app' && !app.args.includes('--test-type') && !app.args.includes('--no-sandbox'),
    'a sandboxed window needs neither',
  );

  const noDisplay = decideLaunch(probes({ electron: null, display: false }), APP);
  assert.equal(noDisplay.kind, 'none');
  assert.match(noDisplay.notes.join(), /no display here .* npx diskdelta serve --open/);
  const noChromium = decideLaunch(probes({ electron: null, chromium: null }), APP);
  assert.equal(noChromium.kind, 'none');
  assert.match(noChromium.notes.join(), /no Chromium either \(looked for chromium, chromium-browser.*apt install chromium/);
});

test('the user-namespace probe: the kernel switches, then a real mapping attempt (a bare unshare --user passes under AppArmor)', () => {
  const proc = mkdtempSync(join(tmpdir(), 'dd-proc-'));
  try {
    const ok = () => ({ status: 0, stderr: '' });
    const calls: string[][] = [];
    const recording = (command: string, args: string[]) => (calls.push([command, ...args]), ok());
    assert.deepEqual(probeUserNamespaces({ procRoot: proc, run: recording }), { usable: true });
    assert.deepEqual(calls, [['unshare', '--user', '--map-root-user', 'true']]);

    const denied = () => ({ status: 1, stderr: 'unshare: write failed /proc/self/uid_map: Operation not permitted\n' });
    assert.deepEqual(probeUserNamespaces({ procRoot: proc, run: denied }), {
      usable: false,
      why: 'unshare --user --map-root-user failed: unshare: write failed /proc/self/uid_map: Operation not permitted',
    });

    mkdirSync(join(proc, 'sys', 'kernel'), { recursive: true });
    writeFileSync(join(proc, 'sys', 'kernel', 'apparmor_restrict_unprivileged_userns'), '1\n');
    const blocked = probeUserNamespaces({ procRoot: proc, run: ok });
    assert.equal(blocked.usable, false);
    assert.match(!blocked.usable ? blocked.why : '', /apparmor_restrict_unprivileged_userns=1/);
    writeFileSync(join(proc, 'sys', 'kernel', 'apparmor_restrict_unprivileged_userns'), '0\n');
    writeFileSync(join(proc, 'sys', 'kernel', 'unprivileged_userns_clone'), '0\n');
    assert.deepEqual(probeUserNamespaces({ procRoot: proc, run: ok }), { usable: false, why: 'kernel.unprivileged_userns_clone=0' });
  } finally {
    rmSync(proc, { recursive: true, force: true });
  }
});

test('chrome-sandbox counts only when root-owned with the setuid bit', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-sandbox-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const helper = join(dir, 'chrome-sandbox');
  writeFileSync(helper, '');
  chmodSync(helper, 0o755);
  assert.deepEqual(probeSandboxHelper(join(dir, 'electron')), { path: helper, setuidRoot: false });
  assert.equal(probeSandboxHelper(join(dir, 'missing', 'electron')), null);
  if (process.getuid?.() !== 0) return t.skip('not root: cannot make a root-owned setuid file to check the other side');
  chownSync(helper, 0, 0);
  chmodSync(helper, 0o4755);
  assert.deepEqual(probeSandboxHelper(join(dir, 'electron')), { path: helper, setuidRoot: true });
  chownSync(helper, 65534, 65534);
  chmodSync(helper, 0o4755);
  assert.equal(probeSandboxHelper(join(dir, 'electron'))?.setuidRoot, false);
});
