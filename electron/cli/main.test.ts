// The dispatcher answers `--help` for every command before the command parses anything.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMANDS } from './commands/index.ts';
import { main } from './main.ts';

async function capture(argv: string[]): Promise<{ code: number; out: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => ((out += String(chunk)), true)) as typeof process.stdout.write;
  try {
    return { code: await main(argv), out };
  } finally {
    process.stdout.write = write;
  }
}

test('every command answers --help and -h with its own usage, exit 0', async () => {
  assert.ok(COMMANDS.length >= 11);
  for (const command of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      const { code, out } = await capture([command.name, flag]);
      assert.equal(code, 0, `${command.name} ${flag}`);
      assert.equal(out, command.help);
      assert.match(out, new RegExp(`^Usage: diskdelta ${command.name}\\b`), `${command.name}'s help starts with its usage`);
    }
  }
});

test('--help after other arguments is still help, not a bad flag', async () => {
  const { code, out } = await capture(['run', '--target', '/nonexistent', '--help']);
  assert.equal(code, 0);
  assert.match(out, /--tests ID,ID/);
});
