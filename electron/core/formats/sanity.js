import { ImportError } from "./import-error.js";
function ok(value) {
    return value === null || value === undefined || (Number.isFinite(value) && value >= 0);
}
export function checkRuns(runs, fileName) {
    if (runs.length === 0)
        throw new ImportError(fileName, null, 'the file holds no runs');
    for (const run of runs) {
        if (run.results.length === 0 && run.extras.length === 0) {
            throw new ImportError(fileName, null, `run "${run.label}" holds no results`);
        }
        for (const r of run.results) {
            const numbers = [r.bytesPerSec, r.iops, r.cv, ...Object.values(r.latencyNs ?? {}), r.cpu?.userNs, r.cpu?.systemNs];
            if (!numbers.every(ok) || !r.histogram.every(([b, c]) => ok(b) && ok(c))) {
                throw new ImportError(fileName, null, `test ${r.test}: a value is negative or not a finite number`);
            }
        }
        for (const e of run.extras) {
            if (e.value !== null && !Number.isFinite(e.value)) {
                throw new ImportError(fileName, null, `extra ${e.name}: the value is not a finite number`);
            }
        }
    }
}
