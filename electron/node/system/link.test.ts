import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pcieCeiling, sataCeiling, usbCeiling } from './link.ts';

test('SATA 1.5/3/6 Gb/s carry 150/300/600 MB/s after 8b/10b', () => {
  assert.equal(sataCeiling('1.5 Gbps').bytesPerSec, 150e6);
  assert.equal(sataCeiling('3.0 Gbps\n').bytesPerSec, 300e6);
  assert.equal(sataCeiling('6.0 Gbps').bytesPerSec, 600e6);
  assert.equal(sataCeiling('3.0 Gbps').description, 'SATA 3.0 Gb/s');
});

test('a SATA link that is not up is unknown with a reason, not a guess', () => {
  const ceiling = sataCeiling('<unknown>');
  assert.equal(ceiling.bytesPerSec, null);
  assert.match(ceiling.reason ?? '', /not negotiated/);
});

test("PCIe ceilings follow generation × lanes with each generation's line code", () => {
  assert.equal(pcieCeiling('2.5 GT/s PCIe', '1').bytesPerSec, 250e6);
  assert.equal(pcieCeiling('5.0 GT/s PCIe', '4').bytesPerSec, 2000e6);
  assert.equal(pcieCeiling('8 GT/s', '4').bytesPerSec, Math.round(((8e9 * 128) / 130 / 8) * 4)); // older kernels print "8 GT/s"
  assert.equal(pcieCeiling('16.0 GT/s PCIe', '4').description, 'PCIe 4.0 x4 (16 GT/s)');
  assert.ok(Math.abs(pcieCeiling('16.0 GT/s PCIe', '4').bytesPerSec! - 7.877e9) < 1e6);
  assert.equal(pcieCeiling('Unknown', '4').bytesPerSec, null);
  assert.equal(pcieCeiling('8.0 GT/s PCIe', '0').bytesPerSec, null);
});

test('USB 2 carries 60 MB/s at most, USB 3 5 Gb/s 500 MB/s', () => {
  assert.equal(usbCeiling('480').bytesPerSec, 60e6);
  assert.equal(usbCeiling('5000').bytesPerSec, 500e6);
  assert.equal(usbCeiling('10000').bytesPerSec, Math.round((10e9 * 128) / 132 / 8));
  assert.equal(usbCeiling('123').bytesPerSec, null);
});
