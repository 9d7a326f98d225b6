#include "job.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text-append.h"

const pattern_def_t PATTERNS[] = {
    {.name = "read", .rw = RW_READ, .random = 0, .may_write = 0, .help = "sequential read"},
    {.name = "write", .rw = RW_WRITE, .random = 0, .may_write = 1, .help = "sequential write, fsync inside the timed window"},
    {.name = "randread", .rw = RW_RANDREAD, .random = 1, .may_write = 0, .help = "random read"},
    {.name = "randwrite", .rw = RW_RANDWRITE, .random = 1, .may_write = 1, .help = "random write, fsync inside the timed window"},
    {.name = "randrw", .rw = RW_RANDRW, .random = 1, .may_write = 1, .help = "mixed random read/write (read=PCT)"},
    {.name = "seeks", .rw = RW_SEEKS, .random = 1, .may_write = 1,
     .help = "bonnie++ Random Seeks: 8 KiB reads at random offsets, every 10th block rewritten, time-bounded"},
};
const unsigned PATTERN_COUNT = sizeof PATTERNS / sizeof PATTERNS[0];

void job_next_io(thread_ctx_t *t, uint64_t *offset, int *is_write) {
  const job_t *j = t->job;
  if (!j->pattern->random) {
    if (t->next_seq + j->bs > t->region_len) t->next_seq = 0;  // wrap: keep streaming
    *offset = t->region_start + t->next_seq;
    t->next_seq += j->bs;
    *is_write = j->pattern->rw == RW_WRITE;
    return;
  }
  uint64_t blocks = t->region_len / j->bs;
  *offset = t->region_start + rng_below(&t->rng, blocks) * j->bs;
  switch (j->pattern->rw) {
    case RW_RANDWRITE: *is_write = 1; break;
    case RW_RANDRW: *is_write = rng_below(&t->rng, 100) >= j->read_pct; break;
    default: *is_write = 0;
  }
}

void job_scramble(thread_ctx_t *t, void *buf, uint32_t len) {
  // Overwrite 8 bytes in every 4 KiB (every 512 bytes for smaller blocks), so that no two
  // written 4 KiB blocks are alike and no drive can deduplicate or cache its way to a better
  // figure: 4 KiB is the smallest unit an SSD maps. One stamp per 512 bytes, as before, dirtied
  // 2,048 cache lines per 1 MiB write: 2-3 % of the CPU time of a 1 MiB write on zram (perf).
  uint8_t *p = buf;
  uint32_t stride = len >= 4096 ? 4096 : 512;
  for (uint32_t off = 0; off + 8 <= len; off += stride) {
    uint64_t v = rng_next(&t->rng);
    memcpy(p + off, &v, 8);
  }
}

// Job options, as a table (fio style): name=…,rw=…,bs=…,qd=…,threads=…,read=…
typedef struct {
  const char *key;
  const char *help;
  unsigned min, max;
  size_t offset;  // of a uint32_t in job_t; 0 for the special keys
} job_key_t;

static const job_key_t JOB_KEYS[] = {
    {.key = "bs", .help = "block size in bytes, a multiple of 512", .min = 512, .max = 64u << 20, .offset = offsetof(job_t, bs)},
    {.key = "qd", .help = "queue depth per thread", .min = 1, .max = 1024, .offset = offsetof(job_t, qd)},
    {.key = "threads", .help = "threads (seekers for rw=seeks)", .min = 1, .max = 64, .offset = offsetof(job_t, threads)},
    {.key = "read", .help = "randrw: percent of reads", .min = 0, .max = 100, .offset = offsetof(job_t, read_pct)},
    // fio's size=: a random test over a smaller span (the hot part of a disk), in MiB so that
    // the key stays a uint32_t; up to 16 TiB. Absent: the whole test file or device.
    {.key = "span", .help = "MiB of the target covered, from its start (absent: all)", .min = 1, .max = 16u << 20,
     .offset = offsetof(job_t, span_mib)},
};

