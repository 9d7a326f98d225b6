// #42's lab, "the count of cache overruns exact for a scripted burst pattern": in a QEMU guest (e2e/
// dm-crypt-lab.ts boots it) whose /dev/vda is a disk of its own (the host's disks are shared and
// busy, and the write counters leave loop devices out), a disk run gives the forecast its current
// disk, then bursts of known sizes are written with `diskdelta write-volume` samples between them,
// and `diskdelta forecast` — the product, on the library the guest kept — must count exactly the
// intervals and those over the candidate's fast cache that the script wrote.
//
// Nothing else may flip an interval: the library lives on the guest's tmpfs (its sqlite writes are
// not vda's), mkfs initialises its tables and journal at once (no lazy init writing later), and
// the bursts sit 20 MB or more either side of the cache. The premise is asserted too: each
// burst's interval counted at least the burst's bytes. Every interval's count is printed. One boot.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { guestFiles, labKernelOrReason, labModprobe, runInGuest, type GuestResult } from './dm-crypt-lab.ts';
import { AGAIN_IF_NODE_DIED, guestDiskdelta } from './lab-node-death.ts';
import { openLibrary } from '../electron/node/store/library.ts';
import { EXAMPLE_CANDIDATE } from '../electron/shared/model/candidate.ts';
import type { Forecast } from '../electron/shared/analysis/candidate-forecast.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DD = guestDiskdelta(REPO);
const MiB = 2 ** 20;
const LAB_OUT = join(REPO, 'test-results', 'lab');
/** The candidate's fast cache: 64 MB (the spec sheet's decimal GB). */
const CACHE_GB = 0.064;
const CACHE_BYTES = CACHE_GB * 1e9;
/** The scripted bursts, MiB each, in order: 21 and 41.9 MB under the cache, 100.7 and 83.9 MB over it. */
const BURSTS_MIB = [20, 96, 40, 80];
const RUN_FILE = 16 * MiB;

const { kernel, reason } = labKernelOrReason();
const guests: GuestResult[] = [];
after(() => {
  for (const g of guests) g.dispose();
});

test("forecast counts exactly the scripted write bursts over the candidate's fast cache", { timeout: 960_000 }, async (t) => {
  if (reason || !kernel) return t.skip(reason ?? 'no lab kernel');
  const spec = { ...EXAMPLE_CANDIDATE, name: 'Lab candidate, 64 MB cache', fastCache: { sizeGB: CACHE_GB, writeMBpsPastCache: 100 } };
  // The run's save takes the first sample (save-measured.ts); then one sample before the bursts
  // and one after each: intervals = 1 (the run's sample to the first, no burst) + one per burst.
  const bursts = BURSTS_MIB.map(
    (
      mib,
      i,
    ) => `dd if=/dev/zero of=/run/vda/burst${i + 1} bs=1M count=${mib} conv=fsync 2> burst${i + 1}.err; echo $? > burst${i + 1}.rc; sync
sample ${i + 1}`,
  ).join('\n');
  const script = `DD='${DD}'
DB=/run/lab.sqlite
step() { echo "$(cut -d' ' -f1 /proc/uptime) s: $*" >> steps.txt; }
${AGAIN_IF_NODE_DIED}
sample() {
  step "sample $1"
  again_if_node_died $DD write-volume --db $DB --json > sample$1.json 2> sample$1.err; echo $? > sample$1.rc
}
${labModprobe(kernel, ['ext4'])}
cat > spec.json << 'EOF'
${JSON.stringify(spec, null, 2)}
EOF
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard /dev/vda
mkdir -p /run/vda && mount -o noatime /dev/vda /run/vda && mkdir /run/vda/t && sync
step run
again_if_node_died $DD run --target /run/vda/t --tests seq1m-q8t1-read --size ${RUN_FILE / MiB}MiB --duration 1 --warmup 0 --runs 1 \\
  --label 'lab vda' --db $DB --json > run.json 2> run.err; echo $? > run.rc
sync
sample 0
${bursts}
step forecast
again_if_node_died $DD forecast --candidate spec.json --json --db $DB > forecast.json 2> forecast.err; echo $? > forecast.rc
cp $DB lab.sqlite
cat /proc/diskstats > diskstats.txt
step done
`;
  const g = await runInGuest(kernel, {
    diskBytes: 512 * MiB,
    memoryMiB: 1024,
    timeoutMs: Number(process.env['DISKDELTA_LAB_TIMEOUT_MS'] ?? 900_000),
    script,
  });
  guests.push(g);
  const { read, context } = guestFiles(g);
  assert.equal(g.status, 0, `the guest ran the script to the end; ${context}`);
  // The samples are not run again on a Node death: a second sample would split an interval.
  const steps = ['run', ...BURSTS_MIB.map((_, i) => `burst${i + 1}`), 'sample0', ...BURSTS_MIB.map((_, i) => `sample${i + 1}`), 'forecast'];
  for (const step of steps)
    assert.equal(read(`${step}.rc`).trim(), '0', `${step}: exit status; stderr:\n${read(`${step}.err`)}\n${context}`);

  // The samples the guest's library kept of vda, in order, and the bytes of each interval.
  const library = openLibrary({ dbPath: join(g.share, 'lab.sqlite'), readOnly: true });
  const samples = library
    .writeSamples()
    .filter((s) => s.disk === 'vda')
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  library.close();
  assert.equal(samples.length, BURSTS_MIB.length + 2, `one sample by the run's save, then ${BURSTS_MIB.length + 1}; ${context}`);
  assert.equal(new Set(samples.map((s) => s.bootId)).size, 1, 'one boot');
  const counted = samples.slice(1).map((s, i) => s.bytesWritten - samples[i]!.bytesWritten);
  const scripted = [0, ...BURSTS_MIB.map((m) => m * MiB)];
  const lines = counted.map(
    (bytes, i) =>
      `interval ${i + 1}: ${i === 0 ? 'no burst (the run saved → first sample)' : `burst of ${BURSTS_MIB[i - 1]} MiB (${((BURSTS_MIB[i - 1]! * MiB) / 1e6).toFixed(1)} MB)`}, counted ${(bytes / 1e6).toFixed(3)} MB (${bytes} bytes; ${((bytes - scripted[i]!) / 1e6).toFixed(3)} MB besides the burst)`,
  );
  console.log([`cache ${CACHE_BYTES / 1e6} MB; guest: in all ${(g.totalMs / 1000).toFixed(0)} s`, ...lines].join('\n'));
  mkdirSync(LAB_OUT, { recursive: true });
  writeFileSync(join(LAB_OUT, 'forecast-bursts.txt'), `${lines.join('\n')}\n`);
  // The premise: each interval counted at least what the script wrote in it.
  for (const [i, bytes] of counted.entries())
    assert.ok(bytes >= scripted[i]!, `interval ${i + 1} counted ${bytes} bytes, under the ${scripted[i]} the script wrote`);

  const forecast = JSON.parse(read('forecast.json')) as Forecast;
  assert.equal(forecast.current.name, 'vda', 'the forecast is of the guest disk the bursts went to');
  const verdict = forecast.candidates[0]?.bursts;
  assert.ok(verdict && 'intervals' in verdict, `a burst verdict: ${JSON.stringify(verdict)}`);
  console.log(`forecast: ${verdict.sentence}`);
  const over = scripted.filter((b) => b > CACHE_BYTES).length;
  assert.equal(verdict.intervals, BURSTS_MIB.length + 1, `every interval between the kept samples:\n${lines.join('\n')}`);
  assert.equal(verdict.overrunning, over, `the intervals the script wrote past the cache, no more:\n${lines.join('\n')}`);
});
