// #41 item 1 for SATA, in a QEMU guest (e2e/dm-crypt-lab.ts boots it) with an emulated AHCI disk
// (-device ahci -device ide-hd). QEMU's ATA emulation answers SMART READ DATA with a fixed table
// (hw/ide/core.c smart_attributes: 1, 3, 4, 5, 9, 12, 190; 190's raw temperature 31 °C) and counts
// no writes: it has no attribute 241. So this lab holds the real `diskdelta health --json` and
// `diskdelta run` (as root in the guest, smartctl from the host's root shared read-only) to what
// the drive really reports, and to saying that it keeps no write counter; it cannot measure a
// drive's count of bytes written (smartctl.test.ts holds 241's arithmetic to samples).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DriveHealth, RunRecord } from '../electron/shared/model/schemas.ts';
import { driveWrittenText } from '../electron/shared/analysis/drive-health.ts';
import { parseSmartctl } from '../electron/node/system/smartctl.ts';
import { labKernelOrReason, labModprobe, runInGuest, type GuestResult } from './dm-crypt-lab.ts';
import { AGAIN_IF_NODE_DIED, guestDiskdelta } from './lab-node-death.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DD = guestDiskdelta(REPO);
const SMARTCTL = '/usr/sbin/smartctl';
const HELPER = join(REPO, 'native', 'build', 'diskdelta-helper');

const { kernel, reason } = labKernelOrReason();
const guests: GuestResult[] = [];
after(() => {
  for (const g of guests) g.dispose();
});

test(
  "an emulated SATA disk's SMART attributes through smartctl: what QEMU reports, and no write counter said",
  { timeout: 1_700_000 },
  async (t) => {
    if (reason || !kernel) return t.skip(reason ?? 'no lab kernel');
    if (!existsSync(SMARTCTL)) return t.skip(`${SMARTCTL} is not installed (Debian package smartmontools): the guest runs the host's`);
    const script = `DD='${DD}'
step() { echo "$(cut -d' ' -f1 /proc/uptime) s: $*" >> steps.txt; }
${AGAIN_IF_NODE_DIED}
${labModprobe(kernel, ['ext4', 'ahci', 'sd_mod'])}
i=0; while [ ! -b /dev/sda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
step mkfs
mkfs.ext4 -q -F -b 4096 -N 256 -O ^has_journal,^resize_inode -E lazy_itable_init=0,nodiscard /dev/sda
mkdir -p /run/s0 && mount -o noatime /dev/sda /run/s0 && mkdir /run/s0/t && sync
step smart-ata
${HELPER} smart-ata /dev/sda > ata.json 2> ata.err; echo $? > ata.rc
step health
again_if_node_died $DD health /dev/sda --json > health.json 2> health.err; echo $? > health.rc
step run
again_if_node_died $DD run --target /run/s0/t --tests seq1m-q1t1-write --size 16MiB --duration 0.5 --warmup 0 --runs 1 --precision 0 \\
  --json --no-save > run.json 2> run.err; echo $? > run.rc
step done
`;
    const g = await runInGuest(kernel, {
      sata: [{ bytes: 256 * 2 ** 20, serial: 'dd41sata' }],
      memoryMiB: 1024,
      timeoutMs: Number(process.env['DISKDELTA_LAB_TIMEOUT_MS'] ?? 1_600_000),
      script,
    });
    guests.push(g);
    const read = (name: string) => (existsSync(join(g.share, name)) ? readFileSync(join(g.share, name), 'utf8') : '');
    const context = `console:\n${g.console.slice(-2000)}\noutput:\n${g.output.slice(-2000)}\nsteps:\n${read('steps.txt')}\n${read('node-deaths.txt')}`;
    assert.equal(g.status, 0, `the guest ran the script to the end; ${context}`);
    for (const step of ['health', 'run'])
      assert.equal(read(`${step}.rc`).trim(), '0', `${step}: exit status; stderr:\n${read(`${step}.err`)}`);

    const health = JSON.parse(read('health.json')) as DriveHealth;
    assert.equal(health.protocol, 'ata', JSON.stringify(health));
    if (health.protocol !== 'ata') return;
    // QEMU's fixed table, as smartctl 7.3 reads it.
    assert.equal(health.disk, 'sda');
    assert.equal(health.model, 'QEMU HARDDISK');
    assert.equal(health.smartPassed, true);
    assert.equal(health.temperatureC, 31);
    assert.equal(health.reallocatedSectors, 0);
    assert.deepEqual(
      health.attributes.map((a) => a.id),
      [1, 3, 4, 5, 9, 12, 190],
    );
    assert.equal(health.bytesWritten, null, 'QEMU keeps no 241: nothing invented');
    assert.equal(health.percentageUsed, null);

    // The helper's smart-ata verb (what a user's --elevate goes through) reads the same disk alike.
    assert.deepEqual(parseSmartctl('sda', read('ata.json')), health, `smart-ata: exit ${read('ata.rc').trim()}; ${read('ata.err')}`);

    const record = JSON.parse(read('run.json')) as RunRecord;
    const drive = record.drive;
    assert.ok(drive && drive.before.protocol === 'ata' && drive.after?.protocol === 'ata', JSON.stringify(drive));
    assert.ok(drive.hostBytesWritten !== null && drive.hostBytesWritten >= 16 * 2 ** 20, JSON.stringify(drive));
    assert.match(driveWrittenText(drive), /keeps no write counter DiskDelta knows .*the host sent [\d,]+ B/);
  },
);
