// DiskDelta's own export format: {"format": "diskdelta-results", "version": 1, "runs": [RunRecord…]}.
// Every field of RunRecord is kept (raw units: bytes/s, IOPS, ns), so export → import gives
// the same numbers. Library ids are not exported: the importing library gives new ones.
// The version is bumped only when a field changes meaning; readers refuse newer versions
// instead of guessing.
import { z } from 'zod';
import { ImportError } from "./import-error.js";
import { lineOfPath, parseJsonChecked } from "./json-scan.js";
export const DISKDELTA_FORMAT = 'diskdelta-results';
export const DISKDELTA_FORMAT_VERSION = 1;
const count = z.number().nonnegative();
const nullableCount = count.nullable();
const latency = z.strictObject({
    mean: nullableCount, p50: nullableCount, p90: nullableCount, p99: nullableCount, p999: nullableCount, max: nullableCount,
});
const warning = z.strictObject({ code: z.string().max(200), message: z.string().max(10_000) });
const cpu = z.strictObject({ userNs: count, systemNs: count });
const params = z.strictObject({
    rw: z.enum(['read', 'write', 'randread', 'randwrite', 'randrw', 'seeks']),
    blockSize: z.number().int().positive(),
    queueDepth: z.number().int().positive(),
    threads: z.number().int().positive(),
    readPercent: z.number().min(0).max(100).optional(),
});
const measurement = z.strictObject({
    run: z.number().int().positive(),
    bytesPerSec: count,
    iops: count,
    latencyNs: latency,
    elapsedNs: count,
    ios: count,
    bytes: count,
    cpu,
    samples: z.array(z.strictObject({ tMs: count, bytesPerSec: count, iops: count })),
});
const testResult = z.strictObject({
    test: z.string().min(1).max(200),
    params: params.nullable(),
    bytesPerSec: nullableCount,
    iops: nullableCount,
    latencyNs: latency.nullable(),
    best: z.strictObject({ bytesPerSec: nullableCount, iops: nullableCount }).nullable(),
    cv: nullableCount,
    runs: z.array(measurement),
    histogram: z.array(z.tuple([count, count])),
    cpu: cpu.nullable(),
    underResolved: z.boolean(),
    warnings: z.array(warning),
});
const device = z.strictObject({
    name: z.string(),
    model: z.string().nullable(),
    serial: z.string().nullable(),
    sizeBytes: nullableCount,
    rotational: z.boolean().nullable(),
    class: z.enum(['HDD', 'SATA SSD', 'NVMe SSD', 'USB', 'virtual', 'RAM', 'loop', 'unknown']),
    transport: z.string().nullable(),
    linkCeilingBytesPerSec: nullableCount,
    linkDescription: z.string().nullable(),
});
const stackLayer = z.strictObject({
    kind: z.enum(['file', 'mount', 'dm-crypt', 'lvm', 'dm', 'partition', 'loop', 'disk', 'other']),
    name: z.string(),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    encrypted: z.boolean().optional(),
    discardPasses: z.boolean().nullable().optional(),
});
const runRecord = z.strictObject({
    label: z.string().max(1000),
    notes: z.string().max(100_000),
    createdAt: z.string().max(100),
    source: z.enum(['measured', 'imported', 'reference']),
    sourceFormat: z.enum(['diskdelta', 'bonnie++', 'fio', 'kdiskmark', 'crystaldiskmark']),
    sourceMeta: z.record(z.string(), z.string()),
    target: z.strictObject({
        path: z.string(),
        kind: z.enum(['folder', 'block-device', 'unknown']),
        device: device.optional(),
        stack: z.array(stackLayer).optional(),
    }),
    system: z
        .strictObject({
        kernel: z.string().nullable(),
        cpuModel: z.string().nullable(),
        cores: nullableCount,
        cryptoFlags: z.array(z.string()),
        memoryBytes: nullableCount,
    })
        .optional(),
    settings: z.strictObject({
        preset: z.string().optional(),
        sizeBytes: count.optional(),
        durationSec: count.optional(),
        warmupSec: count.optional(),
        runs: count.optional(),
        buffered: z.boolean().optional(),
    }),
    engine: z.strictObject({ name: z.string(), version: z.string(), ioEngine: z.string().optional() }),
    results: z.array(testResult),
    extras: z.array(z.strictObject({ name: z.string(), value: z.number().nullable(), unit: z.string(), note: z.string().optional() })),
    warnings: z.array(warning),
});
const document = z.strictObject({
    format: z.literal(DISKDELTA_FORMAT),
    version: z.literal(DISKDELTA_FORMAT_VERSION),
    runs: z.array(runRecord).min(1),
});
export function looksLikeDiskDeltaJson(text) {
    return /^\s*\{\s*"format"\s*:\s*"diskdelta-results"/.test(text);
}
/** Fields in a fixed order, so two exports of the same runs are the same text. */
function canonical(run) {
    const { id: _id, label, notes, createdAt, source, sourceFormat, sourceMeta, target, system, settings, engine, results, extras, warnings, ...rest } = run;
    return { label, notes, createdAt, source, sourceFormat, sourceMeta, target, system, settings, engine, results, extras, warnings, ...rest };
}
export function exportJson(runs) {
    const stripped = runs.map(canonical);
    return `${JSON.stringify({ format: DISKDELTA_FORMAT, version: DISKDELTA_FORMAT_VERSION, runs: stripped }, null, 2)}\n`;
}
/** The runs exactly as stored in the file (source and sourceFormat untouched), validated. */
export function parseDiskDeltaJson(text, fileName) {
    const data = parseJsonChecked(text, fileName);
    const version = data?.version;
    if (typeof version === 'number' && version > DISKDELTA_FORMAT_VERSION) {
        throw new ImportError(fileName, lineOfPath(text, ['version']), `written by a newer DiskDelta (format version ${version}); this one reads version ${DISKDELTA_FORMAT_VERSION}`);
    }
    const parsed = document.safeParse(data);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = (issue?.path ?? []).filter((p) => typeof p !== 'symbol');
        const where = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') || 'the top';
        throw new ImportError(fileName, lineOfPath(text, path), `${issue?.message ?? 'invalid document'} (at ${where})`);
    }
    return parsed.data.runs;
}
