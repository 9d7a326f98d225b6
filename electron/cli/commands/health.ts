// `diskdelta health [DEVICE|PATH] [--json]`: the drive's own counters (NVMe SMART / health log,
// read through the privileged helper's read-only smart-log verb; a SATA disk's SMART attributes
// through smartctl).
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { describeTarget } from '../../node/system/describe.ts';
import { readDriveHealth } from '../../node/bench/privilege/drive-health-read.ts';
import { healthLines } from '../../shared/analysis/drive-health.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta health [DEVICE|PATH] [--json]

The drive's own counters: an NVMe drive's SMART / health log (data units read and written, host
commands, percentage used, power-on hours, unsafe shutdowns, media errors, temperature and time
hot, thermal-management transitions). DEVICE is a disk (/dev/nvme0n1) or controller (/dev/nvme0);
PATH a folder, whose disk is read (default: the current folder). Reading the log is an NVMe admin
command: as root directly, otherwise through the helper and pkexec (a password prompt).
A SATA disk (/dev/sda): its SMART attributes through smartctl (smartmontools), as root, or
through pkexec smartctl (a password prompt); a missing smartctl is said. A disk that keeps no
counters DiskDelta reads (virtio, loop) is said, with exit code 0.
  --json  machine-readable output (counts as the drive gives them; °C)
`;

/** The whole disk to read: an NVMe controller's character device by name, else the disk under the path. */
async function diskOf(arg: string): Promise<{ disk: string | null; deviceClass: string | null }> {
  if (/^\/dev\/nvme\d+$/.test(arg) && existsSync(arg) && statSync(arg).isCharacterDevice())
    return { disk: basename(arg), deviceClass: 'NVMe SSD' };
  const { target } = await describeTarget(arg);
  return { disk: target.device?.name ?? null, deviceClass: target.device?.class ?? null };
}

export const healthCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } }, true);
    if (positionals.length > 1) throw new UsageError('give at most one DEVICE or PATH');
    const arg = positionals[0] ?? '.';
    if (!existsSync(arg))
      throw new UsageError(`${arg} does not exist: give a disk (/dev/nvme0n1), a controller (/dev/nvme0) or a folder on the disk`);
    const { disk, deviceClass } = await diskOf(arg);
    const health = await readDriveHealth(disk, { deviceClass, elevate: true });
    if (values.json) {
      writeOut(JSON.stringify(health, null, 2) + '\n');
      return 0;
    }
    const lines = healthLines(health);
    const width = Math.max(...lines.map(([k]) => k.length));
    writeOut(
      `${health.disk ?? arg}${health.protocol === 'nvme' ? ': NVMe SMART / health log' : health.protocol === 'ata' ? ': SATA SMART attributes (smartctl)' : ''}\n` +
        lines.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n') +
        '\n',
    );
    return 0;
  },
};
