// The sustained write's cliff finder on streams of known shape: a drive modelled as speeds over
// bytes written, logged in intervals as the worker logs them (sustained.c).
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyzeSustained,
  buyerSentence,
  durationWords,
  intervalsOfSamples,
  listingStep,
  ratePerSpan,
  recoveryOf,
  sustainedCost,
  sustainedCostText,
  sustainedPerSpan,
  SUSTAINED_NOISE_CEILING,
  NOT_JUDGED,
  type SustainedStream,
} from './sustained-write.ts';

const MB = 1e6;

/** A stream through `levels` ([bytes up to which, speed]), the last speed to the end, logged every intervalSec. */
function stream(total: number, levels: Array<[number, number]>, intervalSec = 0.5, noise?: (i: number) => number): SustainedStream {
  const speedAt = (b: number) => levels.find(([upTo]) => b < upTo)?.[1] ?? levels.at(-1)![1];
  const intervals = [];
  let bytes = 0;
  let i = 0;
  let elapsed = 0;
  while (bytes < total) {
    // Integrate the speed over the interval in small steps, so an interval can straddle a cliff.
    let t = 0;
    const start = bytes;
    const factor = noise ? noise(i) : 1;
    while (t < intervalSec && bytes < total) {
      const dt = Math.min(0.001, intervalSec - t);
      bytes = Math.min(total, bytes + speedAt(bytes) * factor * dt);
      t += dt;
    }
    intervals.push({ bytes, intervalBytes: bytes - start, intervalNs: t * 1e9 });
    elapsed += t;
    i++;
  }
  return { bytes, elapsedNs: elapsed * 1e9, restNs: 0, complete: true, intervals };
}

const within = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual / expected - 1) <= tolerance, `${what}: ${actual} vs ${expected} (±${tolerance * 100} %)`);

test('one cliff: the cache size is found inside its interval, not rounded to one, and both speeds exactly', () => {
  // 2 GB at 400 MB/s, then 40 MB/s (the first lab shape), logged twice a second.
  const a = analyzeSustained(
    stream(2.6e9, [
      [2e9, 400 * MB],
      [Infinity, 40 * MB],
    ]),
  );
  assert.equal(a.cliffs.length, 1);
  within(a.cacheBytes!, 2e9, 0.002, 'cache');
  within(a.before.bytesPerSec, 400 * MB, 0.001, 'before');
  within(a.after!.bytesPerSec, 40 * MB, 0.001, 'after');
  // One interval is 200 MB at the fast speed: the interpolation does better than 10 %.
  assert.ok(Math.abs(a.cacheBytes! - 2e9) < 0.2e9 / 20);
});

test('no cliff within the span: cacheBytes null, the speed is the whole stream’s, and the sentence says none ran out', () => {
  const a = analyzeSustained(stream(1e9, [[Infinity, 300 * MB]]));
  assert.equal(a.cacheBytes, null);
  assert.equal(a.after, null);
  within(a.before.bytesPerSec, 300 * MB, 0.001, 'speed');
  assert.match(buyerSentence(a, 1e9), /no cache ran out within the span/);
});

test('two cliffs (SLC, then folding to QLC): both found in order; "after" is the speed between them', () => {
  const a = analyzeSustained(
    stream(8e9, [
      [1e9, 1000 * MB],
      [5e9, 200 * MB],
      [Infinity, 50 * MB],
    ]),
  );
  assert.equal(a.cliffs.length, 2);
  within(a.cliffs[0]!.atBytes, 1e9, 0.01, 'first cliff');
  within(a.cliffs[1]!.atBytes, 5e9, 0.01, 'second cliff');
  within(a.after!.bytesPerSec, 200 * MB, 0.01, 'between the cliffs');
  within(a.cliffs[1]!.afterBytesPerSec, 50 * MB, 0.01, 'after the second');
});

test('noise of ±10 % per interval is not a cliff, and does not move the real one by more than 5 %', () => {
  // A fixed pseudo-random sequence, so the test is the same on every run.
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 0.9 + 0.2 * (seed / 2 ** 31);
  };
  const flat = analyzeSustained(stream(4e9, [[Infinity, 500 * MB]], 0.5, noise));
  assert.equal(flat.cliffs.length, 0, 'noise alone');
  const a = analyzeSustained(
    stream(
      4e9,
      [
        [2.5e9, 500 * MB],
        [Infinity, 100 * MB],
      ],
      0.5,
      noise,
    ),
  );
  assert.equal(a.cliffs.length, 1);
  within(a.cacheBytes!, 2.5e9, 0.05, 'cache under noise');
  assert.ok(a.before.spread! > 0.03 && a.before.spread! < 0.1, `the spread is measured (${a.before.spread})`);
});

