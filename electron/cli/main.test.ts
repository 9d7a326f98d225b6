// The dispatcher answers `--help` for every command before the command parses anything.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  for (const entry of COMMANDS) {
    const command = await entry.load();
    for (const flag of ['--help', '-h']) {
      const { code, out } = await capture([entry.name, flag]);
      assert.equal(code, 0, `${entry.name} ${flag}`);
      assert.equal(out, command.help);
      assert.match(out, new RegExp(`^Usage: diskdelta ${entry.name}\\b`), `${entry.name}'s help starts with its usage`);
    }
  }
});

test('--help after other arguments is still help, not a bad flag', async () => {
  const { code, out } = await capture(['run', '--target', '/nonexistent', '--help']);
  assert.equal(code, 0);
  assert.match(out, /--tests ID,ID/);
});

test("a command's module is loaded only when that command runs (start-up pays for one command, not all)", () => {
  // Sync resolve hooks (Node ≥ 22.15) see every module the child imports.
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
    const { main } = await import(${JSON.stringify(new URL('./main.ts', import.meta.url).href)});
    process.stdout.write = () => true;
    await main(['label', '--help']);
    process.stderr.write(JSON.stringify(seen.filter((url) => url.includes('/cli/commands/')).map((url) => url.replace(/.*\\/cli\\/commands\\//, ''))));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stderr.trim()), ['index.ts', 'label.ts']);
});

test('a reader that closes the pipe early (`diskdelta --help | true`) ends the CLI quietly: exit 0, no EPIPE stack trace', () => {
  const bin = fileURLToPath(new URL('../../bin/diskdelta.js', import.meta.url));
  // `true` exits at once, so the CLI's write meets a pipe with no reader.
  const child = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" --help | true; echo "status \${PIPESTATUS[0]}" >&2`], {
    encoding: 'utf8',
  });
  assert.doesNotMatch(child.stderr, /EPIPE|Unhandled|at /);
  assert.match(child.stderr, /^status 0$/m);
});

test("a command's known failure (BenchError) is one sentence and its documented exit code, never a stack trace", () => {
  const bin = fileURLToPath(new URL('../../bin/diskdelta.js', import.meta.url));
  // Failures raised outside a worker, in commands that do not catch them themselves.
  const cases = [
    {
      argv: ['trim-audit', '/dev/shm', '--no-fstrim'],
      says: /^diskdelta trim-audit: \/dev\/shm lies on no block device .*no TRIM to audit\n$/,
    },
    { argv: ['trim-audit', '/proc', '--no-fstrim'], says: /^diskdelta trim-audit: \/proc is on proc, a virtual filesystem .*\n$/ },
    {
      argv: ['discard-cost', '/nonexistent-diskdelta-folder'],
      says: /^diskdelta discard-cost: .*(does not exist: give an existing folder|needs root)/,
    },
  ];
  for (const { argv, says } of cases) {
    const child = spawnSync(process.execPath, [bin, ...argv], { encoding: 'utf8' });
    assert.match(child.stderr, says, argv.join(' '));
    assert.doesNotMatch(child.stderr, /BenchError|\n\s+at /, 'no stack trace');
    assert.equal(child.status, 3, `${argv[0]} exits with TARGET (3), as --help documents`);
  }
});
