// A bounded run of the command-line fuzzer (argv.fuzz.ts); `npm run fuzz` runs it for minutes.
import { test } from 'node:test';
import fc from 'fast-check';
import { FUZZ_WORKER, workerArgv } from './argv.fuzz.ts';

test(`random command lines end in a documented exit code with protocol JSON and no sanitizer report (${FUZZ_WORKER.split('/').pop()})`, () => {
  fc.assert(workerArgv, { numRuns: 150 });
});
