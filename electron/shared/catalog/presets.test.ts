// The defaults tell the HDD → SSD story or say how: every rate preset without seeks says so,
// and names the preset that has them, in the CLI's --help and beside the app's preset choice.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { PRESET_NAMES } from '../model/spec.ts';
import { DEFAULT_PRESET, PRESETS, presetStoryGap } from './presets.ts';
import { describePreset } from '../../../renderer/src/view/new-run-form.ts';
import { runCli } from '../../cli/run-cli-in-process.ts';

it('every rate preset without seeks says so and names one with them; presets with seeks say nothing', () => {
  for (const name of PRESET_NAMES) {
    const gap = presetStoryGap(name);
    const hasSeeks = PRESETS[name].tests.includes('seeks');
    if (hasSeeks || PRESETS[name].durationSec === 0) assert.equal(gap, null, name);
    else {
      assert.match(gap ?? '', /no seeks: .*full preset/, name);
      assert.ok(PRESETS.full.tests.includes('seeks'), 'the preset it names has them');
    }
  }
  // The two defaults (the CLI's, the app form's first choice) both lack seeks: both must say it.
  assert.notEqual(presetStoryGap(DEFAULT_PRESET), null);
  assert.notEqual(presetStoryGap('quick'), null);
});

it("the app's preset description and the CLI's --help carry it", async () => {
  assert.match(describePreset('quick'), /no seeks: for the HDD → SSD story/);
  assert.doesNotMatch(describePreset('full'), /no seeks/);
  const help = (await runCli(['run', '--help'])).stdout.replace(/\s+/g, ' ');
  assert.match(help, new RegExp(`\\(default ${DEFAULT_PRESET}\\)`));
  assert.match(
    help,
    /standard the 8-test grid of CrystalDiskMark's default settings; DiskDelta's adaptive runs and their median, not CrystalDiskMark's best of 3 × 5 s; no seeks: for the HDD → SSD story's seek figure choose the full preset/,
  );
});
