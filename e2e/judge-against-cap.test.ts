import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureUntilWithin, missOf } from './judge-against-cap.ts';

test('only the figures outside their tolerance are measured again, and each keeps its attempt nearest the truth', async () => {
  // Stand-in measurements (this tests the judging, not a device): a is right at once, b on the
  // second attempt, c never (a defect shows in every attempt and still fails).
  const figures: Record<string, number[]> = { a: [150], b: [120, 149], c: [100, 110, 105] };
  const asked: string[][] = [];
  const kept = await measureUntilWithin(
    ['a', 'b', 'c'],
    async (ids) => {
      asked.push(ids);
      return new Map(ids.map((id) => [id, figures[id]!.shift()!]));
    },
    (_id, iops) => missOf(iops, 150, 0.03),
  );
  assert.deepEqual(asked, [['a', 'b', 'c'], ['b', 'c'], ['c']]);
  assert.deepEqual(
    [...kept],
    [
      ['a', 150],
      ['b', 149],
      ['c', 110],
    ],
  );
  assert.ok(missOf(kept.get('c')!, 150, 0.03) > 0, 'c still fails its judge');
});
