// How `npm start` opens the app, decided from what this machine offers (probes), so the
// decision can be tested with stand-in probes where the machine itself offers nothing to judge:
//  - Electron, with its sandbox where Chromium can start one. Ubuntu 24.04+ blocks unprivileged
//    user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) unless an AppArmor profile
//    allows them, and a checkout's chrome-sandbox is not root-owned 4755, so Electron would abort
//    with FATAL:setuid_sandbox_host.cc before any of our code runs (electron#41066, #42510).
//    There, and as root (Chromium's sandbox refuses root), this development launch passes
//    --no-sandbox and says so; the window stays context-isolated with no Node.
//  - Without the Electron binary: the same app in Chromium's app mode (--app= on the
//    browser-mode server), when a Chromium and a display are there.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export type UserNamespaces = { usable: true } | { usable: false; why: string };

export interface LaunchProbes {
  /** The Electron executable, or null where it is not installed. */
  electron: string | null;
  isRoot: boolean;
  userNamespaces: UserNamespaces;
  /** Electron's setuid sandbox helper (chrome-sandbox next to the binary) and whether it can serve. */
  sandboxHelper: { path: string; setuidRoot: boolean } | null;
  /** A Chromium on PATH, for the app-mode window. */
  chromium: string | null;
  display: boolean;
}

export type Launch =
  | { kind: 'electron'; executable: string; args: string[]; notes: string[] }
  | { kind: 'chromium-app'; executable: string; args: string[]; notes: string[] }
  | { kind: 'none'; notes: string[] };

/** The names a Chromium goes by on Linux distributions, most common first. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'] as const;

/** Chromium's own flags for a window that is an app: no first-run pages, no background work. */
const CHROMIUM_APP_FLAGS = [
  '--window-size=1280,800',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-sync',
];

/**
 * Why Chromium's sandbox cannot start, or null when it can. One rule for Electron and for the
 * app-mode Chromium: both are Chromium. A setuid helper only exists for Electron.
 */
function sandboxBlocked(probes: LaunchProbes, helper: LaunchProbes['sandboxHelper']): string | null {
  if (probes.isRoot) return "running as root: Chromium's sandbox does not run as root.";
  if (probes.userNamespaces.usable) return null;
  if (helper?.setuidRoot) return null;
  const fix = helper
    ? ` To keep the sandbox: sudo chown root:root '${helper.path}' && sudo chmod 4755 '${helper.path}' (or install the .deb, whose AppArmor profile allows user namespaces).`
    : '';
  return `this machine blocks the user namespaces Chromium's sandbox needs (${probes.userNamespaces.why})${
    helper ? ` and ${helper.path} is not root-owned 4755` : ''
  }, so the sandbox cannot start.${fix}`;
}

/** What `npm start` opens; `appDir` is the checkout (its package.json names the main bundle). */
export function decideLaunch(probes: LaunchProbes, appDir: string): Launch {
  if (probes.electron !== null) {
    const blocked = sandboxBlocked(probes, probes.sandboxHelper);
    // The app folder, not the bundle: Electron then reads package.json, so the app is named
    // DiskDelta (its user data, its single-instance lock, the version in reports) as packaged.
    const args = blocked ? ['--no-sandbox', appDir] : [appDir];
    const notes = blocked
      ? [`npm start: ${blocked} This development launch uses --no-sandbox; the window stays context-isolated, without Node.`]
      : [];
    return { kind: 'electron', executable: probes.electron, args, notes };
  }
  const browserMode = 'the same app in a browser: npx diskdelta serve --open';
  if (probes.chromium === null) {
    return {
      kind: 'none',
      notes: [
        `npm start: no Chromium either (looked for ${CHROMIUM_NAMES.join(', ')} on PATH) to open the app in; install one (apt install chromium) or use ${browserMode}.`,
      ],
    };
  }
  if (!probes.display) {
    return {
      kind: 'none',
      notes: [
        `npm start: no display here (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window can open; use ${browserMode} and open its URL elsewhere.`,
      ],
    };
  }
  const blocked = sandboxBlocked(probes, null);
  const notes = [`npm start: opening the same app in Chromium's app mode instead (${probes.chromium}); it closes when the window does.`];
  if (blocked)
    notes.push(
      `npm start: ${blocked} Chromium starts with --no-sandbox (said here, not in a yellow bar across the app: --test-type keeps Chromium's "unsupported command-line flag" bar out of the window).`,
    );
  // --no-sandbox alone puts Chromium's "You are using an unsupported command-line flag" bar over
  // the app; --test-type (what ChromeDriver and Playwright pass) keeps it out. The reason is said
  // in the terminal instead, where the person who started it reads it. Refusing to start as root
  // was the other way: root is the one user of many containers and VMs this is tried in.
  const sandboxFlags = blocked ? ['--no-sandbox', '--test-type'] : [];
  return { kind: 'chromium-app', executable: probes.chromium, args: [...CHROMIUM_APP_FLAGS, ...sandboxFlags], notes };
}

