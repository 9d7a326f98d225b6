// Every subcommand of `diskdelta`, in the order --help lists them. Add a command by writing
// commands/<name>.ts exporting a CliCommand and listing it here.
import type { CliCommand } from '../args.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { devicesCommand } from './devices.ts';
import { inspectCommand } from './inspect.ts';
import { listCommand } from './list.ts';
import { showCommand } from './show.ts';
import { labelCommand } from './label.ts';
import { deleteCommand } from './delete.ts';
import { compareCommand } from './compare.ts';
import { importCommand } from './import.ts';
import { exportCommand } from './export.ts';
import { helperCommand } from './helper.ts';
import { reportCommand } from './report.ts';
import { ciphersCommand } from './ciphers.ts';
import { encryptionCommand } from './encryption.ts';

export const COMMANDS: CliCommand[] = [
  runCommand,
  serveCommand,
  devicesCommand,
  inspectCommand,
  listCommand,
  showCommand,
  labelCommand,
  deleteCommand,
  compareCommand,
  reportCommand,
  importCommand,
  exportCommand,
  ciphersCommand,
  encryptionCommand,
  helperCommand,
];
