// The helper's throwaway dm-crypt mappings, made with the device-mapper ioctls directly (what
// cryptsetup's plain mode asks the kernel for, without its binary or libdevmapper): a
// read-only "crypt" table over a loop device, with a random key made here and wiped after the
// table is loaded. Names carry the calling user's uid and the caller's pid, so a later run can
// find what a killed one left: diskdelta-u<UID>-p<PID>-<RANDOM>. Helper-only (not in the worker).
#ifndef DD_DM_CRYPT_MAP_H
#define DD_DM_CRYPT_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DMCRYPT_NAME_PREFIX "diskdelta-u"
// Every mapping the helper makes carries this uuid prefix too: a name alone could be copied.
#define DMCRYPT_UUID_PREFIX "DISKDELTA-"
#define DMCRYPT_MAX_OPTIONS 4

typedef struct {
  const char *cipher;     // dm-crypt cipher spec, from CIPHER_SPECS
  unsigned key_bits;      // from CIPHER_SPECS
  unsigned sector_bytes;  // 512 or 4096
  const char *options[DMCRYPT_MAX_OPTIONS + 1];  // dm-crypt flags (no_read_workqueue …), NULL-terminated
} dmcrypt_setup_t;

// 1 when the kernel has device-mapper (its control node answers), else 0 with why set.
int dmcrypt_available(char *why, size_t whylen);
// Loads a read-only crypt table named `name` over the block device `backing` (its first
// `bytes`), with a fresh random key. Returns 0 with *dev set, or -1 with why set; on failure
// nothing is left behind.
int dmcrypt_create(const char *name, dev_t backing, uint64_t bytes, const dmcrypt_setup_t *setup, dev_t *dev, char *why,
                   size_t whylen);
// Removes a mapping; one still open is removed when its last user closes it (deferred).
// Returns 0, or -1 with errno (ENXIO: no such mapping) and why set.
int dmcrypt_remove(const char *name, char *why, size_t whylen);
// The uuid of a mapping into uuid (empty when it has none). 0, or -1 with errno set.
int dmcrypt_uuid(const char *name, char *uuid, size_t uuidlen);
// Calls visit(name, arg) for every mapping whose name starts with prefix. 0, or -1 with why set.
int dmcrypt_each(const char *prefix, void (*visit)(const char *name, void *arg), void *arg, char *why, size_t whylen);

#endif
