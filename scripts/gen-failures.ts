// Writes native/src/failures.h from electron/shared/model/failures.ts, the one list of failure
// and exit codes (electron/shared/model/failures.test.ts fails when the header is stale).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { failuresHeader } from '../electron/shared/model/failures.ts';

const path = fileURLToPath(new URL('../native/src/failures.h', import.meta.url));
writeFileSync(path, failuresHeader());
console.log(`wrote ${path}`);
