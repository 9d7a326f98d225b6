// See surface.h. Offsets are aligned down to --block (itself a multiple of the device's
// logical block), so every read is a valid O_DIRECT read of the device.
#include "surface.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ndjson.h"
#include "util.h"

extern volatile sig_atomic_t g_stop;

static void emit_hello(const surface_opts_t *o, const target_t *t) {
  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_i64(&b, "pid", getpid());
  jb_str(&b, "engine", "psync");
  jb_str(&b, "target", o->target);
  jb_str(&b, "kind", "block-device");
  jb_str(&b, "fs", t->fs_type);
  jb_str(&b, "file", NULL);
  jb_u64(&b, "size", t->size);
  jb_bool(&b, "direct", t->direct);
  jb_u64(&b, "jobs", 1);
  jb_end_emit(&b);
}

// One pread of exactly len bytes at off, timed. Returns ns, or 0 with errno-like *err set.
static uint64_t timed_read(int fd, void *buf, uint64_t len, uint64_t off, int *err) {
  uint64_t t0 = now_ns();
  ssize_t got = pread(fd, buf, len, (off_t)off);
  uint64_t t1 = now_ns();
  if (got != (ssize_t)len) {
    *err = got < 0 ? errno : EIO;
    return 0;
  }
  return t1 > t0 ? t1 - t0 : 1;
}

// A read that failed: where, why, and what to look at next (a bad sector is the usual cause).
static int read_failed(const surface_opts_t *o, uint64_t at, int err) {
  return emit_failure(FAIL_IO_ERROR,
                      "surface: reading %s at byte %llu failed: %s. The disk may have a bad sector there: "
                      "diskdelta health %s reads its counters",
                      o->target, (unsigned long long)at, strerror(err), o->target);
}

// One sample's line, built as its reads are timed: each read's time goes straight into it.
static int read_sample(int fd, void *buf, const surface_opts_t *o, unsigned index, uint64_t off, uint64_t len) {
  unsigned reads = (unsigned)(len / o->block);
  jbuf_t b;
  jb_begin(&b, "surface-sample");
  jb_u64(&b, "index", index);
  jb_u64(&b, "offset", off);
  jb_u64(&b, "bytes", len);
  jb_key(&b, "read_ns");
  jb_raw(&b, "[");
  uint64_t total = 0;
  for (unsigned r = 0; r < reads; r++) {
    int err = 0;
    uint64_t ns = timed_read(fd, buf, o->block, off + (uint64_t)r * o->block, &err);
    if (!ns) {
      free(b.buf);  // never emitted
      return read_failed(o, off + (uint64_t)r * o->block, err);
    }
    total += ns;
    char num[24];
    snprintf(num, sizeof num, "%s%llu", r ? "," : "", (unsigned long long)ns);
    jb_raw(&b, num);
  }
  jb_raw(&b, "]");
  jb_u64(&b, "ns", total);
  jb_end_emit(&b);
  return 0;
}

int surface_scan(const surface_opts_t *o) {
  if (o->block % 4096 != 0 || o->sample_bytes % o->block != 0) {
    int rc = emit_failure(FAIL_USAGE, "surface: --block must be a multiple of 4096 and --sample-bytes a multiple of --block");
    return emit_end(rc, 0, "nothing was read");
  }
  target_request_t req = o->access;
  req.size = UINT64_MAX / 2;  // the whole device (target.c keeps it to whole MiB)
  req.needs_write = 0;
  req.device_only = 1;  // a folder is refused in target_open, before a test file could be made there
  target_t t;
  int rc = target_open(&t, o->target, &req);
  if (rc) {
    target_close(&t);
    return emit_end(rc, 0, "nothing was read");
  }
  uint64_t len = o->sample_bytes < t.size ? o->sample_bytes : t.size - t.size % o->block;
  if (len < o->block) {
    uint64_t size = t.size;
    target_close(&t);
    // The read size comes from --sample-bytes: a smaller one fits (down to 4 KiB), else another disk.
    return emit_end(emit_failure(FAIL_USAGE,
                                 "surface: %s holds %llu bytes, less than one read of %llu: give a smaller --sample-bytes "
                                 "(a multiple of 4 KiB, at most the device's size), or another disk",
                                 o->target, (unsigned long long)size, (unsigned long long)o->block),
                    0, "nothing was read");
  }
  emit_hello(o, &t);
  void *buf = NULL;
  if (posix_memalign(&buf, 4096, o->block) != 0) {
    target_close(&t);
    return emit_end(emit_failure(FAIL_INTERNAL, "surface: cannot allocate a read buffer"), 0, "nothing was read");
  }
  uint64_t access_bytes = 4096;
  uint64_t total = (uint64_t)o->samples * len + (uint64_t)o->accesses * access_bytes, done = 0;
  uint64_t last = t.size - len;  // the last sample ends at the device's (whole-MiB) end
  for (unsigned i = 0; i < o->samples && rc == 0 && !g_stop; i++) {
    uint64_t off = o->samples > 1 ? (uint64_t)((unsigned __int128)last * i / (o->samples - 1)) : 0;
    off -= off % o->block;
    rc = read_sample(t.fd, buf, o, i, off, len);
    done += len;
    emit_byte_progress("measure", 1, done, total);
  }
  rng_t r;
  rng_seed(&r, o->seed);
  uint64_t blocks = t.size / access_bytes;
  for (unsigned i = 0; i < o->accesses && rc == 0 && !g_stop; i++) {
    uint64_t off = rng_below(&r, blocks) * access_bytes;
    int err = 0;
    uint64_t ns = timed_read(t.fd, buf, access_bytes, off, &err);
    if (!ns) {
      rc = read_failed(o, off, err);
      break;
    }
    jbuf_t b;
    jb_begin(&b, "surface-access");
    jb_u64(&b, "offset", off);
    jb_u64(&b, "bytes", access_bytes);
    jb_u64(&b, "ns", ns);
    jb_end_emit(&b);
    done += access_bytes;
    if (i % 16 == 15) emit_byte_progress("measure", 1, done, total);
  }
  free(buf);
  target_close(&t);
  return emit_end(rc, g_stop, "nothing was written (read-only)");
}
