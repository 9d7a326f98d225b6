// diskdelta-worker: does the I/O for DiskDelta and reports on stdout as NDJSON.
// argv only, validated here; see --help (generated from the option table below).
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access-recorder.h"
#include "child.h"
#include "cipher.h"
#include "elevate.h"
#include "engine.h"
#include "ndjson.h"
#include "phase.h"
#include "surface.h"
#include "sustained.h"
#include "target.h"
#include "worker-options.h"
#include "workload.h"
#include "working-set.h"

volatile sig_atomic_t g_stop;

// The sweep preset alone is 36 jobs (18 block sizes, read and write).
#define MAX_JOBS 64

typedef struct {
  const char *target;
  uint64_t size;
  double duration;
  double warmup;
  double rest;
  int read_only;
  unsigned runs;
  unsigned max_runs;
  double precision;
  int steady;
  double max_time;
  unsigned min_ios;
  unsigned min_window_ios;
  double min_time;
  unsigned sample_ms;
  int buffered;
  const char *engine;
  const char *file;
  unsigned fd;
  const char *helper;
  const char *fd_from;
  const char *socket;
  const char *crypt;
  uint64_t seed;
  unsigned warmup_passes;
  unsigned tree_files;
  uint64_t tree_bytes;
  unsigned readers;
  const char *app_mix;
  const char *tarball;
  unsigned app_files;
  int pause;
  const char *trace;
  double seconds;
  unsigned merge_ms;
  uint64_t block;
  unsigned depth;
  uint64_t recovery_size;
  unsigned samples;
  uint64_t sample_bytes;
  unsigned accesses;
  job_t jobs[MAX_JOBS];
  unsigned njobs;
} options_t;

typedef enum { OPT_STRING, OPT_BYTES, OPT_NUMBER, OPT_COUNT, OPT_FLAG, OPT_JOB, OPT_U64 } opt_kind_t;

typedef struct {
  const char *name;
  const char *arg;
  opt_kind_t kind;
  size_t offset;
  double min, max;
  double def;       // applied before parsing, when has_def
  int has_def;
  unsigned verbs;   // VERB_BIT()s of the verbs that take it; any other verb refuses it (exit 2)
  const char *help;
} option_def_t;

// The value a kind writes, so that a field of the wrong width is a compile error, not a
// silent overwrite of its neighbour.
#define OPT_STRING_SIZE sizeof(const char *)
#define OPT_BYTES_SIZE sizeof(uint64_t)
#define OPT_U64_SIZE sizeof(uint64_t)
#define OPT_NUMBER_SIZE sizeof(double)
#define OPT_COUNT_SIZE sizeof(unsigned)
#define OPT_FLAG_SIZE sizeof(int)
#define OPT_JOB_SIZE sizeof(job_t[MAX_JOBS])

// OPTIONS[] comes from the generated worker-options.h (electron/shared/model/worker-options.ts):
// names, ranges, defaults, verbs and help are written once, for this parser and the app alike.
#define OFF(f) offsetof(options_t, f)
#define OPTION_ENTRY(field_, name_, arg_, kind_, min_, max_, def_, has_def_, verbs_, help_)                              \
  {.name = name_, .arg = arg_, .kind = kind_, .offset = OFF(field_), .min = min_, .max = max_, .def = def_, .has_def = has_def_, \
   .verbs = verbs_, .help = help_},