test('recovery: the bytes written fast after the rest, from the stream’s time and the two speeds; a stream that stayed fast is a lower bound', () => {
  const fill = stream(3e9, [
    [2e9, 400 * MB],
    [Infinity, 40 * MB],
  ]);
  const again = {
    ...stream(1e9, [
      [300 * MB, 400 * MB],
      [Infinity, 40 * MB],
    ]),
    restNs: 30e9,
  };
  const a = analyzeSustained(fill, again);
  within(a.recovery!.regainedBytes, 300 * MB, 0.01, 'regained');
  assert.equal(a.recovery!.restSec, 30);
  assert.equal(a.recovery!.atLeast, false);
  const stayed = recoveryOf(stream(200 * MB, [[Infinity, 400 * MB]]), 400 * MB, 40 * MB);
  assert.equal(stayed!.atLeast, true);
  within(stayed!.regainedBytes, 200 * MB, 0.001, 'all of the stream');
});

test("the buyer's sentence: the speed after the cache and what a copy ten times the cache takes, against the cache's speed", () => {
  const a = analyzeSustained(
    stream(6e9, [
      [4.1e9, 500 * MB],
      [Infinity, 152 * MB],
    ]),
  );
  assert.equal(buyerSentence(a, 6e9), 'after 4.1 GB this drive writes at 152 MB/s: a 50 GB copy would take 5 min 10 s, not 1 min 40 s');
  assert.deepEqual([durationWords(80), durationWords(260), durationWords(3900)], ['80 s', '4 min 20 s', '1 h 5 min']);
});

test('the interval a cliff falls in is no second cliff: the speed past the cache is taken over the whole slow stretch', () => {
  // The sustained-write lab's fill at 22:00 UTC on 2026-12-01 (load 0.6): QEMU's throttle at
  // 48 MiB/s for 153.4 MiB, then 3 MiB/s; the rates it printed, one per 500 ms interval. The
  // interval of the fall (9.6) beside the first slow one made a 1.25× "cut" of its own, and the
  // speed past the cache came from the single interval between the two cuts.
  const MiB = 2 ** 20;
  const rates = [55.7, 48.1, 48.1, 48.1, 47.9, 47.9, 9.6, 3.0, 2.9, 3.2, 3.0, 2.9, 3.0, 3.2, 2.9, 3.0, 2.9, 3.2, 2.9, 2.9, 2.9];
  let bytes = 0;
  const intervals = rates.map((r) => {
    bytes += r * MiB * 0.5;
    return { bytes, intervalBytes: r * MiB * 0.5, intervalNs: 0.5e9 };
  });
  const a = analyzeSustained({ bytes, elapsedNs: rates.length * 0.5e9, restNs: 0, complete: true, intervals });
  assert.equal(a.cliffs.length, 1, 'one fall');
  assert.equal(a.after!.intervals, 14, 'every interval after the mixed one');
  within(a.after!.bytesPerSec, 3.0 * MiB, 0.02, 'past the cache');
  within(a.before.bytesPerSec, 48 * MiB, 0.01, 'in the cache');
});

const GiB = 2 ** 30;

test('per GiB written: each GiB its rate from the intervals, an interval across a boundary split by its bytes, the last GiB partial', () => {
  // 1.5 GiB at 400 MB/s, then 40 MB/s, to 3.25 GiB; logged every 0.5 s (intervals straddle both the fall and the GiB marks).
  const s = stream(3.25 * GiB, [
    [1.5 * GiB, 400 * MB],
    [Infinity, 40 * MB],
  ]);
  const spans = ratePerSpan(s.intervals);
  assert.deepEqual(
    spans.map((x) => [x.fromBytes / GiB, x.toBytes / GiB]),
    [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 3.25],
    ],
  );
  within(spans[0]!.bytesPerSec, 400 * MB, 0.001, 'GiB 0–1 in the cache');
  // Half at 400 MB/s, half at 40: the time is the sum of both halves' times, not the mean of the rates.
  within(spans[1]!.bytesPerSec, GiB / ((0.5 * GiB) / (400 * MB) + (0.5 * GiB) / (40 * MB)), 0.01, 'GiB 1–2 across the fall');
  within(spans[2]!.bytesPerSec, 40 * MB, 0.001, 'GiB 2–3 past the cache');
  within(spans[3]!.bytesPerSec, 40 * MB, 0.001, 'the partial last quarter');
  // The time adds up to the stream's: nothing is lost or counted twice at a boundary.
  within(
    spans.reduce((n, x) => n + x.seconds, 0),
    s.elapsedNs / 1e9,
    1e-9,
    'seconds',
  );
  // Coarser steps (what `show` lists for a long span) from the same intervals.
  const two = ratePerSpan(s.intervals, 2 * GiB);
  assert.deepEqual(
    two.map((x) => x.toBytes / GiB),
    [2, 3.25],
  );
});

