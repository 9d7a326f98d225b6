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

#endif