static const option_def_t OPTIONS[] = {WORKER_OPTIONS(OPTION_ENTRY)};
#undef OPTION_ENTRY
#define OPTION_COUNT (sizeof OPTIONS / sizeof OPTIONS[0])
#define OPTION_WIDTH(field_, name_, arg_, kind_, min_, max_, def_, has_def_, verbs_, help_) \
  _Static_assert(sizeof(((options_t *)0)->field_) == kind_##_SIZE, "options_t." #field_ " does not fit " #kind_);
WORKER_OPTIONS(OPTION_WIDTH)
#undef OPTION_WIDTH

// The verbs, a table like the engines and the options: a new measurement kind that needs the
// worker adds its verb to worker-options.ts (names, help, which options it takes) and its own
// cmd_ function in run_verb below (docs/measurement-kinds.md).
typedef struct {
  const char *name;
  const char *help;
} verb_t;

#define VERB_ENTRY(id_, name_, help_) [id_] = {.name = name_, .help = help_},
static const verb_t VERBS[VERB_COUNT] = {WORKER_VERBS(VERB_ENTRY)};
#undef VERB_ENTRY

static int cmd_measure(options_t *o);
static int cmd_prepare(options_t *o);
static int cmd_cleanup(options_t *o);
static int cmd_hold(options_t *o);
static int cmd_crypt_hold(options_t *o);
static int cmd_tree(options_t *o);
static int cmd_bigfile(options_t *o);
static int cmd_app_start(options_t *o);
static int cmd_sustained(options_t *o);
static int cmd_surface(options_t *o);

static void print_help(FILE *out) {
  fprintf(out, "Usage: " WORKER_NAME " VERB [OPTIONS]\n\nVerbs:\n");
  for (unsigned i = 0; i < VERB_COUNT; i++) fprintf(out, "  %-10s %s\n", VERBS[i].name, VERBS[i].help);
  // ciphers takes its own options (cipher-bench.c), so it is not in the table of --target verbs.
  fprintf(out, "  %-10s %s\n", "ciphers", "encrypt/decrypt throughput of dm-crypt's ciphers on this CPU (no --target; own options below)");
  fprintf(out, "  --help     this text;  --version  the version\n\nOptions:\n");
  for (unsigned i = 0; i < OPTION_COUNT; i++) {
    fprintf(out, "  %-11s %-9s %s\n", OPTIONS[i].name, OPTIONS[i].arg ? OPTIONS[i].arg : "", OPTIONS[i].help);
    if (OPTIONS[i].verbs == VERB_BIT(VERB_COUNT) - 1) continue;  // every verb takes it
    fprintf(out, "%24s", "verbs:");
    for (unsigned v = 0; v < VERB_COUNT; v++)
      if (OPTIONS[i].verbs & VERB_BIT(v)) fprintf(out, " %s", VERBS[v].name);
    fprintf(out, "\n");
  }
  fprintf(out, "\nJob keys (--job):\n%s", job_keys_help());
  fprintf(out,
          "\nCiphers options (verb ciphers; each list option repeatable):\n"
          "  --cipher NAME:BITS   one of the list below (default: all)\n"
          "  --sector BYTES       sector size, one request and IV each: 512–65536, power of two (default 512, 4096, 65536)\n"
          "  --threads N          threads encrypting at once (default 1 and every online CPU)\n"
          "  --duration SECONDS   window per figure (default 0.3)\n"
          "  --rekey BYTES        a new transform every BYTES, timed, as cryptsetup benchmark's 1 MiB passes\n"
          "                       (default 0: keyed once, as dm-crypt keys its mapping)\n"
          "  --backend NAME       auto (AF_ALG, else OpenSSL as a labelled user-space estimate), af_alg, openssl\n"
          "  ciphers:");
  for (unsigned i = 0; i < CIPHER_SPEC_COUNT; i++) fprintf(out, " %s:%u", CIPHER_SPECS[i].dm_name, CIPHER_SPECS[i].key_bits);
  fprintf(out, "\n  output: hello {verb, backend, label}, then one \"cipher\" line per cipher × sector × threads\n"
               "  (encrypt_bps, decrypt_bps in bytes/s, or unavailable: the reason); exit 3 when no backend works\n");
  fprintf(out, "\nEngines:\n");
  for (unsigned i = 0; i < ENGINE_COUNT; i++) fprintf(out, "  %-6s %s\n", ENGINES[i]->name, ENGINES[i]->help);
  fprintf(out,
          "\nOutput: one JSON object per line on stdout, each {\"v\":%d,\"type\":…}: hello, progress,\n"
          "sample, result, warning, error, done. Logs go to stderr.\n"
          "\n" EXIT_CODES_HELP "\n"
          "\nSafety: block devices are opened read-only, always. The test file is created with\n"
          "O_CREAT|O_EXCL|O_NOFOLLOW under a unique name, locked while in use, and removed at the end,\n"
          "on error and on SIGTERM/SIGINT/SIGHUP; files of killed runs are removed by the next run.\n",
          PROTOCOL_VERSION);
}

// A usage failure: the message names the option or value. Variadic with a checked format, so
// that a caller's arguments are checked against it by the compiler (-Wformat).
__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int rc = emit_failure(FAIL_USAGE, "%s (see " WORKER_NAME " --help)", msg);
  emit_done("error", rc);
  return rc;
}

