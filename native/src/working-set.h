// The `working-set` verb: walk one folder on one mount (getdents64 + statx, as find does, but
// without a path per file) and report when its regular files were last touched, binned by whole
// days, per child folder. No root, reads no file: only directories are opened (O_NOATIME where
// the kernel lets us, so that the scan does not make the folders it lists look recently used).
#ifndef DD_WORKING_SET_H
#define DD_WORKING_SET_H

// Days are binned 0 … WS_DAYS-1; the last bin holds everything older (and "within 365 days"
// stays exact, since WS_DAYS > 365). electron/shared/analysis/working-set.ts reads the same number
// from the scan-start line.
#define WS_DAYS 400

int working_set_scan(const char *target);

#endif
