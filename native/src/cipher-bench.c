// `ciphers`: encrypt and decrypt throughput of dm-crypt's ciphers on this CPU, per sector size,
// with one thread and with several, through the first backend that works (AF_ALG, else
// OpenSSL). Each figure is a time-bounded window over a 1 MiB buffer per thread, sectors
// numbered on as dm-crypt numbers them, every sector its own request with its own IV, through
// one transform keyed once, as dm-crypt keys its mapping once. `--rekey BYTES` makes a new
// transform every BYTES inside the window instead, as `cryptsetup benchmark` does for each of
// its 1 MiB passes (cryptsetup 2.6 lib/crypto_backend/cipher_check.c): the same method as the
// figure it is compared with (e2e/dm-crypt-lab.test.ts), never the product's own figure.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cipher.h"
#include "ndjson.h"
#include "util.h"

extern volatile sig_atomic_t g_stop;

#define MAX_LIST 16
#define BUF_BYTES (1u << 20)

typedef struct {
  const char *backend;
  double duration;
  unsigned long rekey;
  const cipher_spec_t *specs[MAX_LIST];
  unsigned nspecs;
  unsigned sectors[MAX_LIST];
  unsigned nsectors;
  unsigned threads[MAX_LIST];
  unsigned nthreads;
} cipher_opts_t;

typedef struct {
  const cipher_backend_t *be;
  const cipher_spec_t *spec;
  const uint8_t *key;
  unsigned sector;
  int encrypt;
  double seconds;
  unsigned long rekey;
  pthread_barrier_t *start;
  // out
  uint64_t bytes;
  uint64_t ns;
  int failed;
  char err[160];
} worker_arg_t;

static void *crypt_thread(void *p) {
  worker_arg_t *a = p;
  cipher_ctx_t *ctx = NULL;
  uint8_t *buf = aligned_alloc(4096, BUF_BYTES);
  rng_t r;
  rng_seed(&r, (uint64_t)(uintptr_t)p ^ now_ns());
  if (buf) fill_random(&r, buf, BUF_BYTES);
  if (!buf || a->be->open(a->spec, a->key, &ctx, a->err, sizeof a->err) != 0) a->failed = 1;
  pthread_barrier_wait(a->start);
  if (a->failed) {
    free(buf);
    return NULL;
  }
  uint64_t sector = 0, per_buf = BUF_BYTES / a->sector, i = 0;
  // A few untimed requests first: the first ones pay for instantiating the transform.
  for (unsigned w = 0; w < 4 && !a->failed; w++, i = (i + 1) % per_buf)
    a->failed = a->be->crypt(ctx, a->encrypt, buf + i * a->sector, a->sector, sector++) != 0;
  // The clock is read every 64 KiB, so a slow cipher (an emulated CPU: ~1 MB/s) still stops
  // on time and a fast one pays nothing for the check.
  uint64_t check = (64u << 10) / a->sector ? (64u << 10) / a->sector : 1;
  uint64_t t0 = now_ns(), limit = t0 + (uint64_t)(a->seconds * 1e9), t = t0;
  uint64_t keyed = 0;
  while (!a->failed && !g_stop && t < limit) {
    for (uint64_t n = 0; n < check && !a->failed; n++, i = (i + 1) % per_buf) {
      if (a->rekey && keyed >= a->rekey) {
        // Timed, as cryptsetup times its: the old transform closed, a new one made and keyed.
        a->be->close(ctx);
        ctx = NULL;
        keyed = 0;
        if (a->be->open(a->spec, a->key, &ctx, a->err, sizeof a->err) != 0) {
          a->failed = 1;
          break;
        }
      }
      a->failed = a->be->crypt(ctx, a->encrypt, buf + i * a->sector, a->sector, sector++) != 0;
      a->bytes += a->sector;
      keyed += a->sector;
    }
    t = now_ns();
  }
  a->ns = t - t0;
  if (a->failed && !a->err[0]) snprintf(a->err, sizeof a->err, "a %u-byte request failed: %s", a->sector, strerror(errno));
  a->be->close(ctx);
  free(buf);
  return NULL;
}

