// The `record` verb: a fanotify recorder of file accesses on one whole filesystem, for "how big
// an SSD cache would serve what I use" (issue 30 item 2; the miss-ratio curve is computed from
// the trace by electron/shared/analysis/lru-curve.ts). Only the fanotify group is privileged
// (fanotify-group.h): this process makes it as root, or takes root's from --fd; for anyone else
// the helper's `record-accesses` holds it and passes back records (access-feed.h). It appends to
// --trace (created 0600; a later run resumes the same file), stops after --seconds or on
// SIGTERM/SIGINT/SIGHUP, and before it ends records what the kernel had already queued, so a
// stop loses nothing that was seen.
#ifndef DD_ACCESS_RECORDER_H
#define DD_ACCESS_RECORDER_H

typedef struct {
  const char *target;  // a folder on the filesystem to record
  const char *trace;
  double seconds;      // 0: until a signal
  unsigned merge_ms;   // a file's touches of one kind within this window are one record
  unsigned fd;         // an inherited fanotify group (0: none)
  const char *helper;
} record_opts_t;

int access_record(const record_opts_t *o);

#endif
