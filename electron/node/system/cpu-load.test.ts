import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { machineBusyTicks, otherCpuUse, treeTicks } from './cpu-load.ts';
import { machineBusyWarning } from '../bench/result-warnings.ts';

describe('other processes’ CPU use', () => {
  it('counts user, nice, system, irq, softirq and steal as busy, not idle or iowait', () => {
    assert.equal(machineBusyTicks('cpu  100 2 30 5000 40 6 7 8 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n'), 100 + 2 + 30 + 6 + 7 + 8);
    assert.throws(() => machineBusyTicks('intr 1 2 3\n'), /cpu line/);
  });

  it('reads the tree’s ticks after a command name with spaces and parentheses', () => {
    const stat = '42 (a (b) c) S 1 42 42 0 -1 0 0 0 0 0 11 22 33 44 20 0 1 0 100 0 0';
    assert.equal(treeTicks(stat), 11 + 22 + 33 + 44);
  });

  it('counts a waited-for child’s CPU as this tree’s own', () => {
    const before = treeTicks(readFileSync('/proc/self/stat', 'utf8'));
    // Fixed work, not a fixed time: the child's CPU seconds do not depend on the machine's load.
    const child = spawnSync(process.execPath, ['-e', 'let x=0;for(let i=0;i<3e8;i++)x+=i;console.log(process.cpuUsage().user)'], {
      encoding: 'utf8',
    });
    const childTicks = Number(child.stdout) / 1e4; // µs → ticks of 10 ms
    const after = treeTicks(readFileSync('/proc/self/stat', 'utf8'));
    assert.ok(after - before >= childTicks - 2, `tree grew ${after - before} ticks, the child used ${childTicks}`);
  });

  it('subtracts the tree’s own time and warns only past a quarter of the CPUs', () => {
    const use = otherCpuUse({ busy: 0, tree: 0, at: 0 }, { busy: 300, tree: 100, at: 2000 }, 4);
    assert.equal(use.otherCpus, 1); // (300 − 100) ticks / 100 Hz / 2 s
    assert.match(machineBusyWarning(use, 'seq1m-q8t1-read')!.message, /kept 1\.0 of 4 CPUs busy \(25 %\) while seq1m-q8t1-read ran/);
    assert.equal(machineBusyWarning({ ...use, otherCpus: 0.9 }, 'x'), null);
    assert.equal(machineBusyWarning(null, 'x'), null);
  });
});
