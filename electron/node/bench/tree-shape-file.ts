// The tree shape DiskDelta ships (scripts/derive-tree-shape.ts made it from a real release).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TreeShape } from '../../shared/model/tree-shape.ts';

export const SHIPPED_SHAPE_PATH = fileURLToPath(new URL('../../../assets/workloads/linux-6.1.192.tree-shape.json', import.meta.url));

export function readShippedShape(): TreeShape {
  return JSON.parse(readFileSync(SHIPPED_SHAPE_PATH, 'utf8')) as TreeShape;
}
