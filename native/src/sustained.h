// The sustained write (verb `sustained`): one sequential stream of writes into a new test file,
// long enough to fill a drive's fast (SLC) cache and go past it, the rate logged every interval;
// then, after an idle rest, a second stream from the start of the file shows how much of the
// cache came back. The worker only measures: finding the cliff is the app's (analysis/).
#ifndef DD_SUSTAINED_H
#define DD_SUSTAINED_H

#include <stdint.h>

typedef struct {
  const char *target;  // a folder; a block device is refused (this writes)
  uint64_t size;       // bytes of the first stream (the test file's size)
  uint64_t block;      // bytes per write, a multiple of 4096
  unsigned depth;      // writes in flight: one thread each, taking the next block of one stream
  unsigned sample_ms;  // one sustained-sample line per interval
  double rest;         // idle seconds before the recovery stream
  uint64_t recovery;   // bytes of the recovery stream, from the file's start; 0: none
  uint64_t seed;
} sustained_opts_t;

// Emits hello, sustained-sample, progress and one sustained-phase line per stream (also for a
// stream cut short by a stop signal, so that what was measured is kept), then done. Returns the
// exit code.
int sustained_write(const sustained_opts_t *o);

#endif