export interface ProbeEnvironment {
  procRoot: string;
  /** Runs a probe command; status null when it could not be run at all. */
  run(command: string, args: string[]): { status: number | null; stderr: string };
}

const REAL_ENVIRONMENT: ProbeEnvironment = {
  procRoot: '/proc',
  run(command, args) {
    const r = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
    return { status: r.error ? null : r.status, stderr: r.stderr ?? '' };
  },
};

function sysctl(procRoot: string, name: string): string | null {
  try {
    return readFileSync(join(procRoot, 'sys', ...name.split('.')), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Whether this user can make the user namespace Chromium's sandbox makes: one with its own
 * root mapped (a bare `unshare --user` passes even where AppArmor then denies the mapping).
 */
export function probeUserNamespaces(env: ProbeEnvironment = REAL_ENVIRONMENT): UserNamespaces {
  if (sysctl(env.procRoot, 'kernel.apparmor_restrict_unprivileged_userns') === '1')
    return { usable: false, why: "kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 24.04+'s AppArmor restriction" };
  if (sysctl(env.procRoot, 'kernel.unprivileged_userns_clone') === '0') return { usable: false, why: 'kernel.unprivileged_userns_clone=0' };
  if (sysctl(env.procRoot, 'user.max_user_namespaces') === '0') return { usable: false, why: 'user.max_user_namespaces=0' };
  const r = env.run('unshare', ['--user', '--map-root-user', 'true']);
  // No unshare to ask: the kernel's switches above said nothing against it, so Chromium may try.
  if (r.status === null || r.status === 0) return { usable: true };
  return { usable: false, why: `unshare --user --map-root-user failed: ${r.stderr.trim().split('\n')[0] || `exit status ${r.status}`}` };
}

/** chrome-sandbox next to the Electron binary, and whether it is root-owned with the setuid bit. */
export function probeSandboxHelper(electron: string): LaunchProbes['sandboxHelper'] {
  const path = join(dirname(electron), 'chrome-sandbox');
  try {
    const s = statSync(path);
    return { path, setuidRoot: s.uid === 0 && (s.mode & 0o4000) !== 0 && (s.mode & 0o111) !== 0 };
  } catch {
    return null;
  }
}

export function findOnPath(names: readonly string[], pathVariable = process.env.PATH ?? ''): string | null {
  for (const name of names) {
    for (const dir of pathVariable.split(delimiter).filter(Boolean)) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

export function probeLaunch(electron: string | null, env: NodeJS.ProcessEnv = process.env): LaunchProbes {
  return {
    electron,
    isRoot: process.getuid?.() === 0,
    userNamespaces: probeUserNamespaces(),
    sandboxHelper: electron ? probeSandboxHelper(electron) : null,
    chromium: findOnPath(CHROMIUM_NAMES, env.PATH),
    display: Boolean(env.DISPLAY || env.WAYLAND_DISPLAY),
  };
}
