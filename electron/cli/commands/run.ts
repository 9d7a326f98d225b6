import type { CliCommand } from '../args.ts';

export const runCommand: CliCommand = {
  name: 'run',
  synopsis: 'run --target PATH [options]',
  summary: 'measure the disk under PATH (a folder or a block device)',
  async run() {
    throw new Error('not yet');
  },
};
