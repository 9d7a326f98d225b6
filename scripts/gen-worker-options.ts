// Writes native/src/worker-options.h from electron/shared/model/worker-options.ts, the one table of
// the worker's verbs and options (electron/shared/model/worker-options.test.ts fails when the header is stale).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerOptionsHeader } from '../electron/shared/model/worker-options.ts';

const path = fileURLToPath(new URL('../native/src/worker-options.h', import.meta.url));
writeFileSync(path, workerOptionsHeader());
console.log(`wrote ${path}`);
