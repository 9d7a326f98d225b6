// `diskdelta devices [--json]`: every block device with its class, link ceiling and queue facts.
import { parseFlags, type CliCommand } from '../args.ts';
import { listBlockDevices } from '../../node/system/block-devices.ts';
import { formatDevices } from '../system-format.ts';
import { writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta devices [--json]

Every block device: class, transport, link ceiling, scheduler, discard support.
  --json  machine-readable output (raw units: bytes, bytes/s)
`;

export const devicesCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, { json: { type: 'boolean' } });
    const devices = await listBlockDevices();
    writeOut(values.json ? JSON.stringify(devices, null, 2) + '\n' : formatDevices(devices));
    return 0;
  },
};