// The names of the options a verb takes, for the message that refuses another.
static const char *options_of(worker_verb_t verb, char *text, size_t size) {
  size_t n = 0;
  text[0] = 0;
  for (unsigned k = 0; k < OPTION_COUNT && n < size; k++)
    if (OPTIONS[k].verbs & VERB_BIT(verb)) {
      int w = snprintf(text + n, size - n, "%s%s", n ? ", " : "", OPTIONS[k].name);
      if (w < 0) break;
      n += (size_t)w;  // once truncated, n >= size and the loop ends (no wrap of size - n)
    }
  return text;
}

static void apply_defaults(options_t *o) {
  for (unsigned k = 0; k < OPTION_COUNT; k++) {
    const option_def_t *def = &OPTIONS[k];
    if (!def->has_def) continue;
    char *field = (char *)o + def->offset;
    switch (def->kind) {
      case OPT_BYTES:
      case OPT_U64: *(uint64_t *)field = (uint64_t)def->def; break;
      case OPT_NUMBER: *(double *)field = def->def; break;
      case OPT_COUNT: *(unsigned *)field = (unsigned)def->def; break;
      case OPT_STRING:
      case OPT_FLAG:
      case OPT_JOB: break;
    }
  }
}

static int parse_options(options_t *o, worker_verb_t verb, int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    const option_def_t *def = NULL;
    for (unsigned k = 0; k < OPTION_COUNT; k++)
      if (strcmp(argv[i], OPTIONS[k].name) == 0) def = &OPTIONS[k];
    if (!def) return usage_error("unknown option '%s'", argv[i]);
    if (!(def->verbs & VERB_BIT(verb))) {
      char names[512];
      return usage_error("%s is not an option of %s: %s takes %s", def->name, VERBS[verb].name, VERBS[verb].name,
                         options_of(verb, names, sizeof names));
    }
    if (def->kind == OPT_FLAG) {
      *(int *)((char *)o + def->offset) = 1;
      continue;
    }
    if (i + 1 >= argc) return usage_error("%s needs a value", def->name);
    const char *val = argv[++i];
    char *end = NULL;
    errno = 0;
    switch (def->kind) {
      case OPT_STRING:
        *(const char **)((char *)o + def->offset) = val;
        break;
      case OPT_BYTES:
      case OPT_U64: {
        unsigned long long v = strtoull(val, &end, 10);
        if (!*val || *end || errno || *val == '-' ||
            (def->kind == OPT_BYTES && (v < def->min || v > def->max)))
          return usage_error("%s '%s' must be a whole number of bytes in range (%.0f..%.0f)", def->name, val, def->min, def->max);
        *(uint64_t *)((char *)o + def->offset) = v;
        break;
      }
      case OPT_NUMBER: {
        double v = strtod(val, &end);
        if (!*val || *end || errno || !(v >= def->min && v <= def->max))
          return usage_error("%s '%s' is not a number in range (%g..%g)", def->name, val, def->min, def->max);
        *(double *)((char *)o + def->offset) = v;
        break;
      }
      case OPT_COUNT: {
        unsigned long v = strtoul(val, &end, 10);
        if (!*val || *end || errno || *val == '-' || v < def->min || v > def->max)
          return usage_error("%s '%s' is not a whole number in range (%.0f..%.0f)", def->name, val, def->min, def->max);
        *(unsigned *)((char *)o + def->offset) = (unsigned)v;
        break;
      }
      case OPT_JOB: {
        if (o->njobs >= MAX_JOBS) return usage_error("too many --job options (at most %d)", MAX_JOBS);
        char err[256];
        if (job_parse(&o->jobs[o->njobs], val, err, sizeof err) != 0) return usage_error("--job '%s': %s", val, err);
        o->njobs++;
        break;
      }
      case OPT_FLAG:
        break;
    }
  }
  if (!o->target) return usage_error("--target is required");
  if ((o->precision > 0 || o->steady) && o->max_runs < o->runs) return usage_error("--max-runs must be at least --runs");
  if (o->precision > 0 && o->steady) return usage_error("--steady and --precision are two stopping rules: give one");
  if (o->sample_ms && o->sample_ms < 50) return usage_error("--sample-ms must be 0 or at least 50");
  return 0;
}

