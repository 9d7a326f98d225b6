// Every command that takes --json answers a failure with a JSON error object on stdout (and
// its line on stderr), never an empty stdout; `encryption` checks what it was asked before
// what the machine can do.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from './commands/index.ts';
import { runCli } from './run-cli-in-process.ts';
import type { FailureJson } from './failure-out.ts';

function errorOf(stdout: string): FailureJson['error'] {
  const parsed = JSON.parse(stdout) as FailureJson;
  assert.ok(parsed.error, `a JSON error object: ${stdout}`);
  return parsed.error;
}

describe('--json failures', () => {
  it('every command whose help offers --json prints a JSON error for a bad flag', async () => {
    let checked = 0;
    for (const entry of COMMANDS) {
      const command = await entry.load();
      if (!/--json\b/.test(command.help)) continue;
      const { code, stdout, stderr } = await runCli([entry.name, '--json', '--no-such-flag']);
      assert.equal(code, 2, entry.name);
      const error = errorOf(stdout);
      assert.equal(error.code, 'usage', entry.name);
      assert.equal(error.exit, 2);
      assert.match(error.message, /--no-such-flag/, `${entry.name}: the message names the flag`);
      assert.match(stderr, new RegExp(`^diskdelta ${entry.name}: `), 'people still get their line');
      checked++;
    }
    assert.ok(checked >= 9, `checked ${checked} commands`);
  });

  it('a failure a command says itself (no such run) is JSON too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-json-fail-'));
    try {
      const { code, stdout } = await runCli(['show', '424242', '--json', '--db', join(dir, 'lib.sqlite')]);
      assert.equal(code, 1);
      const error = errorOf(stdout);
      assert.equal(error.exitName, 'INTERNAL');
      assert.match(error.message, /424242/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without --json stdout stays empty on failure', async () => {
    const { code, stdout } = await runCli(['run', '--no-such-flag']);
    assert.equal(code, 2);
    assert.equal(stdout, '');
  });
});

describe('encryption checks its arguments before the machine', () => {
  // Before, each printed only "this kernel has no device-mapper …" (and nothing on stdout with --json).
  it('a missing target is said as such', async () => {
    const { code, stdout } = await runCli(['encryption', '--target', '/nonexist', '--no-save', '--json']);
    assert.equal(code, 3);
    const error = errorOf(stdout);
    assert.equal(error.code, 'target-missing');
    assert.match(error.message, /\/nonexist does not exist/);
  });

  it('a mistyped cipher and a wrong key size are usage errors naming the choices', async () => {
    const bad = await runCli(['encryption', '--target', tmpdir(), '--cipher', 'aes-xts-plain65', '--no-save', '--json']);
    assert.equal(bad.code, 2);
    assert.match(errorOf(bad.stdout).message, /'aes-xts-plain65' is not one DiskDelta can measure: use aes-xts-plain64/);
    const key = await runCli(['encryption', '--target', tmpdir(), '--key-size', '384', '--no-save', '--json']);
    assert.equal(key.code, 2);
    assert.match(errorOf(key.stdout).message, /takes a 256 or 512-bit key, not 384/);
    const ciphers = await runCli(['ciphers', '--cipher', 'aes-xts-plain65:512', '--json']);
    assert.equal(ciphers.code, 2, 'ciphers checks the same list before measuring');
    assert.match(errorOf(ciphers.stdout).message, /not one DiskDelta can measure/);
  });

  it('tests that are not rate tests (a surface scan, a workload, the sustained write) are a usage error naming them', async () => {
    for (const tests of ['surface', 'seq1m-q8t1-read,app-start', 'sustained-write']) {
      const { code, stdout } = await runCli(['encryption', '--target', tmpdir(), '--tests', tests, '--no-save', '--json']);
      assert.equal(code, 2, tests);
      const notRate = tests.split(',').filter((t) => t !== 'seq1m-q8t1-read');
      assert.match(errorOf(stdout).message, new RegExp(`^${notRate.join(', ')}: what encryption costs is measured with rate tests`), tests);
    }
  });
});
