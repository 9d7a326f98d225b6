// The names DiskDelta gives its own test files: the worker creates them, sweeps stale ones,
// and the privileged helper accepts no other file.
#ifndef DD_TESTFILE_NAME_H
#define DD_TESTFILE_NAME_H

#include <string.h>

#define TESTFILE_PREFIX ".diskdelta-"
#define TESTFILE_SUFFIX ".tmp"

// base is a file name without any '/'.
static inline int is_testfile_name(const char *base) {
  size_t len = strlen(base), plen = strlen(TESTFILE_PREFIX), slen = strlen(TESTFILE_SUFFIX);
  return len > plen + slen && strncmp(base, TESTFILE_PREFIX, plen) == 0 && strcmp(base + len - slen, TESTFILE_SUFFIX) == 0 &&
         strchr(base, '/') == NULL;
}

// The exact names the worker gives what it creates: .diskdelta-PID-TAG.tmp, PID in decimal, TAG 16
// lowercase hex digits (target.c, workload.c). Only such a name may ever be swept; a user's
// .diskdelta-my-backup.tmp is not one.
static inline int is_made_name(const char *base) {
  const char *p = base + strlen(TESTFILE_PREFIX);
  if (!is_testfile_name(base)) return 0;
  size_t digits = strspn(p, "0123456789");
  if (digits == 0 || digits > 10 || p[digits] != '-') return 0;
  p += digits + 1;
  return strspn(p, "0123456789abcdef") == 16 && strcmp(p + 16, TESTFILE_SUFFIX) == 0;
}

// A work folder holds this file from the moment its maker has locked it: its content is the
// folder's own name. A folder without it was not made by a worker (or not yet locked).
#define WORKDIR_MARKER "made-by-diskdelta"

#endif