static void on_signal(int sig) {
  (void)sig;
  g_stop = 1;
  target_unlink_from_signal();  // the test file goes at once, whatever the threads are doing
}

static void install_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  // If the app that started us dies, stop too (and so remove the test file).
  worker_tie_to_parent();
}

static void emit_hello(const options_t *o, const target_t *t, const char *engine) {
  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_i64(&b, "pid", getpid());
  jb_str(&b, "engine", engine);
  jb_str(&b, "target", o->target);
  jb_str(&b, "kind", t->is_blockdev ? "block-device" : "folder");
  jb_str(&b, "fs", t->fs_type);
  jb_str(&b, "file", t->file_path[0] ? t->file_path : NULL);
  jb_u64(&b, "size", t->size);
  jb_bool(&b, "direct", t->direct);
  jb_u64(&b, "jobs", o->njobs);
  // The threads each job starts, in job order: a caller checks that RND4K Q32T16 gets its 16.
  jb_key(&b, "threads");
  jb_raw(&b, "[");
  for (unsigned i = 0; i < o->njobs; i++) {
    char n[16];
    snprintf(n, sizeof n, "%s%u", i ? "," : "", o->jobs[i].threads);
    jb_raw(&b, n);
  }
  jb_raw(&b, "]");
  jb_end_emit(&b);
}

static int finish(target_t *t, int rc) {
  target_close(t);
  return emit_end(rc, g_stop, "the test file was removed");
}

static options_t *g_progress_opts;

static void fill_progress(uint64_t done, uint64_t total) {
  static uint64_t last;
  uint64_t now = now_ns();
  if (done < total && now - last < 250000000ull) return;
  last = now;
  emit_byte_progress("prepare", g_progress_opts ? (uint64_t)g_progress_opts->njobs : 0, done, total);
}

static const io_engine_t *choose_engine(const options_t *o, int *rc) {
  const char *want = o->engine ? o->engine : ENGINES[0]->name;
  for (unsigned i = 0; i < ENGINE_COUNT; i++)
    if (strcmp(ENGINES[i]->name, want) == 0) return ENGINES[i];
  *rc = usage_error("--engine '%s' is unknown: use io_uring, aio or psync", want);
  return NULL;
}

// --rest: sleep in short steps so that a stop signal ends the wait within 0.1 s.
static void rest_between_jobs(double seconds) {
  uint64_t until = now_ns() + (uint64_t)(seconds * 1e9);
  while (!g_stop && now_ns() < until) {
    struct timespec step = {.tv_sec = 0, .tv_nsec = 100000000L};
    nanosleep(&step, NULL);
  }
}

