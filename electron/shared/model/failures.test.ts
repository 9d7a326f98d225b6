// The failure and exit codes are written once (failures.ts); the C header is generated from it,
// and neither the worker nor `diskdelta` may return a status the list (and so --help) lacks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../cli/run-cli-in-process.ts';
import { EXIT_CODES, exitCodeOf, exitCodesHelp, FAILURE_CODES, FAILURES, failureOfExit, failuresHeader } from './failures.ts';

const HEADER = fileURLToPath(new URL('../../../native/src/failures.h', import.meta.url));

describe('one list of failure and exit codes', () => {
  it('native/src/failures.h is the header generated from the list (run `npm run gen:failures` after changing it)', () => {
    assert.equal(readFileSync(HEADER, 'utf8'), failuresHeader());
  });

  it('every failure ends with an exit code of the list, and exit codes are distinct', () => {
    assert.equal(new Set(EXIT_CODES.map((e) => e.exit)).size, EXIT_CODES.length);
    for (const code of FAILURE_CODES)
      assert.ok(
        EXIT_CODES.some((e) => e.exit === exitCodeOf(code)),
        code,
      );
    assert.equal(failureOfExit(8), 'internal', 'an undocumented status is an internal failure');
    assert.equal(failureOfExit(null), 'internal', 'a worker killed by a signal');
    assert.equal(failureOfExit(4), 'no-space');
    assert.equal(failureOfExit(10), 'internal', "not-saved is the CLI's own: a worker ending with 10 is not that");
    assert.ok(Object.values(FAILURES).every((f) => f.what.length > 0));
  });

  it('`diskdelta --help` and `diskdelta run --help` list every exit code', async () => {
    for (const args of [['--help'], ['run', '--help']]) {
      const out = await runCli(args);
      const text = out.stdout.replace(/\s+/g, ' ');
      assert.ok(text.includes(exitCodesHelp()), `${args.join(' ')} lists the exit codes`);
    }
  });
});

describe('diskdelta run never exits with a status its help does not list', () => {
  const listed: number[] = EXIT_CODES.map((e) => e.exit);
  // A stand-in worker: whatever it says and however it exits, the CLI answers with a listed status.
  const cases = [
    {
      name: 'an unknown error code and exit 8',
      script: 'echo \'{"v":1,"type":"error","code":"mystery","message":"boom"}\'; exit 8',
      expect: 1,
    },
    { name: 'silence and exit 8', script: 'exit 8', expect: 1 },
    { name: 'exit 42', script: 'exit 42', expect: 1 },
    { name: 'killed by SIGKILL', script: '[ "$1" = cleanup ] && exit 0; kill -9 $$', expect: 1 },
    {
      name: 'a listed failure (no-space, exit 4)',
      script: 'echo \'{"v":1,"type":"error","code":"no-space","message":"disk full"}\'; exit 4',
      expect: 4,
    },
  ];
  for (const c of cases) {
    it(c.name, async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'dd-exit-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const worker = join(dir, 'fake-worker');
      writeFileSync(worker, `#!/bin/sh\n${c.script}\n`);
      chmodSync(worker, 0o755);
      const before = process.env.DISKDELTA_WORKER;
      process.env.DISKDELTA_WORKER = worker;
      t.after(() => {
        if (before === undefined) delete process.env.DISKDELTA_WORKER;
        else process.env.DISKDELTA_WORKER = before;
      });
      const out = await runCli(['run', '--target', dir, '--preset', 'quick', '--no-save']);
      assert.ok(listed.includes(out.code), `exit ${out.code} is listed; stderr: ${out.stderr}`);
      assert.equal(out.code, c.expect, out.stderr);
    });
  }
});
