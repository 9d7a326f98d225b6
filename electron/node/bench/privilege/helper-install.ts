// `diskdelta helper install|uninstall` for a source checkout: a root-owned copy of the helper
// (the checkout is the user's, so pkexec must never run the binary in it) and DiskDelta's
// polkit actions naming that copy. The .deb does the same with assets/deb/after-install.sh.
import { chmod, copyFile, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { makeFolder } from '../../files/make-folder.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { POLICY_FILE } from './elevation.ts';

/** Where a source checkout's helper is installed. */
export const INSTALLED_HELPER = '/usr/local/libexec/diskdelta/diskdelta-helper';
const TEMPLATE = fileURLToPath(new URL('../../../../assets/polkit/org.diskdelta.helper.policy.in', import.meta.url));
const BUILT_HELPER = fileURLToPath(new URL('../../../../native/build/diskdelta-helper', import.meta.url));

export interface InstallPaths {
  /** A prefix for every installed path: '/' for real, a temporary folder in tests. */
  root: string;
  builtHelper?: string;
}

const under = (root: string, path: string) => join(root, path);

/** The policy text naming `helperPath` (absolute, as pkexec will see it). */
export async function policyText(helperPath: string): Promise<string> {
  return (await readFile(TEMPLATE, 'utf8')).replaceAll('@HELPER@', helperPath);
}

export async function installHelper({ root, builtHelper = BUILT_HELPER }: InstallPaths): Promise<{ helper: string; policy: string }> {
  const built = await stat(builtHelper).catch(() => null);
  if (!built?.isFile()) throw new Error(`the helper ${builtHelper} is not built: run \`npm install\` first (it builds native/)`);
  const helper = under(root, INSTALLED_HELPER);
  const policy = under(root, POLICY_FILE);
  await makeFolder(dirname(helper), 0o755);
  // Copy to a new name, then rename over: a running helper is never half-written.
  await copyFile(builtHelper, `${helper}.new`);
  await chmod(`${helper}.new`, 0o755);
  await rename(`${helper}.new`, helper);
  await makeFolder(dirname(policy), 0o755);
  await writeFile(policy, await policyText(INSTALLED_HELPER), { mode: 0o644 });
  return { helper, policy };
}

/** Removes what `installHelper` put in place (the .deb's helper under /opt is the package's). */
export async function uninstallHelper({ root }: InstallPaths): Promise<string[]> {
  const removed: string[] = [];
  for (const path of [under(root, POLICY_FILE), under(root, INSTALLED_HELPER)]) {
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    ) {
      await rm(path);
      removed.push(path);
    }
  }
  await rmdir(dirname(under(root, INSTALLED_HELPER))).catch(() => {}); // only when empty
  return removed;
}
