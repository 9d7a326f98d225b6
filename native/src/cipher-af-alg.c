// The kernel crypto API from user space (AF_ALG "skcipher"): the same transforms dm-crypt
// calls, with the same per-sector requests. One sendmsg (operation + IV + the sector) and one
// read per sector: the round trip through the socket is the only cost dm-crypt does not pay,
// and it is small against the cipher except on the very fastest AES instructions.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cipher.h"

#if __has_include(<linux/if_alg.h>)
#include <linux/if_alg.h>
#else
struct sockaddr_alg {
  unsigned short salg_family;
  unsigned char salg_type[14];
  unsigned int salg_feat, salg_mask;
  unsigned char salg_name[64];
};
struct af_alg_iv {
  unsigned int ivlen;
  unsigned char iv[];
};
#define ALG_SET_KEY 1
#define ALG_SET_IV 2
#define ALG_SET_OP 3
#define ALG_OP_DECRYPT 0
#define ALG_OP_ENCRYPT 1
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

struct cipher_ctx {
  int tfm, op;
  unsigned iv_bytes;
};

static int af_alg_available(char *err, size_t errlen) {
  int s = socket(AF_ALG, SOCK_SEQPACKET, 0);
  if (s < 0) {
    snprintf(err, errlen, "the kernel has no AF_ALG (socket: %s): CONFIG_CRYPTO_USER_API_SKCIPHER is off or not loaded",
             strerror(errno));
    return 0;
  }
  close(s);
  return 1;
}

static int af_alg_open(const cipher_spec_t *spec, const uint8_t *key, cipher_ctx_t **out, char *err, size_t errlen) {
  struct sockaddr_alg sa;
  memset(&sa, 0, sizeof sa);
  sa.salg_family = AF_ALG;
  strcpy((char *)sa.salg_type, "skcipher");
  snprintf((char *)sa.salg_name, sizeof sa.salg_name, "%s", spec->kernel_name);
  int tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
  if (tfm < 0) {
    snprintf(err, errlen, "socket(AF_ALG): %s", strerror(errno));
    return -1;
  }
  if (bind(tfm, (struct sockaddr *)&sa, sizeof sa) != 0) {
    snprintf(err, errlen, "the kernel offers no %s (%s)", spec->kernel_name, strerror(errno));
    close(tfm);
    return -1;
  }
  if (setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, spec->key_bits / 8) != 0) {
    snprintf(err, errlen, "%s refuses a %u-bit key (%s)", spec->kernel_name, spec->key_bits, strerror(errno));
    close(tfm);
    return -1;
  }
  int op = accept(tfm, NULL, 0);
  if (op < 0) {
    snprintf(err, errlen, "accept on %s: %s", spec->kernel_name, strerror(errno));
    close(tfm);
    return -1;
  }
  cipher_ctx_t *c = calloc(1, sizeof *c);
  if (!c) abort();
  c->tfm = tfm;
  c->op = op;
  c->iv_bytes = spec->iv_bytes;
  *out = c;
  return 0;
}

static int af_alg_crypt(cipher_ctx_t *c, int encrypt, uint8_t *buf, size_t len, uint64_t sector) {
  // Control messages: the operation, then the IV (plain64: the sector number, little endian,
  // zero-padded to the transform's IV length — as dm-crypt builds it).
  union {
    char raw[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 32)];
    struct cmsghdr align;
  } cbuf;
  memset(&cbuf, 0, sizeof cbuf);
  struct iovec iov = {.iov_base = buf, .iov_len = len};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf.raw,
                       .msg_controllen = CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + c->iv_bytes)};
  struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
  cm->cmsg_level = SOL_ALG;
  cm->cmsg_type = ALG_SET_OP;
  cm->cmsg_len = CMSG_LEN(sizeof(uint32_t));
  uint32_t opv = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
  memcpy(CMSG_DATA(cm), &opv, sizeof opv);
  cm = CMSG_NXTHDR(&msg, cm);
  cm->cmsg_level = SOL_ALG;
  cm->cmsg_type = ALG_SET_IV;
  cm->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + c->iv_bytes);
  struct af_alg_iv *iv = (struct af_alg_iv *)CMSG_DATA(cm);
  iv->ivlen = c->iv_bytes;
  memset(iv->iv, 0, c->iv_bytes);
  for (unsigned i = 0; i < 8 && i < c->iv_bytes; i++) iv->iv[i] = (uint8_t)(sector >> (8 * i));
  if (sendmsg(c->op, &msg, 0) != (ssize_t)len) return -1;
  return read(c->op, buf, len) == (ssize_t)len ? 0 : -1;
}

static void af_alg_close(cipher_ctx_t *c) {
  if (!c) return;
  close(c->op);
  close(c->tfm);
  free(c);
}

const cipher_backend_t CIPHER_AF_ALG = {
    .name = "af_alg",
    .label = "kernel",
    .available = af_alg_available,
    .open = af_alg_open,
    .crypt = af_alg_crypt,
    .close = af_alg_close,
};
