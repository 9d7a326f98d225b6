// #41 item 1 in a QEMU guest (e2e/dm-crypt-lab.ts boots it) with an emulated NVMe drive, whose
// SMART / health log QEMU keeps (hw/nvme/ctrl.c): data units written count the bytes the guest
// wrote (1 unit = 1,000 × 512 bytes, rounded up), the composite temperature is the emulation's
// fixed 323 K, and -device nvme,smart_critical_warning=N sets the Critical Warning byte. The real
// `diskdelta health --json` and `diskdelta run` read it through the helper's smart-log verb (the
// guest runs them as root); the written units' growth is held to the bytes the guest's kernel
// wrote to the namespace (/sys/block/nvme0n1/stat), which is what the drive was sent; QEMU 7.2
// keeps no count of its flash's own writes (neither the endurance-group log nor OCP's C0h), and
// every reading says so with what the drive answered. One boot;
// the first read is the helper's own (a Node start costs minutes under TCG on a loaded host).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DriveHealth, RunRecord } from '../electron/shared/model/schemas.ts';
import { parseSmartLog } from '../electron/node/system/drive-health.ts';
import { writeAmplificationDuring, writeAmplificationText } from '../electron/shared/analysis/drive-health.ts';
import { labKernelOrReason, labModprobe, runInGuest, type GuestResult } from './dm-crypt-lab.ts';
import { AGAIN_IF_NODE_DIED, guestDiskdelta } from './lab-node-death.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DD = guestDiskdelta(REPO);
const HELPER = join(REPO, 'native', 'build', 'diskdelta-helper');
const UNIT = 512_000;
/** Where the guest's outputs are kept. */
const LAB_OUT = join(REPO, 'test-results', 'lab');
/** Bit 0 of the Critical Warning: available spare below its threshold. */
const CRITICAL_WARNING = 1;

const { kernel, reason } = labKernelOrReason();
const guests: GuestResult[] = [];
after(() => {
  for (const g of guests) g.dispose();
});

/** Sectors (512 B) the guest's kernel has written to nvme0n1, from its stat file (field 7). */
const SECTORS = `awk '{print $7}' /sys/block/nvme0n1/stat`;

