// The `diskdelta` command: a table of subcommands, each in commands/<name>.ts.
// Exit codes: the one list in core/model/failures.ts, printed by --help; no command returns
// a status outside it.
import { exitCodesHelp } from '../core/model/failures.ts';
import { UsageError, EXIT_USAGE } from './args.ts';
import { wrap } from './wrap.ts';
import { COMMANDS } from './commands/index.ts';

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version') {
    process.stdout.write(`diskdelta ${await version()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`diskdelta: unknown command '${name}'. Run 'diskdelta --help' for the list.\n`);
    return EXIT_USAGE;
  }
  // Every command's --help is answered here, so no command parses it.
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`diskdelta ${name}: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.synopsis.length));
  const lines = COMMANDS.map((c) => `  ${c.synopsis.padEnd(width)}  ${c.summary}`);
  return `Usage: diskdelta COMMAND [OPTIONS]\n\nCommands:\n${lines.join('\n')}\n\nRun 'diskdelta COMMAND --help' for a command's options.\n\n${wrap(exitCodesHelp())}\n`;
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