static int cmd_run(options_t *o, int prepare_only) {
  int rc = 0;
  const io_engine_t *engine = choose_engine(o, &rc);
  if (!engine) return rc;
  if (!prepare_only && o->njobs == 0) return usage_error("run needs at least one --job");
  target_request_t req = {.size = o->size, .buffered = o->buffered, .reuse = prepare_only ? NULL : o->file,
                          .fd = (int)o->fd, .helper = o->helper, .fd_from = o->fd_from};
  for (unsigned i = 0; i < o->njobs; i++) req.needs_write |= o->jobs[i].pattern->may_write && o->jobs[i].pattern->rw != RW_SEEKS;
  // (seeks are left out above: on a block device they run read-only, with a warning)
  if (o->read_only) {
    // Said before anything is opened: read-only mode writes nothing, not even a test file.
    for (unsigned i = 0; i < o->njobs; i++)
      if (o->jobs[i].pattern->may_write && o->jobs[i].pattern->rw != RW_SEEKS)  // seeks on a device only read
        return emit_end(emit_failure(FAIL_READ_ONLY_MODE, "read-only mode runs read jobs only: job %s writes (%s)",
                                     o->jobs[i].name, o->jobs[i].pattern->name),
                        0, "nothing was opened");
    struct stat st;
    if (prepare_only || stat(o->target, &st) != 0 || !S_ISBLK(st.st_mode))
      return emit_end(emit_failure(FAIL_READ_ONLY_MODE,
                                   "read-only mode: %s is not a block device, and measuring a folder needs a test file written in it: "
                                   "give the disk's device",
                                   o->target),
                      0, "nothing was opened");
  }
  target_t t;
  // Only a folder can hold stale files; sweeping a device path is harmless (not a directory).
  if (!o->file) sweep_stale_files(o->target);
  rc = target_open(&t, o->target, &req);
  if (rc) return finish(&t, rc);
  engine = engine_available(engine, &t);
  emit_hello(o, &t, engine->name);
  if (!t.direct) emit_warning("buffered-io", "O_DIRECT is off (--buffered): results include the page cache and are not the disk's speed");
  if (t.is_blockdev)
    for (unsigned i = 0; i < o->njobs; i++)
      if (o->jobs[i].pattern->rw == RW_SEEKS)
        emit_warning("seeks-read-only", "%s: on a block device the seeks only read (bonnie++ rewrites every 10th block)", o->jobs[i].name);

  if (t.owns_file) {
    g_progress_opts = o;
    rc = target_fill(&t, fill_progress);
    if (rc) return finish(&t, rc);
  }
  if (prepare_only) {
    // Hand the file over: it stays, and its path is the result.
    target_keep_file(&t);
    jbuf_t b;
    jb_begin(&b, "prepared");
    jb_str(&b, "file", t.file_path);
    jb_u64(&b, "size", t.size);
    jb_end_emit(&b);
    return finish(&t, 0);
  }

  const unsigned min_direct = target_probe_min_direct(&t);
  for (unsigned j = 0; j < o->njobs && !g_stop && rc == 0; j++) {
    if (j > 0 && o->rest > 0) rest_between_jobs(o->rest);
    if (min_direct && o->jobs[j].bs % min_direct != 0) {
      // The sweep's 512 B and 1 KiB on a 4Kn disk: O_DIRECT cannot do them, and buffered
      // figures would be the page cache's. Skipped and said; the other jobs run.
      emit_warning("block-size-skipped", "%s: %u-byte blocks are below this target's smallest direct I/O (%u bytes, its logical block): skipped",
                   o->jobs[j].name, o->jobs[j].bs, min_direct);
      continue;
    }
    job_opts_t jo = {.engine = engine, .warmup_s = o->warmup, .duration_s = o->duration, .sample_ms = o->sample_ms,
                     .min_window_ios = o->min_window_ios,
                     .seed = o->seed, .job_index = j, .job_count = o->njobs,
                     .stop = {.precision = o->precision, .min_runs = o->runs,
                              .max_runs = o->precision > 0 || o->steady ? o->max_runs : o->runs, .max_time_s = o->max_time,
                              .min_ios = o->min_ios, .min_seconds = o->min_time, .steady = o->steady}};
    rc = run_job(&o->jobs[j], &t, &jo);
  }
  return finish(&t, rc);
}