int job_parse(job_t *job, const char *spec, char *err, unsigned errlen) {
  memset(job, 0, sizeof *job);
  job->bs = 4096;
  job->qd = 1;
  job->threads = 1;
  job->read_pct = 70;
  char *copy = strdup(spec), *save = NULL;
  if (!copy) return snprintf(err, errlen, "out of memory"), -1;
  int rc = 0;
  for (char *item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (!eq) { snprintf(err, errlen, "'%s' is not key=value", item); rc = -1; break; }
    *eq = 0;
    const char *key = item, *val = eq + 1;
    if (strcmp(key, "name") == 0) {
      if (!*val || strlen(val) >= sizeof job->name || strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(val)) {
        snprintf(err, errlen, "name '%s' must be 1-63 characters of a-z 0-9 - _", val); rc = -1;
      } else snprintf(job->name, sizeof job->name, "%s", val);
      continue;
    }
    if (strcmp(key, "rw") == 0) {
      for (unsigned i = 0; i < PATTERN_COUNT; i++)
        if (strcmp(PATTERNS[i].name, val) == 0) job->pattern = &PATTERNS[i];
      if (!job->pattern) { snprintf(err, errlen, "rw '%s' is unknown (see --help)", val); rc = -1; }
      continue;
    }
    const job_key_t *k = NULL;
    for (unsigned i = 0; i < sizeof JOB_KEYS / sizeof JOB_KEYS[0]; i++)
      if (strcmp(JOB_KEYS[i].key, key) == 0) k = &JOB_KEYS[i];
    if (!k) { snprintf(err, errlen, "unknown job key '%s'", key); rc = -1; break; }
    char *end = NULL;
    unsigned long v = strtoul(val, &end, 10);
    if (!*val || *end || v < k->min || v > k->max) {
      snprintf(err, errlen, "%s=%s: expected a whole number from %u to %u", key, val, k->min, k->max);
      rc = -1;
      break;
    }
    *(uint32_t *)((char *)job + k->offset) = (uint32_t)v;
  }
  free(copy);
  if (rc == 0 && !job->pattern) { snprintf(err, errlen, "rw= is required"); rc = -1; }
  if (rc == 0 && job->bs % 512) { snprintf(err, errlen, "bs=%u is not a multiple of 512", job->bs); rc = -1; }
  if (rc == 0 && job->pattern->rw == RW_SEEKS) { job->bs = SEEK_BLOCK; job->qd = 1; }
  if (rc == 0 && (uint64_t)job->qd * job->bs * job->threads > JOB_MAX_BUFFER_BYTES) {
    snprintf(err, errlen, "qd × bs × threads = %u × %u × %u bytes of I/O buffers is over the limit of %llu MiB: lower one of them",
             job->qd, job->bs, job->threads, JOB_MAX_BUFFER_BYTES >> 20);
    rc = -1;
  }
  if (rc == 0 && !job->name[0]) snprintf(job->name, sizeof job->name, "%s-bs%u-q%ut%u", job->pattern->name, job->bs, job->qd, job->threads);
  return rc;
}

// JOB_KEYS_HELP_BYTES: the test builds it small to see the text cut, not overrun.
#ifndef JOB_KEYS_HELP_BYTES
#define JOB_KEYS_HELP_BYTES 2048
#endif

const char *job_keys_help(void) {
  static char text[JOB_KEYS_HELP_BYTES];
  size_t n = 0;
  text_append(text, sizeof text, &n, "    name=ID        label echoed in every line (a-z 0-9 - _)\n");
  text_append(text, sizeof text, &n, "    rw=PATTERN     one of:");
  for (unsigned i = 0; i < PATTERN_COUNT; i++) text_append(text, sizeof text, &n, " %s", PATTERNS[i].name);
  text_append(text, sizeof text, &n, "\n");
  for (unsigned i = 0; i < PATTERN_COUNT; i++)
    text_append(text, sizeof text, &n, "                     %-9s %s\n", PATTERNS[i].name, PATTERNS[i].help);
  for (unsigned i = 0; i < sizeof JOB_KEYS / sizeof JOB_KEYS[0]; i++)
    text_append(text, sizeof text, &n, "    %s=N%*s%s (%u..%u)\n", JOB_KEYS[i].key, (int)(12 - strlen(JOB_KEYS[i].key)), "",
                JOB_KEYS[i].help, JOB_KEYS[i].min, JOB_KEYS[i].max);
  text_append(text, sizeof text, &n, "    qd x bs x threads (the I/O buffers) at most %llu MiB\n", JOB_MAX_BUFFER_BYTES >> 20);
  return text;
}
