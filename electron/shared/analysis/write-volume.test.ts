// Write volume from the kernel's counters, on a written fixture root: whole disks only (a
// partition, a loop device and a dm device wrote nothing of their own), sectors of 512 bytes,
// the pace per day and year, years of a rated endurance, and no pace from less than a day.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWriteCounters } from '../../node/system/write-counters.ts';
import { openLibrary } from '../../node/store/library.ts';
import { takeWriteSample } from '../../node/store/write-samples.ts';
import { monthlyWrites, monthsVerdict, writeVolume, type WriteSample } from './write-volume.ts';

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
  mkdirSync(join(root, 'proc/sys/kernel/random'), { recursive: true });
  writeFileSync(join(root, 'proc/sys/kernel/random/boot_id'), 'boot-a\n');
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

  it('samples kept across two boots and a month’s end: each month’s bytes and covered time, the last month judged, this one not', () => {
    const GB = 1e9;
    const sample = (at: string, bootId: string, uptimeSeconds: number, bytesWritten: number): WriteSample => ({
      at,
      bootId,
      uptimeSeconds,
      disk: 'sda',
      bytesWritten,
    });
    const months = monthlyWrites([
      // Boot A on 31 October: its first sample a day later covers boot → sample.
      sample('2026-11-01T00:00:00.000Z', 'a', 86_400, 10 * GB),
      sample('2026-11-03T00:00:00.000Z', 'a', 3 * 86_400, 30 * GB),
      // Boot B: what A wrote after 3 November is not seen; B's first sample covers its 12 hours.
      sample('2026-11-20T12:00:00.000Z', 'b', 43_200, 5 * GB),
      // 11 days across the month's end: 10.5 of them in November, 0.5 in December.
      sample('2026-12-01T12:00:00.000Z', 'b', 43_200 + 11 * 86_400, 27 * GB),
    ]);
    assert.deepEqual(months, [
      { month: '2026-10', bytesWritten: 10 * GB, seconds: 86_400 },
      { month: '2026-11', bytesWritten: 46 * GB, seconds: 13 * 86_400 },
      { month: '2026-12', bytesWritten: 1 * GB, seconds: 43_200 },
    ]);
    assert.equal(
      monthsVerdict('sda', months, new Date('2026-12-01T13:00:00Z')),
      'sda: this month: 1 GB in 12.0 hours counted, not judged (fewer than 1 day); last month: 3.54 GB a day (46 GB in 13.0 days counted)',
    );
  });

  it('a sample is kept in the library each time and read back', async (t) => {
    const root = fixtureRoot(t, 2 * 86_400);
    const dir = mkdtempSync(join(tmpdir(), 'dd-samples-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const library = openLibrary({ dbPath: join(dir, 'library.sqlite') });
    try {
      await takeWriteSample(library, { root, now: new Date('2026-12-01T10:00:00Z') });
      await takeWriteSample(library, { root, now: new Date('2026-12-01T11:00:00Z') });
      const kept = library.writeSamples();
      assert.deepEqual(
        kept.filter((s) => s.disk === 'sda'),
        [
          { at: '2026-12-01T10:00:00.000Z', bootId: 'boot-a', uptimeSeconds: 2 * 86_400, disk: 'sda', bytesWritten: 100e9 },
          { at: '2026-12-01T11:00:00.000Z', bootId: 'boot-a', uptimeSeconds: 2 * 86_400, disk: 'sda', bytesWritten: 100e9 },
        ],
      );
      assert.deepEqual([...new Set(kept.map((s) => s.disk))], ['nvme0n1', 'sda'], 'whole disks only');
    } finally {
      library.close();
    }
  });
});