static int cmd_measure(options_t *o) { return cmd_run(o, 0); }
static int cmd_prepare(options_t *o) { return cmd_run(o, 1); }

// `hold`: the descriptor is opened like a run's (the same checks), then served, never measured.
static int cmd_hold(options_t *o) {
  if (!o->socket) return usage_error("hold needs --socket PATH");
  if (!o->helper && !o->fd) return usage_error("hold needs --helper PATH or --fd N");
  target_request_t req = {.size = o->size, .fd = (int)o->fd, .helper = o->helper};
  target_t t;
  int rc = target_open(&t, o->target, &req);
  if (rc) return finish(&t, rc);
  if (!t.is_blockdev) return finish(&t, usage_error("hold is for a block device target"));
  rc = elevate_hold(t.fd, o->socket);
  t.fd = -1;  // elevate_hold closed it
  return finish(&t, rc);
}

// `crypt-hold`: a throwaway dm-crypt mapping for a user who is not root. The helper makes it
// over a file `prepare` made (named as DiskDelta's, owned by this user) and passes back the
// mapping and the loop beneath; both are served until stdin closes, and when this process has
// closed them (or died) the kernel removes them.
static int cmd_crypt_hold(options_t *o) {
  if (!o->socket || !o->helper || !o->crypt || !o->target)
    return usage_error("crypt-hold needs --target FILE, --helper PATH, --crypt SPEC and --socket PATH");
  // Said here, before anyone is asked for a password; the helper checks it again as root.
  struct stat st;
  int found = stat(o->target, &st) == 0;
  if (!found || !S_ISREG(st.st_mode))
    return emit_failure(FAIL_TARGET_MISSING, "crypt-hold: %s is not a file (%s): give the test file `prepare` made", o->target,
                        found ? "not a regular file" : strerror(errno));
  char raw_socket[PATH_MAX];
  if (snprintf(raw_socket, sizeof raw_socket, "%s.raw", o->socket) >= (int)sizeof raw_socket)
    return usage_error("--socket %s is too long", o->socket);
  int fds[2];
  char devices[2][64];
  int rc = elevate_crypt_setup(o->helper, o->target, o->crypt, fds, devices);
  if (rc) return rc;
  const char *sockets[2] = {o->socket, raw_socket};
  const char *names[2] = {devices[0], devices[1]};
  return elevate_hold_many(fds, sockets, names, 2);
}

// The workloads: their own folder under --target, swept of killed runs' leftovers first.
static workload_opts_t workload_opts(const options_t *o) {
  sweep_stale_files(o->target);
  return (workload_opts_t){.target = o->target, .runs = o->runs, .warmup_passes = o->warmup_passes, .tree_files = o->tree_files,
                           .tree_bytes = o->tree_bytes, .size = o->size, .readers = o->readers, .app_mix = o->app_mix,
                           .app_files = o->app_files, .helper = o->helper, .pause = o->pause,
                           .tarball = o->tarball};
}

static int cmd_tree(options_t *o) {
  workload_opts_t w = workload_opts(o);
  return workload_tree(&w);
}

static int cmd_bigfile(options_t *o) {
  workload_opts_t w = workload_opts(o);
  return workload_bigfile(&w);
}

static int cmd_app_start(options_t *o) {
  workload_opts_t w = workload_opts(o);
  return workload_app_start(&w);
}

