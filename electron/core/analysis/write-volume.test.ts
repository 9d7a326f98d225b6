// Write volume from the kernel's counters, on a written fixture root: whole disks only (a
// partition, a loop device and a dm device wrote nothing of their own), sectors of 512 bytes,
// the pace per day and year, years of a rated endurance, and no pace from less than a day.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWriteCounters } from '../system/write-counters.ts';
import { writeVolume } from './write-volume.ts';

const SECTORS_100GB = 100e9 / 512;

function fixtureRoot(t: { after: (fn: () => void) => void }, uptimeSeconds: number): string {
  const root = mkdtempSync(join(tmpdir(), 'dd-diskstats-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'proc'));
  for (const disk of ['sda', 'nvme0n1', 'loop0', 'dm-0']) mkdirSync(join(root, 'sys/block', disk), { recursive: true });
  const line = (major: number, minor: number, name: string, sectorsWritten: number) =>
    `${String(major).padStart(4)} ${String(minor).padStart(7)} ${name} 100 0 800 10 200 0 ${sectorsWritten} 20 0 30 30 0 0 0 0 0 0`;
  writeFileSync(
    join(root, 'proc/diskstats'),
    [
      line(8, 0, 'sda', SECTORS_100GB),
      line(8, 1, 'sda1', SECTORS_100GB),
      line(259, 0, 'nvme0n1', 0),
      line(7, 0, 'loop0', 999),
      line(253, 0, 'dm-0', 999),
    ].join('\n') + '\n',
  );
  writeFileSync(join(root, 'proc/uptime'), `${uptimeSeconds} 1000.00\n`);
  return root;
}

describe('write volume', () => {
  it('two days of counters: 100 GB is 50 GB a day, 18.25 TB a year, 8.2 years of a 150 TBW drive', async (t) => {
    const counters = await readWriteCounters({ root: fixtureRoot(t, 2 * 86_400) });
    assert.ok(!('reason' in counters));
    assert.deepEqual(counters.disks, [
      { name: 'sda', bytesWritten: 100e9 },
      { name: 'nvme0n1', bytesWritten: 0 },
    ]);
    const sda = writeVolume(counters.disks[0]!, counters.seconds, 150);
    assert.equal(sda.bytesPerDay, 50e9);
    assert.equal(sda.bytesPerYear, 50e9 * 365);
    assert.equal(sda.yearsOfLife!.toFixed(2), (150e12 / (50e9 * 365)).toFixed(2));
    assert.equal(
      sda.verdict,
      'sda: 100 GB written in 2.0 days since boot, 50 GB a day, 18.3 TB a year: a drive rated 150 TBW lasts 8.2 years at this pace',
    );
    assert.match(writeVolume(counters.disks[0]!, counters.seconds).verdict, /give the drive's rated endurance \(--tbw/);
  });

  it('less than a day of counters is not judged, and says why', async (t) => {
    const counters = await readWriteCounters({ root: fixtureRoot(t, 5 * 3600) });
    assert.ok(!('reason' in counters));
    const v = writeVolume(counters.disks[0]!, counters.seconds, 150);
    assert.equal(v.bytesPerYear, null);
    assert.equal(v.yearsOfLife, null);
    assert.match(v.verdict, /^sda: 100 GB written in 5\.0 hours since boot; not judged: fewer than 1 day of counters/);
  });

  it('a root without the counters says which file is missing', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'dd-diskstats-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    assert.deepEqual(await readWriteCounters({ root }), { reason: '/proc/diskstats does not exist' });
  });
});
