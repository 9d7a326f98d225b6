// Every terminal write of the CLI, `serve`, core and the launcher goes through the escaping writer
// (terminal.ts): the ESLint rule `diskdelta/terminal-writes` (eslint-rules/terminal-writes.js)
// says so for the whole tree, and fails on each way around it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { TERMINAL_WRITES, terminalWritesRule } from '../../eslint-rules/terminal-writes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULE = 'diskdelta/terminal-writes';

function ruleOnly(): ESLint {
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      { ignores: ['**/node_modules/**'] },
      {
        files: TERMINAL_WRITES.files,
        ignores: TERMINAL_WRITES.ignores,
        languageOptions: { parser: tseslint.parser },
        plugins: { diskdelta: { rules: { 'terminal-writes': terminalWritesRule } } },
        rules: { [RULE]: ['error', { root: ROOT, writers: TERMINAL_WRITES.writers }] },
      },
    ],
  });
}

async function problems(code: string, path: string): Promise<string[]> {
  const [result] = await ruleOnly().lintText(code, { filePath: `${ROOT}${path}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

test('the tree writes to the terminal only through the escaping writer', async () => {
  const results = await ruleOnly().lintFiles(['electron', 'bin']);
  const found = results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath.slice(ROOT.length)}:${m.line}: ${m.message}`),
  );
  assert.deepEqual(found, []);
});

test('a direct write, a console call or a stream passed on fails; asking isTTY passes', async () => {
  const at = 'electron/cli/commands/planted.ts';
  assert.match((await problems("process.stderr.write('x');", at))[0] ?? '', /process\.stderr\.write reaches the terminal unescaped/);
  assert.match((await problems("process['stdout'].write('x');", at))[0] ?? '', /process\.stdout\.write/);
  assert.match((await problems("console.error('x');", 'electron/node/api/planted.ts'))[0] ?? '', /console\.error/);
  assert.match((await problems('const w = process.stdout.write.bind(process.stdout);', at))[0] ?? '', /process\.stdout\.write/);
  assert.match((await problems('src.pipe(process.stdout);', 'electron/server/planted.ts'))[0] ?? '', /passed on as a stream/);
  assert.match((await problems("process.stderr.write('x');", 'bin/planted.js'))[0] ?? '', /unescaped/);
  assert.deepEqual(await problems('const tty = process.stdout.isTTY; process.stdout.on("error", () => {});', at), []);
  assert.deepEqual(await problems("process.stdout.write('x');", 'electron/cli/terminal.ts'), [], 'the writer itself writes');
});
