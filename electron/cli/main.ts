// The `diskdelta` command: a table of subcommands, each in commands/<name>.ts.
// Exit codes: the one list in shared/model/failures.ts, printed by --help; no command returns
// a status outside it.
import { exitCodesHelp } from '../shared/model/failures.ts';
import { UsageError, EXIT_USAGE } from './args.ts';
import { wrap } from './wrap.ts';
import { COMMANDS } from './commands/index.ts';
import { writeOut, writeErr } from './terminal.ts';
import { appVersion } from '../node/app-version.ts';
import { BenchError } from '../node/bench/errors.ts';
import { failuresAsJson, sayFailure } from './failure-out.ts';

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    writeOut(usage());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version') {
    writeOut(`diskdelta ${await appVersion()}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    writeErr(`diskdelta: unknown command '${name}'. Run 'diskdelta --help' for the list.\n`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
  // Every command's --help is answered here, so no command parses it.
  if (rest.includes('--help') || rest.includes('-h')) {
    writeOut(command.help);
    return 0;
  }
  // --json asks for JSON on stdout, a failure included (failure-out.ts).
  failuresAsJson(rest.includes('--json'));
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) return sayFailure(name, error.message, EXIT_USAGE, 'usage');
    // A measurement that failed for a known reason (missing folder, not root, no space …): its
    // sentence and documented exit code, never a stack trace. Anything else is a bug: let it show.
    if (error instanceof BenchError) return sayFailure(name, error.message, error.exitCode, error.code);
    throw error;
  }
}

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.synopsis.length));
  const lines = COMMANDS.map((c) => `  ${c.synopsis.padEnd(width)}  ${c.summary}`);
  return `Usage: diskdelta COMMAND [OPTIONS]\n\nCommands:\n${lines.join('\n')}\n\nRun 'diskdelta COMMAND --help' for a command's options.\n\n${wrap(exitCodesHelp())}\n`;
}