// One window of `threads` threads; bytes/s summed over threads (each over its own elapsed time).
static double measure(const cipher_backend_t *be, const cipher_spec_t *spec, const uint8_t *key, unsigned sector,
                      unsigned threads, int encrypt, double seconds, unsigned long rekey, char *err, size_t errlen) {
  worker_arg_t args[64];
  pthread_t tids[64];
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, threads);
  for (unsigned i = 0; i < threads; i++) {
    args[i] = (worker_arg_t){.be = be, .spec = spec, .key = key, .sector = sector, .encrypt = encrypt,
                             .seconds = seconds, .rekey = rekey, .start = &start};
    if (pthread_create(&tids[i], NULL, crypt_thread, &args[i]) != 0) abort();
  }
  double bps = 0;
  int failed = 0;
  for (unsigned i = 0; i < threads; i++) {
    pthread_join(tids[i], NULL);
    if (args[i].failed && !failed) {
      failed = 1;
      snprintf(err, errlen, "%s", args[i].err);
    }
    if (args[i].ns > 0) bps += (double)args[i].bytes * 1e9 / (double)args[i].ns;
  }
  pthread_barrier_destroy(&start);
  return failed ? -1 : bps;
}

// Every "cipher" line names its backend and label, so no figure is ever read without its source.
static void begin_cipher_line(jbuf_t *b, const cipher_backend_t *be, const cipher_spec_t *spec) {
  jb_begin(b, "cipher");
  jb_str(b, "backend", be->name);
  jb_str(b, "label", be->label);
  jb_str(b, "cipher", spec->dm_name);
  jb_u64(b, "key_bits", spec->key_bits);
  jb_str(b, "kernel_name", spec->kernel_name);
}

static int usage(const char *what, const char *arg) {
  emit_failure(FAIL_USAGE, "ciphers: %s '%s' (see " WORKER_NAME " --help)", what, arg);
  emit_done("error", EXIT_USAGE);
  return EXIT_USAGE;
}

static int parse(cipher_opts_t *o, int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    const char *opt = argv[i];
    if (i + 1 >= argc) return usage("needs a value after", opt);
    const char *val = argv[++i];
    char *end = NULL;
    if (strcmp(opt, "--backend") == 0) {
      if (strcmp(val, "auto") && strcmp(val, "af_alg") && strcmp(val, "openssl")) return usage("--backend is auto, af_alg or openssl, not", val);
      o->backend = val;
    } else if (strcmp(opt, "--duration") == 0) {
      o->duration = strtod(val, &end);
      if (!*val || *end || !(o->duration >= 0.05 && o->duration <= 60)) return usage("--duration must be 0.05–60 seconds, not", val);
    } else if (strcmp(opt, "--rekey") == 0) {
      unsigned long v = strtoul(val, &end, 10);
      if (!*val || *end || v > (1ul << 30)) return usage("--rekey must be 0 (key once) to 1073741824 bytes, not", val);
      o->rekey = v;
    } else if (strcmp(opt, "--cipher") == 0) {
      // NAME:KEYBITS, e.g. aes-xts-plain64:512
      const char *colon = strrchr(val, ':');
      unsigned bits = colon ? (unsigned)strtoul(colon + 1, &end, 10) : 0;
      const cipher_spec_t *found = NULL;
      for (unsigned k = 0; k < CIPHER_SPEC_COUNT && colon; k++)
        if (strlen(CIPHER_SPECS[k].dm_name) == (size_t)(colon - val) && !strncmp(CIPHER_SPECS[k].dm_name, val, colon - val) &&
            CIPHER_SPECS[k].key_bits == bits)
          found = &CIPHER_SPECS[k];
      if (!found) return usage("--cipher takes NAME:KEYBITS from the list in --help, not", val);
      if (o->nspecs >= MAX_LIST) return usage("too many --cipher options at", val);
      o->specs[o->nspecs++] = found;
    } else if (strcmp(opt, "--sector") == 0) {
      unsigned long v = strtoul(val, &end, 10);
      if (!*val || *end || v < 512 || v > 65536 || (v & (v - 1))) return usage("--sector must be a power of two from 512 to 65536, not", val);
      if (o->nsectors >= MAX_LIST) return usage("too many --sector options at", val);
      o->sectors[o->nsectors++] = (unsigned)v;
    } else if (strcmp(opt, "--threads") == 0) {
      unsigned long v = strtoul(val, &end, 10);
      if (!*val || *end || v < 1 || v > 64) return usage("--threads must be 1–64, not", val);
      if (o->nthreads >= MAX_LIST) return usage("too many --threads options at", val);
      o->threads[o->nthreads++] = (unsigned)v;
    } else {
      return usage("unknown option", opt);
    }
  }
  return 0;
}

