// The CLI's text views of machine facts (system-format.ts) on the fixture machines of
// node/system/fixtures: every fact is named in words, never by the model's keys.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { listBlockDevices } from '../node/system/index.ts';
import { fieldLabel, formatDevices, formatSystem } from './system-format.ts';
import { layerLine } from '../shared/report/stack-text.ts';

const fixture = (name: string) => ({ root: fileURLToPath(new URL(`../node/system/fixtures/${name}`, import.meta.url)) });

describe('text views name facts in words, never by their keys', () => {
  test('every reason a fixture machine records reads without a camelCase key', async () => {
    for (const machine of ['x201i-ssd-luks', 'nvme-lvm-luks2', 'btrfs-compress', 'usb-exfat', 'zfs']) {
      const text = formatDevices(await listBlockDevices(fixture(machine)));
      const unknown = text.slice(text.indexOf('unknown, and why:'));
      assert.doesNotMatch(unknown, /^ {2}\S+ [a-z]+[A-Z]\w*:/m, `${machine}: ${unknown}`);
    }
    assert.equal(fieldLabel('onlineDiscard'), 'online discard');
    assert.equal(fieldLabel('someNewField'), 'some new field', 'an unlisted key is split into words');
  });
});

/** A "?" standing for a fact: alone, or before a slash or a closing bracket ("? cores", "?/512 B"). */
const QUESTION_MARK = /(^|[\s(/])\?($|[\s/),])/m;

describe('an unknown machine fact is said in words, never as "?"', () => {
  test('the devices table of every fixture machine', async () => {
    for (const machine of ['x201i-ssd-luks', 'nvme-lvm-luks2', 'btrfs-compress', 'usb-exfat', 'zfs']) {
      const text = formatDevices(await listBlockDevices(fixture(machine)));
      assert.doesNotMatch(text, QUESTION_MARK, `${machine}:\n${text}`);
    }
  });

  test('a disk layer with nothing but its class and size (the report said "virtual via virtio ? 256 GiB link ? ceiling ?")', () => {
    const line = layerLine({
      kind: 'disk',
      name: 'vda',
      details: { class: 'virtual', transport: 'virtio', sizeBytes: 256 * 2 ** 30 },
      linkCeilingBytesPerSec: null,
    });
    assert.equal(line, 'disk       vda  virtual via virtio  model unknown  256 GiB  link speed unknown, no known ceiling');
    for (const layer of [
      { kind: 'mount', name: '/', details: {} },
      { kind: 'dm-crypt', name: 'luks', details: {}, discardPasses: null },
      { kind: 'lvm', name: 'vg-root', details: {} },
      { kind: 'loop', name: 'loop0', details: {} },
      { kind: 'partition', name: 'sda1', details: {} },
      { kind: 'disk', name: 'sda', details: {} },
    ] as const)
      assert.doesNotMatch(layerLine({ ...layer, details: { ...layer.details } }), QUESTION_MARK, layer.kind);
  });

  test('the machine with nothing read: CPU, memory, kernel and the fstrim timer in words', () => {
    const text = formatSystem({ kernel: null, cpuModel: null, cores: null, threads: null, cryptoFlags: [], memoryBytes: null });
    assert.doesNotMatch(text, QUESTION_MARK, text);
    assert.match(text, /CPU {8}model unknown, cores unknown \/ threads unknown/);
    assert.match(text, /fstrim {5}whether fstrim\.timer is enabled is unknown/);
  });
});