test('per GiB written: an interval that wrote nothing (a stall) counts its time in the GiB it stalled in', () => {
  const spans = ratePerSpan([
    { bytes: GiB / 2, intervalBytes: GiB / 2, intervalNs: 1e9 },
    { bytes: GiB / 2, intervalBytes: 0, intervalNs: 1e9 },
    { bytes: GiB, intervalBytes: GiB / 2, intervalNs: 1e9 },
  ]);
  assert.equal(spans.length, 1);
  assert.equal(spans[0]!.seconds, 3);
  assert.equal(spans[0]!.bytesPerSec, GiB / 3);
});

test('per GiB from a stored result: its samples back to intervals (whole bytes), one list per stream', () => {
  const samples = [
    { tMs: 500, bytesPerSec: 400 * MB, iops: 0 },
    { tMs: 1000, bytesPerSec: 400 * MB, iops: 0 },
    { tMs: 1500, bytesPerSec: 40 * MB, iops: 0 },
  ];
  assert.deepEqual(intervalsOfSamples(samples), [
    { bytes: 200e6, intervalBytes: 200e6, intervalNs: 5e8 },
    { bytes: 400e6, intervalBytes: 200e6, intervalNs: 5e8 },
    { bytes: 420e6, intervalBytes: 20e6, intervalNs: 5e8 },
  ]);
  const run = (n: number) => ({ run: n, samples }) as never;
  const streams = sustainedPerSpan({ test: 'sustained-write', runs: [run(1), run(2)] }, GiB);
  assert.deepEqual(
    streams?.map((x) => [x.stream, x.spans.length]),
    [
      ['fill', 1],
      ['recovery', 1],
    ],
  );
  assert.equal(sustainedPerSpan({ test: 'seq1m-q8t1-write', runs: [] }, GiB), null);
});

test('the listing step: per GiB up to 64 GiB; beyond, the smallest power-of-two GiB step that keeps 64 rows or fewer', () => {
  assert.equal(listingStep(16 * GiB), GiB);
  assert.equal(listingStep(64 * GiB), GiB);
  assert.equal(listingStep(65 * GiB), 2 * GiB);
  // A 1 TB span: 931 GiB in 16 GiB steps, 59 rows, not 931.
  assert.equal(listingStep(1e12), 16 * GiB);
  assert.ok(Math.ceil(1e12 / listingStep(1e12)) <= 64);
});