int cmd_ciphers(int argc, char **argv) {
  cipher_opts_t o = {.backend = "auto", .duration = 0.3};
  int rc = parse(&o, argc, argv);
  if (rc) return rc;
  if (!o.nspecs)
    for (unsigned k = 0; k < CIPHER_SPEC_COUNT; k++) o.specs[o.nspecs++] = &CIPHER_SPECS[k];
  if (!o.nsectors) {
    o.sectors[o.nsectors++] = 512;
    o.sectors[o.nsectors++] = 4096;
    // One 64 KiB request per IV, as `cryptsetup benchmark` measures: the cipher's own rate,
    // nearly free of the per-request round trip through the socket that dm-crypt never pays.
    o.sectors[o.nsectors++] = 65536;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (!o.nthreads) {
    o.threads[o.nthreads++] = 1;
    if (cpus > 1) o.threads[o.nthreads++] = (unsigned)(cpus > 64 ? 64 : cpus);
  }

  // The backend: AF_ALG when the kernel has it; OpenSSL only when asked or when AF_ALG is missing.
  char err_kernel[256] = "", err_user[256] = "";
  const cipher_backend_t *be = NULL;
  int want_kernel = strcmp(o.backend, "openssl") != 0, want_user = strcmp(o.backend, "af_alg") != 0;
  if (want_kernel && CIPHER_AF_ALG.available(err_kernel, sizeof err_kernel)) be = &CIPHER_AF_ALG;
  if (!be && want_user && CIPHER_OPENSSL.available(err_user, sizeof err_user)) be = &CIPHER_OPENSSL;
  if (!be) {
    emit_failure(FAIL_NO_CIPHER_BACKEND, "no way to measure ciphers here: %s%s%s", err_kernel[0] ? err_kernel : "AF_ALG not tried",
               "; ", err_user[0] ? err_user : "OpenSSL not tried");
    emit_done("error", EXIT_TARGET);
    return EXIT_TARGET;
  }
  if (be == &CIPHER_OPENSSL && want_kernel)
    emit_warning("af-alg-unavailable", "%s; the figures are a user-space estimate from OpenSSL, not the kernel's ciphers", err_kernel);

  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_str(&b, "verb", "ciphers");
  jb_str(&b, "backend", be->name);
  jb_str(&b, "label", be->label);
  jb_i64(&b, "cpus", cpus);
  jb_end_emit(&b);

  uint8_t key[64];
  if (syscall(SYS_getrandom, key, sizeof key, 0) != (long)sizeof key) {
    rng_t r;
    rng_seed(&r, now_ns());
    fill_random(&r, key, sizeof key);
  }
  for (unsigned s = 0; s < o.nspecs && !g_stop; s++) {
    const cipher_spec_t *spec = o.specs[s];
    char err[256] = "";
    cipher_ctx_t *probe = NULL;
    if (be->open(spec, key, &probe, err, sizeof err) != 0) {
      begin_cipher_line(&b, be, spec);
      jb_str(&b, "unavailable", err);
      jb_end_emit(&b);
      continue;
    }
    be->close(probe);
    for (unsigned z = 0; z < o.nsectors && !g_stop; z++)
      for (unsigned t = 0; t < o.nthreads && !g_stop; t++) {
        double enc = measure(be, spec, key, o.sectors[z], o.threads[t], 1, o.duration, o.rekey, err, sizeof err);
        double dec = enc < 0 ? -1 : measure(be, spec, key, o.sectors[z], o.threads[t], 0, o.duration, o.rekey, err, sizeof err);
        if (g_stop) break;
        begin_cipher_line(&b, be, spec);
        jb_u64(&b, "sector", o.sectors[z]);
        jb_u64(&b, "threads", o.threads[t]);
        if (enc < 0 || dec < 0) {
          jb_str(&b, "unavailable", err);
        } else {
          jb_dbl(&b, "encrypt_bps", enc);
          jb_dbl(&b, "decrypt_bps", dec);
          jb_dbl(&b, "seconds", o.duration);
          if (o.rekey) jb_u64(&b, "rekey_bytes", o.rekey);
        }
        jb_end_emit(&b);
      }
  }
  return emit_end(0, g_stop, "ciphers measure in memory, nothing was left behind");
}
