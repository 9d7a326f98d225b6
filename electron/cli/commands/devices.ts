// `diskdelta devices [--json]`: every block device with its class, link ceiling and queue facts.
import { parseFlags, type CliCommand } from '../args.ts';
import { listBlockDevices } from '../../core/system/block-devices.ts';
import { formatDevices } from '../../core/system/format.ts';

export const devicesCommand: CliCommand = {
  name: 'devices',
  synopsis: 'devices [--json]',
  summary: 'list block devices: class, transport, link ceiling, scheduler, discard support',
  async run(argv) {
    const { values } = parseFlags(argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
    if (values.help) {
      process.stdout.write(`Usage: diskdelta ${this.synopsis}\n\n${this.summary}.\n  --json  machine-readable output (raw units: bytes, bytes/s)\n`);
      return 0;
    }
    const devices = await listBlockDevices();
    process.stdout.write(values.json ? JSON.stringify(devices, null, 2) + '\n' : formatDevices(devices));
    return 0;
  },
};
