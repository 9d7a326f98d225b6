import { parseDiskMarkText } from "./disk-mark-text.js";
const flavour = {
    format: 'kdiskmark',
    tool: 'KDiskMark',
    header(lines, meta) {
        let version = 'unknown';
        for (const line of lines) {
            const k = /KDiskMark(?:\s*\(([^)]*)\))?\s*:\s*https?:\/\/\S+/.exec(line);
            if (k) {
                meta.header = line.trim();
                if (k[1])
                    version = k[1];
            }
            const f = /Flexible I\/O Tester\s*\(([^)]*)\)/.exec(line);
            if (f && f[1])
                meta.fio = f[1];
        }
        return version;
    },
};
export function looksLikeKDiskMark(text) {
    return /KDiskMark.*https?:\/\/github\.com\/JonMagon\/KDiskMark/i.test(text.slice(0, 2000));
}
export function parseKDiskMarkText(text, fileName) {
    const runs = parseDiskMarkText(text, fileName, flavour);
    for (const run of runs) {
        // Which of the two layouts this was, from the Test line (only 3.x has "Measure:").
        run.sourceMeta.layout = /Measure:/.test(run.sourceMeta.Test ?? '') ? 'KDiskMark 3.x' : 'KDiskMark 2.x';
    }
    return runs;
}
