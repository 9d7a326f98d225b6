// The fallback where the kernel has no AF_ALG: OpenSSL's libcrypto, loaded at run time with
// dlopen (no -dev package to build, and its absence is reported, not fatal). Its AES uses the
// same AES-NI/VAES instructions as the kernel's, but it is not what dm-crypt runs: every figure
// from here is a "user-space estimate" and is labelled so wherever it is shown.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cipher.h"

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_md_st EVP_MD;

static struct {
  void *lib;
  EVP_CIPHER_CTX *(*ctx_new)(void);
  void (*ctx_free)(EVP_CIPHER_CTX *);
  const EVP_CIPHER *(*by_name)(const char *);
  int (*init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, void *, const unsigned char *, const unsigned char *, int);
  int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
  int (*set_padding)(EVP_CIPHER_CTX *, int);
  const EVP_MD *(*sha256)(void);
  int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, void *);
} ossl;

struct cipher_ctx {
  EVP_CIPHER_CTX *ctx;
  EVP_CIPHER_CTX *essiv;  // AES-256-ECB keyed with sha256(key), for the IV of each sector
  unsigned iv_bytes;
};

static int openssl_available(char *err, size_t errlen) {
  if (ossl.lib) return 1;
  const char *names[] = {"libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"};
  for (unsigned i = 0; i < 3 && !ossl.lib; i++) ossl.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!ossl.lib) {
    snprintf(err, errlen, "OpenSSL's libcrypto is not installed (Debian libssl3)");
    return 0;
  }
#define SYM(field, name) *(void **)&ossl.field = dlsym(ossl.lib, name)
  SYM(ctx_new, "EVP_CIPHER_CTX_new");
  SYM(ctx_free, "EVP_CIPHER_CTX_free");
  SYM(by_name, "EVP_get_cipherbyname");
  SYM(init, "EVP_CipherInit_ex");
  SYM(update, "EVP_CipherUpdate");
  SYM(set_padding, "EVP_CIPHER_CTX_set_padding");
  SYM(sha256, "EVP_sha256");
  SYM(digest, "EVP_Digest");
#undef SYM
  if (!ossl.ctx_new || !ossl.ctx_free || !ossl.by_name || !ossl.init || !ossl.update || !ossl.set_padding ||
      !ossl.sha256 || !ossl.digest) {
    snprintf(err, errlen, "libcrypto lacks the EVP functions this needs");
    dlclose(ossl.lib);
    ossl.lib = NULL;
    return 0;
  }
  return 1;
}

static void openssl_close(cipher_ctx_t *c) {
  if (!c) return;
  if (c->ctx) ossl.ctx_free(c->ctx);
  if (c->essiv) ossl.ctx_free(c->essiv);
  free(c);
}

static int openssl_open(const cipher_spec_t *spec, const uint8_t *key, cipher_ctx_t **out, char *err, size_t errlen) {
  const EVP_CIPHER *cipher = spec->openssl_name ? ossl.by_name(spec->openssl_name) : NULL;
  if (!cipher) {
    snprintf(err, errlen, "OpenSSL has no %s", spec->dm_name);
    return -1;
  }
  cipher_ctx_t *c = calloc(1, sizeof *c);
  if (!c) abort();
  c->iv_bytes = 16;
  c->ctx = ossl.ctx_new();
  if (!c->ctx || ossl.init(c->ctx, cipher, NULL, key, NULL, 1) != 1) {
    snprintf(err, errlen, "OpenSSL refused the %u-bit key of %s", spec->key_bits, spec->dm_name);
    openssl_close(c);
    return -1;
  }
  ossl.set_padding(c->ctx, 0);
  if (spec->essiv) {
    unsigned char salt[32];
    unsigned int n = 0;
    const EVP_CIPHER *ecb = ossl.by_name("aes-256-ecb");
    c->essiv = ossl.ctx_new();
    if (!ecb || !c->essiv || ossl.digest(key, spec->key_bits / 8, salt, &n, ossl.sha256(), NULL) != 1 ||
        ossl.init(c->essiv, ecb, NULL, salt, NULL, 1) != 1) {
      snprintf(err, errlen, "OpenSSL cannot build the ESSIV of %s", spec->dm_name);
      openssl_close(c);
      return -1;
    }
    ossl.set_padding(c->essiv, 0);
  }
  *out = c;
  return 0;
}

static int openssl_crypt(cipher_ctx_t *c, int encrypt, uint8_t *buf, size_t len, uint64_t sector) {
  unsigned char iv[16] = {0};
  for (unsigned i = 0; i < 8; i++) iv[i] = (uint8_t)(sector >> (8 * i));
  int n = 0;
  if (c->essiv && ossl.update(c->essiv, iv, &n, iv, 16) != 1) return -1;
  if (ossl.init(c->ctx, NULL, NULL, NULL, iv, encrypt) != 1) return -1;
  return ossl.update(c->ctx, buf, &n, buf, (int)len) == 1 && n == (int)len ? 0 : -1;
}

const cipher_backend_t CIPHER_OPENSSL = {
    .name = "openssl",
    .label = "user-space estimate",
    .available = openssl_available,
    .open = openssl_open,
    .crypt = openssl_crypt,
    .close = openssl_close,
};
