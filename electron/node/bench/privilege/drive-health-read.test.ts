// readDriveHealth on a SATA/SCSI disk name: smartctl found in system folders (DISKDELTA_SMARTCTL
// stands in for it here), a missing smartctl said as a reason, never an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDriveHealth } from './drive-health-read.ts';

async function withSmartctl<T>(path: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env.DISKDELTA_SMARTCTL;
  process.env.DISKDELTA_SMARTCTL = path;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env.DISKDELTA_SMARTCTL;
    else process.env.DISKDELTA_SMARTCTL = saved;
  }
}

test('a SATA disk without smartctl installed: the counters are not read, and that is said', async () => {
  const h = await withSmartctl('/nonexistent/smartctl', () => readDriveHealth('sda', { deviceClass: 'SATA SSD', elevate: false }));
  assert.deepEqual(h, { disk: 'sda', protocol: null, reason: 'drive counters not read: smartctl (smartmontools) is not installed' });
});

test('smartctl is run only on a block device', async () => {
  const h = await withSmartctl('/bin/false', () => readDriveHealth('sdzzz', { elevate: false }));
  assert.deepEqual(h, { disk: 'sdzzz', protocol: null, reason: '/dev/sdzzz is not a block device: its SMART attributes were not read' });
});

test('a partition name or any other disk is not handed to smartctl', async () => {
  const h = await withSmartctl('/bin/false', () => readDriveHealth('sda1', { deviceClass: null, elevate: false }));
  assert.equal(h.protocol, null);
  if (h.protocol === null) assert.match(h.reason, /sda1 is not an NVMe drive/);
});
