// Workloads: timed file-system work a person feels (fio's filecreate/filedelete engines, the
// seed's "extract the kernel, sync; delete it, sync"), each phase reported in seconds.
//   tree       write a source tree of a real release's shape (tree-shape.h), syncfs; delete it, syncfs;
//              or, with --tarball, extract the user's own tarball with tar(1) (decompression
//              included, as the seed's "unpack the kernel" was), syncfs; delete it, syncfs
//   bigfile    write one large file, syncfs; delete it, syncfs
//   app-start  N readers at once, each reading its own program-like file set from a cold cache
// Everything lives in one folder `.diskdelta-PID-TAG.tmp` under the target, locked while in use,
// removed on every exit path; a folder left by a killed run is removed by the next run
// (sweep_stale_files).
#ifndef DD_WORKLOAD_H
#define DD_WORKLOAD_H

#include <stdint.h>

typedef struct {
  const char *target;     // the folder to work in
  unsigned runs;          // timed repeats
  unsigned warmup_passes; // untimed repeats first
  uint64_t tree_files;    // tree: files (default: the release's)
  uint64_t tree_bytes;    // tree: bytes (default: the release's)
  uint64_t size;          // bigfile: bytes (shrunk to what fits, warned)
  unsigned readers;       // app-start: concurrent readers
  const char *app_mix;    // app-start: "program" or "small" (4 KiB files: one I/O each)
  unsigned app_files;     // app-start: files per reader ("small"); 0: the mix's own
  const char *helper;     // app-start, not root: `pkexec HELPER drop-caches`
  int pause;              // tree: after each write phase, wait for a line on stdin (harnesses inspect the tree)
  const char *tarball;    // tree: extract this tarball with tar(1) instead of writing the shape
} workload_opts_t;

int workload_tree(const workload_opts_t *o);
int workload_bigfile(const workload_opts_t *o);
int workload_app_start(const workload_opts_t *o);

#endif