static int cmd_record(options_t *o) {
  if (!o->trace) return usage_error("record needs --trace PATH (where the accesses are kept)");
  if (o->fd && o->helper) return usage_error("record takes --fd or --helper, not both");
  record_opts_t r = {.target = o->target, .trace = o->trace, .seconds = o->seconds, .merge_ms = o->merge_ms, .fd = o->fd,
                     .helper = o->helper};
  return access_record(&r);
}

static int cmd_sustained(options_t *o) {
  sustained_opts_t so = {.target = o->target, .size = o->size, .block = o->block, .depth = o->depth, .sample_ms = o->sample_ms,
                         .rest = o->rest, .recovery = o->recovery_size, .seed = o->seed};
  return sustained_write(&so);
}

static int cmd_surface(options_t *o) {
  surface_opts_t so = {.target = o->target, .samples = o->samples, .sample_bytes = o->sample_bytes, .block = o->block,
                       .accesses = o->accesses, .seed = o->seed,
                       .access = {.fd = (int)o->fd, .helper = o->helper, .fd_from = o->fd_from}};
  return surface_scan(&so);
}

static int cmd_cleanup(options_t *o) {
  int n = sweep_stale_files(o->target);
  jbuf_t b;
  jb_begin(&b, "cleaned");
  jb_i64(&b, "removed", n);
  jb_end_emit(&b);
  emit_done("ok", 0);
  return 0;
}

// Runs one verb on parsed options; returns the exit code. A switch without a default: a verb
// added to the table without its function here is a compile warning (-Wswitch; -Werror in CI).
static int run_verb(options_t *o, worker_verb_t verb) {
  if (!o->seed && syscall(SYS_getrandom, &o->seed, sizeof o->seed, 0) != (long)sizeof o->seed) o->seed = now_ns();
  switch (verb) {
    case VERB_RUN: return cmd_measure(o);
    case VERB_PREPARE: return cmd_prepare(o);
    case VERB_CLEANUP: return cmd_cleanup(o);
    case VERB_HOLD: return cmd_hold(o);
    case VERB_CRYPT_HOLD: return cmd_crypt_hold(o);
    case VERB_TREE: return cmd_tree(o);
    case VERB_BIGFILE: return cmd_bigfile(o);
    case VERB_APP_START: return cmd_app_start(o);
    case VERB_WORKING_SET: return working_set_scan(o->target);
    case VERB_RECORD: return cmd_record(o);
    case VERB_SUSTAINED: return cmd_sustained(o);
    case VERB_SURFACE: return cmd_surface(o);
    case VERB_COUNT: break;
  }
  return EXIT_INTERNAL;
}

static int find_verb(const char *name, worker_verb_t *verb) {
  for (unsigned i = 0; i < VERB_COUNT; i++)
    if (strcmp(name, VERBS[i].name) == 0) return *verb = (worker_verb_t)i, 1;
  return 0;
}

int main(int argc, char **argv) {
  install_signals();
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    print_help(argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("%s %s (protocol %d)\n", WORKER_NAME, WORKER_VERSION, PROTOCOL_VERSION);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "ciphers") == 0) return cmd_ciphers(argc, argv);
  worker_verb_t verb;
  if (!find_verb(argv[1], &verb)) {
    char names[256] = "";
    size_t n = 0;
    for (unsigned i = 0; i < VERB_COUNT && n < sizeof names; i++) {
      int w = snprintf(names + n, sizeof names - n, "%s, ", VERBS[i].name);
      if (w < 0) break;
      n += (size_t)w;
    }
    return usage_error("unknown verb '%s': use %sciphers or --help", argv[1], names);
  }
  options_t *o = calloc(1, sizeof *o);
  if (!o) return EXIT_INTERNAL;
  apply_defaults(o);
  int rc = parse_options(o, verb, argc, argv);
  if (rc == 0) rc = run_verb(o, verb);
  free(o);  // (LeakSanitizer checks at exit, so the sanitizer build would flag it otherwise)
  return rc;
}
