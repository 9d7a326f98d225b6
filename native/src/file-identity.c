#include "file-identity.h"

#include <fcntl.h>
#include <string.h>


static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// ---- SipHash-2-4 (Aumasson and Bernstein), 64-bit output ----
#define SIPROUND                                                    \
  do {                                                              \
    v0 += v1, v1 = rotl64(v1, 13), v1 ^= v0, v0 = rotl64(v0, 32);    \
    v2 += v3, v3 = rotl64(v3, 16), v3 ^= v2;                        \
    v0 += v3, v3 = rotl64(v3, 21), v3 ^= v0;                        \
    v2 += v1, v1 = rotl64(v1, 17), v1 ^= v2, v2 = rotl64(v2, 32);    \
  } while (0)

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static uint64_t siphash(const uint8_t key[16], const uint8_t *in, size_t len) {
  uint64_t k0 = le64(key), k1 = le64(key + 8);
  uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
  uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
  size_t whole = len - len % 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m = le64(in + i);
    v3 ^= m;
    SIPROUND;
    SIPROUND;
    v0 ^= m;
  }
  uint64_t b = (uint64_t)len << 56;
  for (size_t i = 0; i < len % 8; i++) b |= (uint64_t)in[whole + i] << (8 * i);
  v3 ^= b;
  SIPROUND;
  SIPROUND;
  v0 ^= b;
  v2 ^= 0xff;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t handle_hash(const uint8_t key[16], const uint8_t fsid[8], int type, const unsigned char *bytes, unsigned len) {
  uint8_t in[8 + 4 + MAX_HANDLE_SZ];
  if (len > MAX_HANDLE_SZ) len = MAX_HANDLE_SZ;
  memcpy(in, fsid, 8);
  memcpy(in + 8, &type, 4);
  memcpy(in + 12, bytes, len);
  uint64_t h = siphash(key, in, 12 + len);
  return h ? h : 1;
}

uint64_t file_identity(const uint8_t key[FILE_IDENTITY_KEY_BYTES], const uint8_t fsid[8], int fd, const struct stat *st) {
  struct {
    struct file_handle fh;
    unsigned char bytes[MAX_HANDLE_SZ];
  } h;
  int mount_id;
  h.fh.handle_bytes = MAX_HANDLE_SZ;
  if (name_to_handle_at(fd, "", &h.fh, &mount_id, AT_EMPTY_PATH) == 0)
    return handle_hash(key, fsid, h.fh.handle_type, h.fh.f_handle, h.fh.handle_bytes);
  uint64_t id[2] = {st->st_dev, st->st_ino};  // a filesystem without handles
  return handle_hash(key, fsid, -1, (const unsigned char *)id, sizeof id);
}
