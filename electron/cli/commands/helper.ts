// `diskdelta helper install|uninstall|status`: DiskDelta's privileged helper and polkit policy
// for a source checkout (`sudo npx diskdelta helper install`); the .deb installs its own.
import { INSTALL_COMMAND, POLICY_FILE, installedHelper } from '../../node/bench/privilege/elevation.ts';
import { installHelper, uninstallHelper } from '../../node/bench/privilege/helper-install.ts';
import { EXIT_FAILURE, UsageError, parseFlags, type CliCommand } from '../args.ts';
import { writeOut } from '../terminal.ts';
import { sayFailure } from '../failure-out.ts';

const HELP = `Usage: diskdelta helper install | uninstall | status

  sudo npx diskdelta helper install     install and uninstall write system folders: root
  npx diskdelta helper status           exit 0 when installed, 3 when not

Reading a raw disk as a normal user (diskdelta run --target /dev/sdX --elevate, or the app)
goes through a small helper started by pkexec: it only opens the device read-only and passes
the descriptor back; the benchmark runs as you. install copies native/build/diskdelta-helper
to /usr/local/libexec/diskdelta/ (root-owned) and puts DiskDelta's polkit actions in
${POLICY_FILE}; uninstall removes both. Both need root.
`;

export const helperCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { positionals } = parseFlags(argv, {}, true);
    const [action, ...extra] = positionals;
    if (extra.length > 0 || !['install', 'uninstall', 'status'].includes(action ?? '')) {
      throw new UsageError('say install, uninstall or status');
    }
    if (action === 'status') {
      const helper = await installedHelper();
      writeOut(helper ? `installed: ${POLICY_FILE} names ${helper}\n` : `not installed: run \`${INSTALL_COMMAND}\`\n`);
      return helper ? 0 : 3;
    }
    if (process.getuid?.() !== 0) {
      return sayFailure('helper', `${action} writes system folders: run \`sudo npx diskdelta helper ${action}\``, EXIT_FAILURE);
    }
    try {
      if (action === 'install') {
        const { helper, policy } = await installHelper({ root: '/' });
        writeOut(`installed ${helper} and ${policy}\n`);
      } else {
        const removed = await uninstallHelper({ root: '/' });
        writeOut(removed.length ? `removed ${removed.join(', ')}\n` : 'nothing to remove: the helper was not installed\n');
      }
      return 0;
    } catch (error) {
      return sayFailure('helper', error instanceof Error ? error.message : String(error), EXIT_FAILURE);
    }
  },
};
