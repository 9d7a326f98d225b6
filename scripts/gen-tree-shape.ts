// Writes native/src/tree-shape.h, the worker's table of the tree workload's shape, from the
// shipped shape (assets/workloads/*.tree-shape.json; electron/shared/model/tree-shape.test.ts fails
// when the header is stale).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHIPPED_SHAPE_PATH, readShippedShape } from '../electron/node/bench/tree-shape-file.ts';
import { treeShapeHeader } from '../electron/shared/model/tree-shape.ts';

const path = fileURLToPath(new URL('../native/src/tree-shape.h', import.meta.url));
writeFileSync(path, treeShapeHeader(readShippedShape()));
console.log(`wrote ${path} from ${SHIPPED_SHAPE_PATH}`);
