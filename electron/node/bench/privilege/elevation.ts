// Reading a raw device without running DiskDelta as root: the worker has the privileged helper
// (native/src/helper.c) open it through pkexec and measures on the descriptor it passes back.
// This module decides whether that is needed and which helper pkexec may run: the installed
// one (with DiskDelta's own polkit action), or in an AppImage, where no policy can be
// installed, a private copy under pkexec's generic action.
import { constants } from 'node:fs';
import { access, chmod, copyFile, mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Warning } from '../../../shared/model/results.ts';
import { BenchError } from '../errors.ts';

/** Where `diskdelta helper install` and the .deb put DiskDelta's polkit actions. */
export const POLICY_FILE = '/usr/share/polkit-1/actions/org.diskdelta.helper.policy';
/** The install command a source checkout needs, named in every message about it. */
export const INSTALL_COMMAND = 'sudo npx diskdelta helper install';

const isRoot = () => process.getuid?.() === 0;

/** True when `target` is a block device this (non-root) user cannot open for reading. */
export async function needsElevation(target: string): Promise<boolean> {
  if (isRoot()) return false;
  const info = await stat(target).catch(() => null);
  if (!info?.isBlockDevice()) return false;
  return access(target, constants.R_OK).then(
    () => false,
    () => true,
  );
}

/** The helper path named by the installed policy file's exec.path annotation, or null. */
export async function installedHelper(policyFile = POLICY_FILE): Promise<string | null> {
  const xml = await readFile(policyFile, 'utf8').catch(() => null);
  const path = xml && /<annotate key="org\.freedesktop\.policykit\.exec\.path">([^<]+)<\/annotate>/.exec(xml)?.[1];
  if (!path) return null;
  return (await stat(path).then(
    (s) => s.isFile(),
    () => false,
  ))
    ? path
    : null;
}

async function onPath(program: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    if (
      await access(join(dir, program), constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}

export interface HelperChoice {
  path: string;
  /** 'policy': DiskDelta's own action (auth_admin_keep, names the device); 'generic': pkexec's. */
  action: 'policy' | 'generic';
  warnings: Warning[];
}

export interface LocateOptions {
  policyFile?: string;
  /** The helper shipped inside an AppImage; default $DISKDELTA_BUNDLED_HELPER (set by main.ts). */
  bundledHelper?: string;
  /** $APPIMAGE: set by the AppImage runtime. */
  appImage?: string;
}

/**
 * The helper pkexec will run, or a BenchError saying what to install: pkexec-missing,
 * elevate-policy-missing. DISKDELTA_HELPER overrides (tests, packagers).
 */
export async function locateHelper(options: LocateOptions = {}): Promise<HelperChoice> {
  if (!(await onPath('pkexec'))) {
    throw new BenchError(
      'pkexec-missing',
      'reading a raw device as a normal user needs pkexec (polkit), which is not installed: install it (Debian/Ubuntu: sudo apt-get install pkexec), or run DiskDelta as root',
    );
  }
  const fromEnv = process.env.DISKDELTA_HELPER;
  if (fromEnv) return { path: fromEnv, action: 'policy', warnings: [] };
  const installed = await installedHelper(options.policyFile);
  if (installed) return { path: installed, action: 'policy', warnings: [] };
  const appImage = options.appImage ?? process.env.APPIMAGE;
  const bundled = options.bundledHelper ?? process.env.DISKDELTA_BUNDLED_HELPER;
  if (appImage && bundled) {
    // The AppImage's own files live on a FUSE mount root cannot read: pkexec gets a private
    // copy, run under its generic action (no policy of ours is installed to name it).
    const dir = await mkdtemp(join(process.env.XDG_RUNTIME_DIR || tmpdir(), 'diskdelta-helper-'));
    const copy = join(dir, 'diskdelta-helper');
    await copyFile(bundled, copy);
    await chmod(copy, 0o500);
    return {
      path: copy,
      action: 'generic',
      warnings: [
        {
          code: 'elevate-generic-action',
          message:
            'this AppImage cannot install DiskDelta\'s polkit policy, so the password prompt is pkexec\'s generic one ("run … as the super user") and comes again for every run; install the .deb for a prompt that names the device and is remembered for a few minutes',
        },
      ],
    };
  }
  throw new BenchError(
    'elevate-policy-missing',
    `DiskDelta's polkit policy and helper are not installed, so the device cannot be opened for you: run \`${INSTALL_COMMAND}\` in the DiskDelta folder (or install the .deb), or run as root`,
  );
}

/**
 * The helper that empties the page cache before each app-start pass of a user who is not root
 * (`pkexec HELPER drop-caches`, one authentication thanks to auth_admin_keep), when the spec
 * allows asking (`elevate`). Without one the worker evicts only the workload's own pages and
 * the result says so; a helper that cannot be found adds why to `warnings` instead of failing
 * the run: a warmer cache is a weaker figure, not no figure.
 */
export async function cacheDropHelper(
  needed: { appStart: boolean; elevate: boolean },
  warnings: Warning[],
  options?: LocateOptions,
): Promise<string | undefined> {
  if (isRoot() || !needed.appStart || !needed.elevate) return undefined;
  try {
    const choice = await locateHelper(options);
    warnings.push(...choice.warnings);
    return choice.path;
  } catch (error) {
    if (!(error instanceof BenchError)) throw error;
    warnings.push({ code: 'cold-cache-partial', message: `the page cache cannot be dropped through the helper: ${error.message}` });
    return undefined;
  }
}

/** The worker options that give it the device: the helper opens it, or a session holder serves it. */
export function deviceAccessArgs(access: { helper?: string; fdFrom?: string }): string[] {
  if (access.fdFrom) return ['--fd-from', access.fdFrom];
  if (access.helper) return ['--helper', access.helper];
  return [];
}
