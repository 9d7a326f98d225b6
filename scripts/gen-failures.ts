// Writes native/src/failures.h from electron/core/model/failures.ts, the one list of failure
// and exit codes (electron/core/model/failures.test.ts fails when the header is stale).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { failuresHeader } from '../electron/core/model/failures.ts';

const path = fileURLToPath(new URL('../native/src/failures.h', import.meta.url));
writeFileSync(path, failuresHeader());
console.log(`wrote ${path}`);
