// Missing or unreadable sysfs entries become null with a reason: never a crash, never a guess.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { inspectPath, listBlockDevices, readSystemFacts } from './index.ts';

let root = '';
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'diskdelta-degrade-'));
  cpSync(fileURLToPath(new URL('./fixtures/x201i-ssd-luks', import.meta.url)), root, { recursive: true, verbatimSymlinks: true });
  const scsi = path.join(root, 'sys/devices/pci0000:00/0000:00:1f.2/ata1');
  rmSync(path.join(scsi, 'link1/ata_link/link1/sata_spd')); // libata link facts gone
  rmSync(path.join(scsi, 'host0/target0:0:0/0:0:0:0/vpd_pg80')); // no serial page
  rmSync(path.join(scsi, 'host0/target0:0:0/0:0:0:0/block/sda/queue/rotational'));
  // A directory where a file should be: reading it fails (EISDIR) like an unreadable attribute.
  rmSync(path.join(scsi, 'host0/target0:0:0/0:0:0:0/block/sda/queue/scheduler'));
  mkdirSync(path.join(scsi, 'host0/target0:0:0/0:0:0:0/block/sda/queue/scheduler'));
  rmSync(path.join(root, 'cmd'), { recursive: true }); // no dmsetup capture: "not root"
  rmSync(path.join(root, 'proc/cpuinfo'));
});
after(() => rmSync(root, { recursive: true, force: true }));

test('a disk with missing link, serial and rotational entries: nulls with reasons, class unknown', async () => {
  const sda = (await listBlockDevices({ root })).find((d) => d.name === 'sda')!;
  assert.equal(sda.linkCeilingBytesPerSec, null);
  assert.match(sda.reasons?.link ?? '', /sata_spd does not exist/);
  assert.equal(sda.serial, null);
  assert.match(sda.reasons?.serial ?? '', /vpd_pg80/);
  assert.equal(sda.rotational, null);
  assert.equal(sda.class, 'unknown'); // not guessed to be an SSD or an HDD
  assert.equal(sda.scheduler, null);
  assert.ok(sda.reasons?.scheduler);
  assert.equal(sda.model, 'INTEL SSDSA2CW12'); // what is there is still read
});

test('dm-crypt without its table: encrypted still known from the uuid, cipher unknown with the reason', async () => {
  const report = await inspectPath('/', { root });
  const crypt = report.target.stack!.find((l) => l.kind === 'dm-crypt')!;
  assert.equal(crypt.encrypted, true);
  assert.equal(crypt.details.cipher, null);
  assert.match(crypt.reasons?.cipher ?? '', /no dmsetup table capture/);
  assert.equal(crypt.discardPasses, false); // from sysfs, which needs no root
  assert.equal(report.lowestCeiling, null);
});

test('no /proc/cpuinfo: CPU facts null with a reason, memory still read', async () => {
  const facts = await readSystemFacts({ root });
  assert.equal(facts.cpuModel, null);
  assert.equal(facts.cores, null);
  assert.deepEqual(facts.cryptoFlags, []);
  assert.match(facts.reasons?.cpu ?? '', /cpuinfo does not exist/);
  assert.ok(facts.memoryBytes! > 0);
});

test('an empty root: no devices, no mounts, reasons instead of exceptions', async () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'diskdelta-empty-'));
  try {
    assert.deepEqual(await listBlockDevices({ root: empty }), []);
    const report = await inspectPath('/x', { root: empty });
    assert.deepEqual(
      report.target.stack!.map((l) => l.kind),
      ['file'],
    );
    assert.match(report.unknowns.join(' '), /mountinfo does not exist/);
    assert.deepEqual(
      report.warnings.map((w) => w.code),
      ['device-unknown'],
    );
    assert.equal(report.system.kernel, null);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
