import { parseDiskMarkText } from "./disk-mark-text.js";
const flavour = {
    format: 'crystaldiskmark',
    tool: 'CrystalDiskMark',
    header(lines, meta) {
        for (const line of lines) {
            const m = /^\s*CrystalDiskMark\s+(.+?)\s+\(C\)/.exec(line);
            if (m && m[1]) {
                meta.header = line.trim();
                return m[1];
            }
        }
        return 'unknown';
    },
};
export function looksLikeCrystalDiskMark(text) {
    return /^\s*CrystalDiskMark\s+\S+/m.test(text.slice(0, 2000)) && /\[(Read|Write)\]/.test(text);
}
export function parseCrystalDiskMarkText(text, fileName) {
    return parseDiskMarkText(text, fileName, flavour);
}