test('the cost said before it starts: bytes, the time at 500 and 50 MB/s, and the share of the rated endurance where it is known', () => {
  const settings = { sustainedSpanBytes: 16 * GiB, sustainedRecoveryBytes: 0, sustainedRestSec: 30 };
  const known = sustainedCost({ ...settings, ratedEnduranceBytes: 600e12 });
  assert.equal(known.totalBytes, 16 * GiB);
  assert.ok(Math.abs(known.enduranceShare! - (16 * GiB) / 600e12) < 1e-15);
  assert.equal(sustainedCost(settings).enduranceShare, null);
  assert.equal(sustainedCost({ ...settings, ratedEnduranceBytes: 0 }).enduranceShare, null, '0: not given');
  assert.equal(
    sustainedCostText({ ...settings, ratedEnduranceBytes: 600e12 }, 'app'),
    "the sustained write writes 17 GB: about 34 s at 500 MB/s, 5 min 44 s at 50 MB/s. 17 GB is 0.0029 % of the drive's rated write endurance of 600 TB. Stopping it keeps what it measured so far",
  );
  // The recovery is at most the span, and its rest counts in the time.
  assert.equal(
    sustainedCostText({ sustainedSpanBytes: 64e9, sustainedRecoveryBytes: 80e9, sustainedRestSec: 30, ratedEnduranceBytes: 600e12 }, 'cli'),
    "the sustained write writes 64 GB, rests 30 s and writes 64 GB again: about 4 min 46 s at 500 MB/s, 43 min 10 s at 50 MB/s. 128 GB is 0.021 % of the drive's rated write endurance of 600 TB. Stopping it keeps what it measured so far",
  );
  // Not known: said, and how to give it, in each place's own words (the app names no CLI flag).
  const cli = sustainedCostText(settings, 'cli');
  const app = sustainedCostText(settings, 'app');
  assert.match(cli, /17 GB counts against the drive's rated write endurance; what share of it is not known .*--rated-endurance 600TB/);
  assert.match(app, /what share of it is not known .*Rated endurance/);
  assert.doesNotMatch(app, /(^|[\s(`'"])--[a-z]/);
});

/** A stream from its interval rates (MiB/s, one per 500 ms), with the writer's wait for a CPU per interval where given. */
function fromRates(rates: readonly number[], cpuWait?: (i: number) => number): SustainedStream {
  const MiB = 2 ** 20;
  let bytes = 0;
  const intervals = rates.map((r, i) => {
    bytes += r * MiB * 0.5;
    return { bytes, intervalBytes: r * MiB * 0.5, intervalNs: 0.5e9, ...(cpuWait ? { cpuWait: cpuWait(i) } : {}) };
  });
  return { bytes, elapsedNs: rates.length * 0.5e9, restNs: 0, complete: true, intervals };
}

/** ±6 % of `mean` per interval, the same sequence every run (a throttled loop device's 500 ms jitter). */
function jittered(mean: number, n: number, seed = 11): number[] {
  return Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return mean * (0.94 + 0.12 * (seed / 2 ** 31));
  });
}

test('issue 40 item 2: a flat stream that slows for its last 2 intervals has no cache; the fall is set aside as too short', () => {
  // The run: ~38 MiB/s for 935 MiB, then 2 intervals at 30.84 MB/s (29.4 MiB/s) at load ~10.
  const a = analyzeSustained(fromRates([...jittered(38, 49), 29.4, 29.4]));
  assert.equal(a.cacheBytes, null, 'no cache');
  assert.equal(a.cliffs.length, 0);
  assert.deepEqual(
    a.setAside.map((f) => [f.why, f.lastedIntervals]),
    [['short', 2]],
  );
  assert.match(buyerSentence(a, 1e9), /no cache ran out/);
});

test('a dip while other processes take the CPU, the speed coming back after it, is no cache; the CPU use during it is told', () => {
  // Flat 40 MiB/s; intervals 20–39 at 20 MiB/s while the writer waited for a CPU half the time, then 40 again.
  const rates = [...jittered(40, 20), ...jittered(20, 20, 3), ...jittered(40, 10, 5)];
  const a = analyzeSustained(fromRates(rates, (i) => (i >= 20 && i < 40 ? 0.5 : 0.02)));
  assert.equal(a.cacheBytes, null);
  assert.equal(a.setAside.length, 1);
  const [dip] = a.setAside;
  assert.equal(dip!.why, 'dip');
  assert.ok(dip!.cpuWait!.during > 0.45 && dip!.cpuWait!.before < 0.05, JSON.stringify(dip!.cpuWait));
});

test('a fall within the stream’s own noise is no cache: a 1.3× step where the intervals swing ±40 %', () => {
  let seed = 5;
  const swing = (mean: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return mean * (0.6 + 0.8 * (seed / 2 ** 31));
  };
  const rates = [...Array.from({ length: 30 }, () => swing(40)), ...Array.from({ length: 30 }, () => swing(30))];
  const a = analyzeSustained(fromRates(rates));
  assert.equal(a.cacheBytes, null);
  assert.ok(
    a.setAside.every((f) => f.why === 'noise' || f.why === 'short'),
    JSON.stringify(a.setAside.map((f) => f.why)),
  );
});

test('a real fall that lasts keeps its CPU context: the other processes’ use before and during it', () => {
  const rates = [...jittered(48, 12), ...jittered(3, 14)];
  const a = analyzeSustained(fromRates(rates, () => 0.2));
  assert.equal(a.cliffs.length, 1);
  assert.equal(a.setAside.length, 0);
  assert.equal(a.cliffs[0]!.lastedIntervals, 14);
  assert.ok(Math.abs(a.cliffs[0]!.cpuWait!.during - 0.2) < 1e-9);
});

test('a fall that lasts to the end while the writer waited for a CPU is not called a cache; with the CPU free the same fall is one', () => {
  // Flat 40 MiB/s; from interval 30 to the end 20 MiB/s while the writer waited for a CPU half the time (2 % before).
  const rates = [...jittered(40, 30), ...jittered(20, 10, 3)];
  const busy = analyzeSustained(fromRates(rates, (i) => (i >= 30 ? 0.5 : 0.02)));
  assert.equal(busy.cacheBytes, null);
  assert.deepEqual(
    busy.setAside.map((f) => f.why),
    ['busy'],
  );
  const quiet = analyzeSustained(fromRates(rates, () => 0.02));
  assert.equal(quiet.cliffs.length, 1, 'the same fall with the CPUs free');
  assert.equal(quiet.setAside.length, 0);
});

test('intervals in which other processes took the CPU are counted even when they make no fall (the busy lab, CI on fca55f4)', () => {
  // The lab's stream: 20 MiB/s flat; the hogs came at interval 16 and starved every other interval
  // (7, 17, 9.5, 13 MiB/s between 21s): no stretch slow enough to cut, yet a fifth of the speed gone.
  const rates = [...jittered(20, 16), 7.2, 20.9, 17.2, 20.9, 9.5, 20.9, 13.4, 16.2];
  const wait = [0.65, 0, 0.56, 0, 0.93, 0, 0.92, 0];
  const busy = analyzeSustained(fromRates(rates, (i) => (i >= 16 ? wait[i - 16]! : 0.01)));
  assert.equal(busy.cacheBytes, null);
  assert.equal(busy.starved?.count, 4);
  assert.equal(busy.starved?.of, rates.length);
  const MiB = 2 ** 20;
  assert.ok(Math.abs(busy.starved!.bytesPerSec / MiB - (7.2 + 17.2 + 9.5 + 13.4) / 4) < 1e-9, String(busy.starved!.bytesPerSec));
  assert.ok(busy.starved!.elsewhereBytesPerSec! > 1.2 * busy.starved!.bytesPerSec);
  assert.ok(Math.abs(busy.starved!.wait - (0.65 + 0.56 + 0.93 + 0.92) / 4) < 1e-9);
  // The same stream with the CPUs free, or with no wait logged: nothing starved.
  assert.equal(analyzeSustained(fromRates(rates, () => 0.02)).starved, null);
  assert.equal(analyzeSustained(fromRates(rates)).starved, null);
});

describe('the noise rule has a ceiling (a tolerance that grows with the noise it measured)', () => {
  // ±40 % between intervals, and a real fall from 400 to 150 MB/s at 2 GB: 3σ of 400 MB/s at ±40 % is
  // 480 MB/s, more than the fall; the rule alone would set it aside and the stream read "never fell".
  const wild = (i: number) => [1.4, 0.6, 1.25, 0.75, 1.4, 0.6, 1.0, 1.3, 0.7][i % 9]!;
  const noisy = analyzeSustained(
    stream(
      6e9,
      [
        [2e9, 400 * MB],
        [Infinity, 150 * MB],
      ],
      0.5,
      wild,
    ),
  );

  it('past ±25 % a fall set aside as noise leaves the stream not judged, saying why', () => {
    assert.equal(noisy.cacheBytes, null);
    assert.ok(noisy.setAside.some((f) => f.why === 'noise' && f.spread! > SUSTAINED_NOISE_CEILING));
    assert.match(noisy.notJudged ?? '', /^not judged: the write speed varied ±\d+ % between intervals, past the ±25 %/);
  });

  it('a quiet stream is judged: a flat one never fell, a real fall is a cache', () => {
    assert.equal(analyzeSustained(stream(4e9, [[Infinity, 500 * MB]])).notJudged, null);
    const fell = analyzeSustained(
      stream(6e9, [
        [2e9, 400 * MB],
        [Infinity, 150 * MB],
      ]),
    );
    assert.equal(fell.notJudged, null);
    within(fell.cacheBytes!, 2e9, 0.05, 'the cache');
  });
});

test("a not-judged stream's buyer sentence says so, never 'no cache ran out'", () => {
  const speed = { bytesPerSec: 400 * MB, spread: 0.4, intervals: 20 };
  const sentence = buyerSentence({ cacheBytes: null, before: speed, after: null, notJudged: `${NOT_JUDGED}too noisy` }, 6e9);
  assert.equal(sentence, "this drive's fast cache is not judged: too noisy");
});
