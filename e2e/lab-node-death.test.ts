// The dm-crypt lab's answer to a Node that dies of a signal in its guest (lab-node-death.ts), run
// on the host by sh with steps that die as the guest's Node did (a SIGTRAP after V8's JIT-page
// CHECK, a SIGSEGV) and as a crash of the project's own doing would (V8's out-of-memory abort).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGAIN_IF_NODE_DIED, KNOWN_DEATH_ATTEMPTS } from './lab-node-death.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Steps as shell functions; each counts its attempts in attempts.txt. */
const STEPS = `
attempt() { echo x >> attempts.txt; }
jit_page_check() { attempt; printf '#\\n# Fatal error in , line 0\\n# Check failed: it->second.Size() > offset.\\n#\\n' >&2; sh -c 'kill -TRAP $$'; }
jit_page_check_ill() { attempt; printf '#\\n# Check failed: it->second.Size() > offset.\\n#\\n' >&2; sh -c 'kill -ILL $$'; }
segfault() { attempt; sh -c 'kill -SEGV $$'; }
segfault_once() { attempt; [ $(wc -l < attempts.txt) -gt 1 ] && { echo measured; return 0; }; sh -c 'kill -SEGV $$'; }
out_of_memory() { attempt; echo 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory' >&2; sh -c 'kill -ABRT $$'; }
fatal_trap() { attempt; printf '#\\n# Fatal JavaScript invalid size error 169220804\\n#\\n' >&2; sh -c 'kill -TRAP $$'; }
fails() { attempt; echo 'diskdelta: no such target' >&2; return 2; }
`;

function step(name: string): { rc: number; attempts: number; deaths: string; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-node-death-'));
  dirs.push(dir);
  const r = spawnSync('sh', ['-c', `${AGAIN_IF_NODE_DIED}\n${STEPS}\nagain_if_node_died ${name}`], { cwd: dir, encoding: 'utf8' });
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
  return {
    rc: r.status ?? -1,
    attempts: read('attempts.txt').split('\n').filter(Boolean).length,
    deaths: read('node-deaths.txt'),
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

test(`V8's JIT-page CHECK (SIGTRAP) is named with its message and run again, ${KNOWN_DEATH_ATTEMPTS} attempts in all, never more`, () => {
  const r = step('jit_page_check');
  assert.equal(r.rc, 133, 'the last death is the step exit status');
  assert.equal(r.attempts, KNOWN_DEATH_ATTEMPTS);
  assert.match(
    r.deaths,
    /Node 24 died of SIGTRAP \(exit 133\), attempt 1 of: jit_page_check; V8: Check failed: it->second\.Size\(\) > offset\./,
  );
  assert.match(r.deaths, /known cause: V8's JIT-page bookkeeping check \(ThreadIsolation\) under QEMU TCG\n {2}run once more\n/);
  assert.match(
    r.deaths,
    new RegExp(`attempt ${KNOWN_DEATH_ATTEMPTS} of: jit_page_check; [^\n]*\n$`),
    'the last attempt is named, with no "run once more" after it',
  );
  assert.match(r.stderr, /Check failed/, "the step's stderr still reaches the caller");
});

test("V8's JIT-page CHECK ending in SIGILL (its int3 taken by the CLI's SIGTRAP handler, then ud2) is that death too", () => {
  const r = step('jit_page_check_ill');
  assert.equal(r.attempts, KNOWN_DEATH_ATTEMPTS);
  assert.match(r.deaths, /SIGILL \(exit 132\).*known cause: V8's JIT-page bookkeeping check/);
});

test('a SIGSEGV is named and run once more; the second attempt measures, and its output is the step output', () => {
  const r = step('segfault_once');
  assert.equal(r.rc, 0);
  assert.equal(r.attempts, 2);
  assert.equal(r.stdout, 'measured\n');
  assert.match(
    r.deaths,
    /^Node 24 died of SIGSEGV \(exit 139\), attempt 1 of: segfault_once; V8: said nothing; guest kernel: .*; known cause: V8 segfault under QEMU TCG/,
  );
  assert.equal(step('segfault').attempts, KNOWN_DEATH_ATTEMPTS, 'a step that keeps segfaulting ends after the last attempt');
});

test("a crash of the project's doing (V8's out-of-memory abort, a fatal SIGTRAP with another message) is named and never run again", () => {
  const oom = step('out_of_memory');
  assert.equal(oom.rc, 134);
  assert.equal(oom.attempts, 1);
  assert.match(oom.deaths, /SIGABRT \(exit 134\).*V8: FATAL ERROR: Reached heap limit.*; no known cause, not run again\n$/);
  const trap = step('fatal_trap');
  assert.equal(trap.rc, 133);
  assert.equal(trap.attempts, 1);
  assert.match(trap.deaths, /SIGTRAP \(exit 133\).*V8: Fatal JavaScript invalid size error.*no known cause, not run again/);
});

test('a step that fails without a signal is left to its check: one attempt, no death named', () => {
  const r = step('fails');
  assert.equal(r.rc, 2);
  assert.equal(r.attempts, 1);
  assert.equal(r.deaths, '');
});
