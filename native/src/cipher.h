// Cipher ceilings: how fast this CPU encrypts and decrypts disk sectors the way dm-crypt does
// (one request and one IV per sector). Backends are a table like the I/O engines: the kernel
// crypto API through AF_ALG (what dm-crypt itself runs) and, where the kernel has no AF_ALG,
// OpenSSL's libcrypto loaded at run time — a user-space estimate, always labelled as such.
#ifndef DD_CIPHER_H
#define DD_CIPHER_H

#include <stddef.h>
#include <stdint.h>

// A dm-crypt cipher spec and how each backend names it.
typedef struct {
  const char *dm_name;      // as cryptsetup/dmsetup print it: aes-xts-plain64
  unsigned key_bits;        // dm-crypt key size (XTS: both halves)
  const char *kernel_name;  // the kernel skcipher: xts(aes)
  unsigned iv_bytes;        // IV length the kernel transform takes
  const char *openssl_name; // EVP cipher, NULL when OpenSSL has none
  int essiv;                // IV = AES(sha256(key), sector): computed by hand for OpenSSL
} cipher_spec_t;

extern const cipher_spec_t CIPHER_SPECS[];
extern const unsigned CIPHER_SPEC_COUNT;

typedef struct cipher_ctx cipher_ctx_t;

typedef struct {
  const char *name;   // af_alg | openssl
  const char *label;  // kernel | user-space estimate
  // NULL when this machine cannot use the backend at all; the reason in err.
  int (*available)(char *err, size_t errlen);
  // 0 ok; -1 with err set (ENOENT-like: the spec is not offered here).
  int (*open)(const cipher_spec_t *spec, const uint8_t *key, cipher_ctx_t **out, char *err, size_t errlen);
  // Encrypt or decrypt one sector in place with this sector's IV (plain64: sector number, LE).
  int (*crypt)(cipher_ctx_t *ctx, int encrypt, uint8_t *buf, size_t len, uint64_t sector);
  void (*close)(cipher_ctx_t *ctx);
} cipher_backend_t;

extern const cipher_backend_t CIPHER_AF_ALG;
extern const cipher_backend_t CIPHER_OPENSSL;

int cmd_ciphers(int argc, char **argv);

#endif