test(
  "an emulated NVMe drive's SMART log: written units grow by the bytes written, its temperature, its critical warning on the run",
  { timeout: 1_700_000 },
  async (t) => {
    if (reason || !kernel) return t.skip(reason ?? 'no lab kernel');
    const script = `DD='${DD}'
step() { echo "$(cut -d' ' -f1 /proc/uptime) s: $*" >> steps.txt; }
${AGAIN_IF_NODE_DIED}
${labModprobe(kernel, ['ext4', 'nvme'])}
i=0; while [ ! -b /dev/nvme0n1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
step mkfs
mkfs.ext4 -q -F -b 4096 -N 256 -O ^has_journal,^resize_inode -E lazy_itable_init=0,nodiscard /dev/nvme0n1
mkdir -p /run/n0 && mount -o noatime /dev/nvme0n1 /run/n0 && mkdir /run/n0/t && sync
step health-before
${SECTORS} > sectors-before.txt
# The helper itself (C: no Node start, minutes under emulation) for the first read; diskdelta health for the last.
${HELPER} smart-log /dev/nvme0n1 > before.json 2> before.err; echo $? > before.rc
step run
again_if_node_died $DD run --target /run/n0/t --tests seq1m-q1t1-write --size 16MiB --duration 0.5 --warmup 0 --runs 1 --precision 0 \\
  --json --no-save > run.json 2> run.err; echo $? > run.rc
sync
step health-after
again_if_node_died $DD health /dev/nvme0 --json > after.json 2> after.err; echo $? > after.rc
${SECTORS} > sectors-after.txt
step done
`;
    const g = await runInGuest(kernel, {
      nvme: [{ bytes: 256 * 2 ** 20, serial: 'dd41', properties: `smart_critical_warning=${CRITICAL_WARNING}` }],
      memoryMiB: 1024,
      timeoutMs: Number(process.env['DISKDELTA_LAB_TIMEOUT_MS'] ?? 1_600_000),
      script,
    });
    guests.push(g);
    const read = (name: string) => (existsSync(join(g.share, name)) ? readFileSync(join(g.share, name), 'utf8') : '');
    const context = `console:\n${g.console.slice(-2000)}\noutput:\n${g.output.slice(-2000)}\nsteps:\n${read('steps.txt')}\n${read('node-deaths.txt')}`;
    assert.equal(g.status, 0, `the guest ran the script to the end; ${context}`);
    for (const step of ['before', 'run', 'after'])
      assert.equal(read(`${step}.rc`).trim(), '0', `${step}: exit status; stderr:\n${read(`${step}.err`)}`);

    const before = parseSmartLog('nvme0n1', read('before.json'));
    const afterIt = JSON.parse(read('after.json')) as DriveHealth;
    assert.equal(before.protocol, 'nvme', JSON.stringify(before));
    assert.equal(afterIt.protocol, 'nvme', JSON.stringify(afterIt));
    if (before.protocol !== 'nvme' || afterIt.protocol !== 'nvme') return;
    // Kept for a look after the run: the helper's counters and the run's record.
    mkdirSync(LAB_OUT, { recursive: true });
    for (const name of ['before.json', 'after.json', 'run.json']) writeFileSync(join(LAB_OUT, `drive-health-${name}`), read(name));
    // Between the two reads the guest wrote these bytes to the namespace; QEMU counted them in
    // 512-byte units and reports thousands of those rounded up, so the growth of the report is
    // the bytes' unit count rounded down or up (the remainder before the first read decides).
    const written = (Number(read('sectors-after.txt')) - Number(read('sectors-before.txt'))) * 512;
    const grew = afterIt.dataUnitsWritten - before.dataUnitsWritten;
    console.log(`NVMe lab: the guest wrote ${written} B; data units written grew by ${grew} (${grew * UNIT} B); ${before.temperatureC} °C`);
    // The emulation's composite temperature: NVME_TEMPERATURE, 0x143 K.
    assert.equal(before.temperatureC, 49.85);
    assert.equal(before.criticalWarning, CRITICAL_WARNING);
    assert.ok(written >= 16 * 2 ** 20, `the run wrote its 16 MiB test file at least (${written} B)`);
    assert.ok(grew >= Math.floor(written / UNIT) && grew <= Math.ceil(written / UNIT), `${grew} units for ${written} B`);
    assert.ok(afterIt.hostWriteCommands > before.hostWriteCommands, 'host write commands grew');

    // The run's own record: the counters before and after it, the host's bytes, the warning.
    const record = JSON.parse(read('run.json')) as RunRecord;
    const drive = record.drive;
    assert.ok(drive && drive.before.protocol === 'nvme' && drive.after?.protocol === 'nvme', JSON.stringify(drive));
    assert.ok(drive.hostBytesWritten !== null && drive.hostBytesWritten >= 16 * 2 ** 20, JSON.stringify(drive));
    const runGrew = drive.after.dataUnitsWritten - drive.before.dataUnitsWritten;
    assert.ok(
      runGrew >= Math.floor(drive.hostBytesWritten / UNIT) && runGrew <= Math.ceil(drive.hostBytesWritten / UNIT),
      `the run: ${runGrew} units for the host's ${drive.hostBytesWritten} B`,
    );
    assert.ok(
      record.warnings.some((w) => w.code === 'drive-critical-warning' && /available spare below its threshold/.test(w.message)),
      JSON.stringify(record.warnings),
    );

    // The flash's own writes: QEMU 7.2's NVMe reports no endurance groups (CTRATT bit 4 clear)
    // and answers Get Log Page C0h with an error, so each reading says "not reported" with what
    // the drive answered, and the run's write amplification says so; nothing is made up.
    for (const [what, h] of [
      ['the helper', before],
      ['health --json', afterIt],
      ['the run, before', drive.before],
      ['the run, after', drive.after],
    ] as const) {
      const m = h.mediaWrites;
      assert.ok(m && m.source === null, `${what}: ${JSON.stringify(m)}`);
      assert.match(
        m.reason,
        /^C0h: Get Log Page C0h: the drive answered status 0x[0-9a-f]+; 09h: the controller reports no endurance groups \(Identify Controller CTRATT bit 4 clear\)$/,
        what,
      );
    }
    console.log(`NVMe lab: flash writes ${JSON.stringify(afterIt.mediaWrites)}`);
    assert.match(
      writeAmplificationText(writeAmplificationDuring(drive)!),
      /^write amplification: not reported \(this drive reports no count of its flash's own writes: C0h: /,
    );
  },
);
