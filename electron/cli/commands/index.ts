// Every subcommand of `diskdelta`, in the order --help lists them. Add a command by writing
// commands/<name>.ts exporting a CliCommand and listing it here.
import type { CliCommand } from '../args.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { devicesCommand } from './devices.ts';
import { inspectCommand } from './inspect.ts';

export const COMMANDS: CliCommand[] = [runCommand, serveCommand, devicesCommand, inspectCommand];
