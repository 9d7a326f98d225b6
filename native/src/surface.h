// The surface of a disk (verb `surface`, issue 41 item 3): how fast the device reads from its
// first byte to its last, the way GNOME Disks samples it. At --samples offsets spread evenly
// over the whole device, --sample-bytes are read sequentially in --block reads (O_DIRECT), each
// read timed; then --accesses random 4 KiB reads, timed one at a time, give the access time.
// Read-only always: the device is opened read-only (target.c), here or by the helper. The worker
// only measures: the curve, its zones and the slowest one are the app's (analysis/surface.ts).
#ifndef DD_SURFACE_H
#define DD_SURFACE_H

#include <stdint.h>

#include "target.h"

typedef struct {
  const char *target;      // a block device; anything else is refused before it is opened
  unsigned samples;        // offsets, the first at 0 and the last ending at the device's end
  uint64_t sample_bytes;   // bytes read sequentially at each offset
  uint64_t block;          // bytes per read, a multiple of 4096
  unsigned accesses;       // random small reads for the access time; 0: none
  uint64_t seed;
  target_request_t access; // --fd, --helper or --fd-from: the descriptor when the user cannot open the device
} surface_opts_t;

// Emits hello, one surface-sample line per offset (its reads' times), one surface-access line
// per random read, progress, then done. Returns the exit code.
int surface_scan(const surface_opts_t *o);

#endif
