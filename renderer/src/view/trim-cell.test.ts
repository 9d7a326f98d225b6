import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SystemOverview } from '../../../electron/shared/contract/contract.ts';
import { trimCell } from './trim-cell.ts';

const mount = (over: Partial<SystemOverview['mounts'][number]>): SystemOverview['mounts'][number] => ({
  path: '/home',
  device: '/dev/mapper/luks-home',
  fsType: 'ext4',
  options: ['rw'],
  encryptedLayers: ['luks-home'],
  onlineDiscard: 'off',
  trimReachesDisk: true,
  trimSeen: null,
  diskClass: 'SATA SSD',
  ...over,
});
const seen = (deepestReached: string | null, reachedBottom: boolean, stoppedAt: string | null = null, refusedBy: string | null = null) => ({
  at: '2026-11-30T12:00:00.000Z',
  deepestReached,
  stoppedAt,
  refusedBy,
  reachedBottom,
});

describe("Overview's TRIM cell", () => {
  it('an audit that saw the disk: "seen reaching … on DATE", from the counters', () => {
    const cell = trimCell(mount({ trimSeen: seen('disk sda', true) }));
    assert.deepEqual([cell.text, cell.basis], ['seen reaching disk sda on 2026-11-30', 'seen']);
  });

  it('an audit where TRIM stopped: says where, even when the tables claim it passes', () => {
    const cell = trimCell(mount({ trimReachesDisk: true, trimSeen: seen('dm-crypt luks-home', false, 'dm-crypt luks-home') }));
    assert.equal(cell.text, 'seen reaching dm-crypt luks-home on 2026-11-30, stopped below dm-crypt luks-home');
  });

  it('an audit that saw nothing says so with its date, and which layer refuses when one does', () => {
    assert.equal(trimCell(mount({ trimSeen: seen(null, false) })).text, 'no layer saw a discard (audit 2026-11-30)');
    assert.equal(
      trimCell(mount({ trimSeen: seen(null, false, null, 'dm-crypt luks-home (dm-0)') })).text,
      'TRIM stops at dm-crypt luks-home (dm-0), which takes no discards (audit 2026-11-30)',
    );
  });

  it('no audit: the tables’ answer, marked as the tables’, and the command that looks', () => {
    const yes = trimCell(mount({}));
    assert.deepEqual([yes.text, yes.basis], ['yes, by the tables', 'tables']);
    assert.match(yes.hint, /^not yet seen: diskdelta trim-audit \/home \(as root\)/);
    assert.equal(trimCell(mount({ trimReachesDisk: false })).text, 'no, by the tables');
    const unknown = trimCell(mount({ trimReachesDisk: null }));
    assert.deepEqual([unknown.text, unknown.basis], ['unknown', 'unknown']);
  });
});
