#include "dm-crypt-map.h"

#include "text-append.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define CONTROL "/dev/mapper/control"
// Room for the header, one target spec and its parameters (a 512-bit key is 128 hex digits),
// or for a list of mappings.
#define BUFFER_BYTES (64 * 1024)

typedef union {
  struct dm_ioctl io;
  char bytes[BUFFER_BYTES];
} dm_buffer_t;

// The control node takes ioctls from a read-only descriptor: the kernel checks CAP_SYS_ADMIN,
// not the open mode, so the helper still opens nothing writable.
static int open_control(char *why, size_t whylen) {
  int fd = open(CONTROL, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    snprintf(why, whylen, "%s",
             // ENODEV: the node exists (a static /dev) but no driver is behind it.
             errno == ENOENT || errno == ENODEV ? "this kernel has no device-mapper (" CONTROL " does not answer), so dm-crypt cannot run here"
                                                : strerror(errno));
  return fd;
}

static void prepare(dm_buffer_t *b, const char *name, uint32_t flags) {
  memset(b, 0, sizeof *b);
  b->io.version[0] = DM_VERSION_MAJOR;
  b->io.data_size = sizeof *b;
  b->io.data_start = sizeof b->io;
  b->io.flags = flags;
  if (name) snprintf(b->io.name, sizeof b->io.name, "%s", name);
}

int dmcrypt_available(char *why, size_t whylen) {
  int ctl = open_control(why, whylen);
  if (ctl < 0) return 0;
  dm_buffer_t b;
  prepare(&b, NULL, 0);
  int ok = ioctl(ctl, DM_VERSION, &b.io) == 0;
  if (!ok) snprintf(why, whylen, "device-mapper does not answer: %s", strerror(errno));
  close(ctl);
  return ok;
}

int dmcrypt_create(const char *name, dev_t backing, uint64_t bytes, const dmcrypt_setup_t *setup, dev_t *dev, char *why,
                   size_t whylen) {
  int ctl = open_control(why, whylen);
  if (ctl < 0) return -1;
  static dm_buffer_t b;  // static: 64 KiB is more than a helper's stack needs to carry
  prepare(&b, name, 0);
  snprintf(b.io.uuid, sizeof b.io.uuid, DMCRYPT_UUID_PREFIX "%s", name);
  if (ioctl(ctl, DM_DEV_CREATE, &b.io) != 0) {
    snprintf(why, whylen, "creating the mapping %s failed: %s", name, strerror(errno));
    close(ctl);
    return -1;
  }
  *dev = (dev_t)b.io.dev;

  unsigned key_bytes = setup->key_bits / 8;
  unsigned char key[64];
  char hex[2 * sizeof key + 1];
  int rc = -1;
  if (key_bytes == 0 || key_bytes > sizeof key) {
    snprintf(why, whylen, "a %u-bit key is not supported", setup->key_bits);
  } else if (getrandom(key, key_bytes, 0) != (ssize_t)key_bytes) {
    snprintf(why, whylen, "no random key: %s", strerror(errno));
  } else {
    for (unsigned i = 0; i < key_bytes; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
    // A 4096-byte sector mapping must cover whole sectors.
    uint64_t sectors = bytes / 512 / (setup->sector_bytes / 512) * (setup->sector_bytes / 512);
    prepare(&b, name, DM_READONLY_FLAG);
    b.io.target_count = 1;
    struct dm_target_spec *spec = (struct dm_target_spec *)(b.bytes + b.io.data_start);
    spec->sector_start = 0;
    spec->length = sectors;
    snprintf(spec->target_type, sizeof spec->target_type, "crypt");
    char *params = (char *)(spec + 1);
    size_t room = sizeof b - (size_t)(params - b.bytes);
    unsigned flags = 0;
    while (flags < DMCRYPT_MAX_OPTIONS && setup->options[flags]) flags++;
    unsigned count = flags + (setup->sector_bytes != 512);  // optional parameters, counted first
    size_t n = 0;
    text_append(params, room, &n, "%s %s 0 %u:%u 0", setup->cipher, hex, major(backing), minor(backing));
    if (count > 0) text_append(params, room, &n, " %u", count);
    if (setup->sector_bytes != 512) text_append(params, room, &n, " sector_size:%u", setup->sector_bytes);
    for (unsigned i = 0; i < flags; i++) text_append(params, room, &n, " %s", setup->options[i]);
    spec->next = 0;
    if (ioctl(ctl, DM_TABLE_LOAD, &b.io) != 0) {
      snprintf(why, whylen, "loading the dm-crypt table failed: %s (is the cipher %s available in this kernel?)", strerror(errno),
               setup->cipher);
    } else {
      prepare(&b, name, 0);  // DM_DEV_SUSPEND without DM_SUSPEND_FLAG: resume, the table goes live
      if (ioctl(ctl, DM_DEV_SUSPEND, &b.io) != 0) snprintf(why, whylen, "activating the mapping failed: %s", strerror(errno));
      else rc = 0;
    }
  }
  // The key lived in these buffers only: wipe them, success or not.
  explicit_bzero(key, sizeof key);
  explicit_bzero(hex, sizeof hex);
  explicit_bzero(&b, sizeof b);
  if (rc != 0) {
    prepare(&b, name, 0);
    ioctl(ctl, DM_DEV_REMOVE, &b.io);
  }
  close(ctl);
  return rc;
}

int dmcrypt_remove(const char *name, char *why, size_t whylen) {
  int ctl = open_control(why, whylen);
  if (ctl < 0) return -1;
  dm_buffer_t b;
  prepare(&b, name, DM_DEFERRED_REMOVE);
  int rc = ioctl(ctl, DM_DEV_REMOVE, &b.io);
  int e = errno;
  if (rc != 0) snprintf(why, whylen, "removing the mapping %s failed: %s", name, strerror(e));
  close(ctl);
  errno = e;
  return rc;
}

int dmcrypt_uuid(const char *name, char *uuid, size_t uuidlen) {
  char why[128];
  int ctl = open_control(why, sizeof why);
  if (ctl < 0) return -1;
  dm_buffer_t b;
  prepare(&b, name, 0);
  int rc = ioctl(ctl, DM_DEV_STATUS, &b.io);
  int e = errno;
  close(ctl);
  if (rc == 0) snprintf(uuid, uuidlen, "%s", b.io.uuid);
  errno = e;
  return rc;
}

int dmcrypt_each(const char *prefix, void (*visit)(const char *name, void *arg), void *arg, char *why, size_t whylen) {
  int ctl = open_control(why, whylen);
  if (ctl < 0) return -1;
  static dm_buffer_t b;
  prepare(&b, NULL, 0);
  if (ioctl(ctl, DM_LIST_DEVICES, &b.io) != 0) {
    snprintf(why, whylen, "listing the mappings failed: %s", strerror(errno));
    close(ctl);
    return -1;
  }
  close(ctl);
  // The answer: dm_name_list entries chained by byte offsets; dev 0 means an empty list.
  char names[256][DM_NAME_LEN];
  unsigned count = 0;
  const char *at = b.bytes + b.io.data_start;
  const char *end = b.bytes + sizeof b;
  const struct dm_name_list *entry = (const struct dm_name_list *)at;
  if (entry->dev != 0) {
    for (;;) {
      if (strncmp(entry->name, prefix, strlen(prefix)) == 0 && count < 256) snprintf(names[count++], DM_NAME_LEN, "%s", entry->name);
      if (!entry->next || (const char *)entry + entry->next >= end) break;
      entry = (const struct dm_name_list *)((const char *)entry + entry->next);
    }
  }
  // Visited after the walk: a visitor may remove mappings.
  for (unsigned i = 0; i < count; i++) visit(names[i], arg);
  return 0;
}
