// Issue 40 item 4, against its truth: a loop device capped by two cgroup v1 blkio groups with
// different read caps, A at 20 MB/s and B at 200 MB/s, and a run measured from a process in A.
// The truth is what the kernel applies: A's cap, which the measured read shows (at most A's cap,
// far below B's). The run must name A's caps as its own, and B's only as another group's; it
// named B's as the run's before ("throttled: read 100 MB/s, 2,000 IOPS (blkio group /B)" on a
// run that measured 5,425 MB/s). Needs root, losetup and cgroup v1 blkio; skips with the reason elsewhere.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { labUnavailable } from './throttled-lab.ts';
import type { RunRecord } from '../electron/shared/model/results.ts';
import { measuredText } from '../electron/shared/report/report-model.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BLKIO = '/sys/fs/cgroup/blkio';
const CAP_A = 20_000_000;
const CAP_B = 200_000_000;

describe('blkio throttles of two groups on one device (issue 40 item 4)', () => {
  it(
    "a run in group A names A's caps as its own and B's only as another group's",
    { skip: labUnavailable() ?? false, timeout: 120_000 },
    async (t) => {
      const dir = mkdtempSync(join('/dev/shm', 'dd-corners-groups-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const image = join(dir, 'disk.img');
      // Written, not sparse: reads of holes would come back without touching the device's queue.
      spawnSync('dd', ['if=/dev/urandom', `of=${image}`, 'bs=1M', 'count=96', 'status=none']);
      const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
      assert.equal(l.status, 0, l.stderr);
      const device = l.stdout.trim();
      t.after(() => spawnSync('losetup', ['-d', device]));
      const majMin = readFileSync(`/sys/block/${basename(device)}/dev`, 'utf8').trim();
      const groups = { A: `dd-corners-A-${process.pid}`, B: `dd-corners-B-${process.pid}` };
      for (const [name, cap] of [
        [groups.A, CAP_A],
        [groups.B, CAP_B],
      ] as const) {
        const path = join(BLKIO, name);
        mkdirSync(path);
        t.after(() => {
          // The run has exited; a straggler is moved to the root group so the group always goes.
          for (let i = 0; i < 50 && existsSync(path); i++) {
            try {
              rmdirSync(path);
            } catch {
              for (const pid of readFileSync(join(path, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
                try {
                  writeFileSync(join(BLKIO, 'cgroup.procs'), pid);
                } catch {
                  // gone meanwhile
                }
              spawnSync('sleep', ['0.1']);
            }
          }
        });
        writeFileSync(join(path, 'blkio.throttle.read_bps_device'), `${majMin} ${cap}`);
        writeFileSync(join(path, 'blkio.throttle.read_iops_device'), `${majMin} ${name === groups.B ? 2000 : 5000}`);
      }
      // The run, from a shell that joined A first (its node and its worker inherit the group).
      const args = [
        'bin/diskdelta.js',
        'run',
        '--target',
        device,
        '--tests',
        'seq1m-q1t1-read',
        '--size',
        '64MiB',
        '--runs',
        '1',
        '--duration',
        '2',
      ];
      const child = spawn(
        'sh',
        [
          '-c',
          `echo $$ > ${join(BLKIO, groups.A, 'cgroup.procs')} || exit 8\nexec "$@"`,
          'sh',
          process.execPath,
          ...args,
          '--json',
          '--no-save',
        ],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      t.after(() => child.kill('SIGKILL'));
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, stderr);
      const doc = JSON.parse(stdout) as { runs?: RunRecord[] } & Partial<RunRecord>;
      const record = (doc.runs?.[0] ?? doc) as RunRecord;
      // The truth: the kernel applied A's cap (the read is at most A's, far below B's).
      const read = record.results[0]!.bytesPerSec!;
      assert.ok(read <= CAP_A * 1.1, `read ${read} B/s with A's cap at ${CAP_A}: the run was not in A`);
      const layer = (record.target.stack ?? []).find(
        (x) => x.details.throttleGroup !== undefined || x.details.otherThrottleGroup !== undefined,
      );
      assert.ok(layer, `no layer names a throttle: ${JSON.stringify(record.target.stack)}`);
      assert.equal(layer.details.throttleMeasuredIn, `/${groups.A}`);
      assert.equal(layer.details.throttleGroup, `/${groups.A}`);
      assert.equal(layer.details.throttleReadBps, CAP_A);
      assert.equal(layer.details.otherThrottleGroup, `/${groups.B}`);
      const text = measuredText(record);
      assert.match(text, new RegExp(`throttled: read 20 MB/s, 5,000 IOPS \\(blkio group /${groups.A}, the run's\\)`), text);
      assert.match(text, new RegExp(`another group's throttle: blkio group /${groups.B}: read 200 MB/s, 2,000 IOPS; not the run's`), text);
      assert.doesNotMatch(text, /throttled: read 200 MB\/s/, text);
      t.diagnostic(text);
    },
  );
});
