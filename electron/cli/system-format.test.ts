// The CLI's text views of machine facts (system-format.ts) on the fixture machines of
// core/system/fixtures: every fact is named in words, never by the model's keys.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { listBlockDevices } from '../core/system/index.ts';
import { fieldLabel, formatDevices } from './system-format.ts';

const fixture = (name: string) => ({ root: fileURLToPath(new URL(`../core/system/fixtures/${name}`, import.meta.url)) });

describe('text views name facts in words, never by their keys', () => {
  test('every reason a fixture machine records reads without a camelCase key', async () => {
    for (const machine of ['x201i-ssd-luks', 'nvme-lvm-luks2', 'btrfs-compress', 'usb-exfat', 'zfs']) {
      const text = formatDevices(await listBlockDevices(fixture(machine)));
      const unknown = text.slice(text.indexOf('? unknown:'));
      assert.doesNotMatch(unknown, /^ {2}\S+ [a-z]+[A-Z]\w*:/m, `${machine}: ${unknown}`);
    }
    assert.equal(fieldLabel('onlineDiscard'), 'online discard');
    assert.equal(fieldLabel('someNewField'), 'some new field', 'an unlisted key is split into words');
  });
});
