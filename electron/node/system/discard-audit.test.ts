// The discard counters of /sys/block/*/stat and the audit's verdict from two readings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StackLayer } from '../../shared/model/machine.ts';
import { blockLayers, judgeAudit, parseDiscardStat, type DiscardCounters } from './discard-audit.ts';

const reading = (ios: number, sectors: number, max: number | null = 4096) => ({
  counters: { ios, merged: 0, sectors, ms: 0 } satisfies DiscardCounters,
  discardMaxBytes: max,
});

// LVM on dm-crypt on a partition of an SSD, the seed's Intel 525 stack.
const STACK: StackLayer[] = [
  { kind: 'file', name: '/home/me', details: { path: '/home/me', type: 'folder' } },
  { kind: 'mount', name: '/home', details: { onlineDiscard: 'on', mountPoint: '/home' }, discardPasses: true },
  { kind: 'lvm', name: 'vg-home', details: { device: 'dm-1' }, discardPasses: true },
  { kind: 'dm-crypt', name: 'luks-1', details: { device: 'dm-0', allow_discards: true }, discardPasses: true },
  { kind: 'partition', name: 'sda2', details: { disk: 'sda' }, discardPasses: true },
  { kind: 'disk', name: 'sda', details: { discardMaxBytes: 2147450880 }, discardPasses: true },
];

describe('discard audit', () => {
  it('reads fields 12–15 of a block stat line; an 11-field line (before Linux 4.18) has none', () => {
    const line =
      ' 13725797   233324 1560087604 12518846  5641452   762937 1945168040  7610483        0  2175016 20451716   269821     3942 503089248   281815    74073    40570';
    assert.deepEqual(parseDiscardStat(line), { ios: 269821, merged: 3942, sectors: 503089248, ms: 281815 });
    assert.equal(parseDiscardStat('1 2 3 4 5 6 7 8 9 10 11'), null);
  });

  it('finds the block layers of a stack with their kernel names and what the tables say', () => {
    assert.deepEqual(
      blockLayers(STACK).map((l) => [l.kind, l.name, l.device, l.tablesSayPasses, l.allowDiscards]),
      [
        ['lvm', 'vg-home', 'dm-1', true, null],
        ['dm-crypt', 'luks-1', 'dm-0', true, true],
        ['partition', 'sda2', 'sda2', true, null],
        ['disk', 'sda', 'sda', true, null],
      ],
    );
  });

  it('allow_discards: discards seen on every layer down to the disk', () => {
    const layers = blockLayers(STACK);
    const audit = judgeAudit(
      layers,
      layers.map(() => reading(10, 100)),
      layers.map(() => reading(25, 131172)),
    );
    assert.deepEqual(
      audit.layers.map((l) => [l.discards, l.bytes, l.reached]),
      layers.map(() => [15, 131072 * 512, true]),
    );
    assert.equal(audit.deepestReached, 'disk sda');
    assert.equal(audit.stoppedAt, null);
    assert.deepEqual(audit.mismatches, []);
  });

  it('without allow_discards: TRIM stops at dm-crypt, as its table says; no mismatch', () => {
    const stack = STACK.map((l) =>
      l.kind === 'dm-crypt' ? { ...l, details: { device: 'dm-0', allow_discards: false }, discardPasses: false } : l,
    );
    const layers = blockLayers(stack);
    // The LVM volume above the crypt inherits its limit of 0, so nothing gets past the filesystem at all.
    const audit = judgeAudit(
      layers,
      layers.map(() => reading(5, 50, 0)),
      layers.map(() => reading(5, 50, 0)),
    );
    assert.equal(audit.deepestReached, null);
    assert.equal(audit.refusedBy, 'dm-crypt luks-1 (dm-0)', 'the crypt refuses; the LVM volume above only inherits its limit');
    assert.deepEqual(audit.mismatches, []);
  });

  it('an HDD: the partition and the disk both take no discards; the disk is where TRIM stops', () => {
    const hdd = blockLayers(STACK.filter((l) => l.kind !== 'lvm' && l.kind !== 'dm-crypt'));
    const audit = judgeAudit(
      hdd,
      hdd.map(() => reading(0, 0, 0)),
      hdd.map(() => reading(0, 0, 0)),
    );
    assert.equal(audit.refusedBy, 'disk sda');
    assert.equal(judgeAudit(blockLayers(STACK), [], []).refusedBy, null, 'every layer takes discards');
  });

  it('tables and counters disagree: called out, naming the layers', () => {
    const layers = blockLayers(STACK);
    // The crypt layer saw discards, the partition below it none, though every table says they pass.
    const before = layers.map(() => reading(0, 0));
    const after = [reading(4, 800), reading(4, 800), reading(0, 0), reading(0, 0)];
    const audit = judgeAudit(layers, before, after);
    assert.equal(audit.deepestReached, 'dm-crypt luks-1 (dm-0)');
    assert.equal(audit.stoppedAt, 'dm-crypt luks-1 (dm-0)');
    assert.deepEqual(audit.mismatches, [
      'dm-crypt luks-1 (dm-0) received discards and its tables say they pass, but partition sda2 received none',
    ]);
    // And the other way: a crypt without allow_discards that received discards.
    const closed = blockLayers(
      STACK.map((l) => (l.kind === 'dm-crypt' ? { ...l, details: { device: 'dm-0', allow_discards: false } } : l)),
    );
    const wrong = judgeAudit(
      closed,
      before,
      layers.map(() => reading(3, 24)),
    );
    assert.ok(wrong.mismatches.some((m) => /no allow_discards for luks-1, yet it received 3 discards/.test(m)));
  });

  it('a driver that counts no discards: "cannot tell", with fstrim\'s bytes; known ones (zram, md) even without fstrim', () => {
    // A dm target on an md array: fstrim trimmed 1 GB through the dm device, whose stat counted none.
    const stack: StackLayer[] = [
      { kind: 'dm', name: 'vg-data', details: { device: 'dm-3' }, discardPasses: true },
      { kind: 'other', name: 'md0', details: {}, discardPasses: true },
    ];
    const layers = blockLayers(stack);
    const zero = layers.map(() => reading(0, 0));
    const audit = judgeAudit(layers, zero, zero, 1_000_000_000);
    assert.equal(audit.deepestReached, null);
    assert.deepEqual(
      audit.layers.map((l) => l.reached),
      [null, null],
    );
    assert.equal(audit.cannotTell?.layer, 'dm vg-data (dm-3)');
    assert.match(audit.cannotTell!.why, /fstrim trimmed 1,000,000,000 bytes through it, yet its \/sys\/block stat counted no discard/);
    assert.deepEqual(audit.cannotTell!.evidence, ['fstrim reported 1,000,000,000 bytes trimmed']);
    assert.match(audit.layers[1]!.uncounted!, /^md counts no discards/);
    // Without fstrim's word, only a driver known not to count is blind: md0 still is; a plain disk's 0 is a 0.
    const noTrim = judgeAudit(layers, zero, zero, null);
    assert.equal(noTrim.layers[0]!.reached, false);
    assert.equal(noTrim.cannotTell?.layer, 'other md0');
    // A queue that refuses discards (limit 0) is no blind driver: its 0 is the truth.
    const refusing = judgeAudit(
      layers,
      zero,
      layers.map(() => reading(0, 0, 0)),
      1_000_000_000,
    );
    assert.equal(refusing.cannotTell, null);
  });
});
