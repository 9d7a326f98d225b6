// GENERATED from electron/shared/model/worker-options.ts by `npm run gen:worker-options`: do not edit.
// The worker's verbs and options: main.c builds its VERBS[] and OPTIONS[] (and --help) from these.
#ifndef DD_WORKER_OPTIONS_H
#define DD_WORKER_OPTIONS_H

typedef enum {
  VERB_RUN,
  VERB_PREPARE,
  VERB_CLEANUP,
  VERB_HOLD,
  VERB_CRYPT_HOLD,
  VERB_TREE,
  VERB_BIGFILE,
  VERB_APP_START,
  VERB_WORKING_SET,
  VERB_RECORD,
  VERB_SUSTAINED,
  VERB_SURFACE,
  VERB_COUNT
} worker_verb_t;

#define VERB_BIT(v) (1u << (v))

// X(id, name, help)
#define WORKER_VERBS(X) \
  X(VERB_RUN, "run", "measure the jobs on --target (test file created, filled, always removed)") \
  X(VERB_PREPARE, "prepare", "create and fill a test file in --target and keep it; prints its path (for harnesses)") \
  X(VERB_CLEANUP, "cleanup", "remove test files left in --target by killed runs") \
  X(VERB_HOLD, "hold", "open the block device --target once (--helper or --fd) and serve its descriptor on --socket\n             to this user's runs (--fd-from) until stdin closes: one authentication a session") \
  X(VERB_CRYPT_HOLD, "crypt-hold", "have the helper map DiskDelta's own test file --target through dm-crypt (--crypt), read-only,\n             and serve the mapping on --socket and the loop beneath on --socket.raw until stdin closes") \
  X(VERB_TREE, "tree", "write a source tree of a real release's shape, syncfs; delete it, syncfs (--runs, --tree-files)") \
  X(VERB_BIGFILE, "bigfile", "write one --size file (shrunk to what fits), syncfs; delete it, syncfs") \
  X(VERB_APP_START, "app-start", "--readers programs start at once from a cold cache, each reading its own files") \
  X(VERB_WORKING_SET, "working-set", "walk the folder --target on its one mount (reads no file) and report its files' bytes by days\n             since last read or written, per child folder; other mounts and unreadable folders named") \
  X(VERB_RECORD, "record", "record the file accesses on --target's whole filesystem (fanotify: --helper, --fd or root) into\n             --trace, per touch only a hash of the file, its bytes and when; until --seconds or a signal") \
  X(VERB_SUSTAINED, "sustained", "write --size bytes sequentially into a new test file in the folder --target (--block, --depth),\n             the rate every --sample-ms; then, after --rest idle seconds, --recovery-size bytes again; file removed") \
  X(VERB_SURFACE, "surface", "read the block device --target at --samples offsets spread from its start to its end, --sample-bytes\n             each in --block reads (O_DIRECT, read-only), then --accesses random 4 KiB reads for the access time") \


// X(field, name, arg, kind, min, max, default, has_default, verbs, help)
#define WORKER_OPTIONS(X) \
  X(target, "--target", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE) | VERB_BIT(VERB_CLEANUP) | VERB_BIT(VERB_HOLD) | VERB_BIT(VERB_CRYPT_HOLD) | VERB_BIT(VERB_TREE) | VERB_BIT(VERB_BIGFILE) | VERB_BIT(VERB_APP_START) | VERB_BIT(VERB_WORKING_SET) | VERB_BIT(VERB_RECORD) | VERB_BIT(VERB_SUSTAINED) | VERB_BIT(VERB_SURFACE), "folder to test in, or a block device (read tests only)") \
  X(size, "--size", "BYTES", OPT_BYTES, 1048576.0, 1125899906842624.0, 1073741824.0, 1, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE) | VERB_BIT(VERB_HOLD) | VERB_BIT(VERB_BIGFILE) | VERB_BIT(VERB_SUSTAINED), "test file size / device span; sustained: bytes written past the fast cache (default 1073741824)") \
  X(duration, "--duration", "SECONDS", OPT_NUMBER, 0.2, 3600.0, 5.0, 1, VERB_BIT(VERB_RUN), "timed window of each run (default 5)") \
  X(warmup, "--warmup", "SECONDS", OPT_NUMBER, 0.0, 600.0, 1.0, 1, VERB_BIT(VERB_RUN), "untimed I/O before the runs of each job (default 1)") \
  X(read_only, "--read-only", NULL, OPT_FLAG, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN), "write nothing: refuse writing jobs and a folder target (its test file is a write); block devices only") \
  X(rest, "--rest", "SECONDS", OPT_NUMBER, 0.0, 600.0, 0.0, 1, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_SUSTAINED), "idle seconds between one job and the next, or before sustained's recovery (no I/O; a stop signal ends the wait) (default 0)") \
  X(runs, "--runs", "N", OPT_COUNT, 1.0, 100.0, 1.0, 1, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_TREE) | VERB_BIT(VERB_BIGFILE) | VERB_BIT(VERB_APP_START), "timed runs per job (workloads: timed passes); with --precision the fewest (default 1)") \
  X(precision, "--precision", "FRACTION", OPT_NUMBER, 0.0, 0.5, 0.0, 1, VERB_BIT(VERB_RUN), "adaptive: add runs until the median's 95 % interval is within ±FRACTION (0.02: ±2 %)\n                        and --min-ios/--min-time are met, or until --max-time/--max-runs; 0: --runs fixed (default 0)") \
  X(steady, "--steady", NULL, OPT_FLAG, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN), "steady state, SNIA PTS: add runs (rounds) until the last 5 lie within 20 % of their mean and their\n                        fitted line's rise within 10 % of it, or until --max-runs (at least --runs)") \
  X(max_runs, "--max-runs", "N", OPT_COUNT, 1.0, 100.0, 100.0, 1, VERB_BIT(VERB_RUN), "adaptive: most timed runs per job (default 100)") \
  X(max_time, "--max-time", "SECONDS", OPT_NUMBER, 0.0, 36000.0, 0.0, 1, VERB_BIT(VERB_RUN), "adaptive: most timed seconds per job, warm-up excluded; 0: none (default 0)") \
  X(min_ios, "--min-ios", "N", OPT_COUNT, 0.0, 1000000.0, 0.0, 1, VERB_BIT(VERB_RUN), "adaptive: fewest I/Os over a job's runs before it may stop (default 0)") \
  X(min_window_ios, "--min-window-ios", "N", OPT_COUNT, 0.0, 1000000.0, 0.0, 1, VERB_BIT(VERB_RUN), "runs of a slow device last long enough for N I/Os, judged late in the warm-up; 0: --duration (default 0)") \
  X(min_time, "--min-time", "SECONDS", OPT_NUMBER, 0.0, 3600.0, 0.0, 1, VERB_BIT(VERB_RUN), "adaptive: fewest timed seconds over a job's runs before it may stop (default 0)") \
  X(sample_ms, "--sample-ms", "MS", OPT_COUNT, 0.0, 10000.0, 100.0, 1, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_SUSTAINED), "sample interval, 0 for none; at least 50 (default 100)") \
  X(jobs, "--job", "SPEC", OPT_JOB, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE), "a test, repeatable: name=ID,rw=PATTERN,bs=N,qd=N,threads=N[,read=PCT]") \
  X(engine, "--engine", "NAME", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE), "io_uring (default), aio or psync; each falls back to the next, reported") \
  X(buffered, "--buffered", NULL, OPT_FLAG, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE), "no O_DIRECT (page cache): results are flagged as not the disk's") \
  X(file, "--file", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN), "run: reuse a file made by `prepare` (kept afterwards)") \
  X(fd, "--fd", "N", OPT_COUNT, 3.0, 1048576.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE) | VERB_BIT(VERB_HOLD) | VERB_BIT(VERB_RECORD) | VERB_BIT(VERB_SURFACE), "block device: measure on this inherited read-only descriptor of --target; record: an inherited fanotify group (root's, reporting descriptors)") \
  X(helper, "--helper", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE) | VERB_BIT(VERB_HOLD) | VERB_BIT(VERB_CRYPT_HOLD) | VERB_BIT(VERB_APP_START) | VERB_BIT(VERB_RECORD) | VERB_BIT(VERB_SURFACE), "block device: have `pkexec PATH open-ro` open --target and pass it back; app-start: drop the page cache through it;\n                        record: have `pkexec PATH record-accesses` record and pass back only records of files you may look up") \
  X(fd_from, "--fd-from", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE) | VERB_BIT(VERB_SURFACE), "block device: fetch the descriptor from a `hold` process's socket") \
  X(socket, "--socket", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_HOLD) | VERB_BIT(VERB_CRYPT_HOLD), "hold: where to serve the descriptor (a new name in a private folder); crypt-hold: the mapping's,\n                        and the loop's at PATH.raw") \
  X(crypt, "--crypt", "SPEC", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_CRYPT_HOLD), "crypt-hold: \"CIPHER KEY_BITS SECTOR_BYTES FLAGS\", e.g. \"aes-xts-plain64 512 4096 none\"") \
  X(seed, "--seed", "N", OPT_U64, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RUN) | VERB_BIT(VERB_PREPARE) | VERB_BIT(VERB_SURFACE), "random seed (default: from the kernel)") \
  X(warmup_passes, "--warmup-passes", "N", OPT_COUNT, 0.0, 10.0, 1.0, 1, VERB_BIT(VERB_TREE) | VERB_BIT(VERB_BIGFILE) | VERB_BIT(VERB_APP_START), "workloads: untimed passes before the --runs timed ones (default 1)") \
  X(tree_files, "--tree-files", "N", OPT_COUNT, 1.0, 10000000.0, 0.0, 0, VERB_BIT(VERB_TREE), "tree: files, the shape scaled to them (default: the release's)") \
  X(tree_bytes, "--tree-bytes", "BYTES", OPT_BYTES, 1048576.0, 17592186044416.0, 0.0, 0, VERB_BIT(VERB_TREE), "tree: total bytes, sizes scaled (default: the release's)") \
  X(readers, "--readers", "N", OPT_COUNT, 1.0, 64.0, 4.0, 1, VERB_BIT(VERB_APP_START), "app-start: programs starting at once, each its own files (default 4)") \
  X(app_mix, "--app-mix", "MIX", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_APP_START), "app-start: program (a binary, 30 libraries, 160 resources; default) or small (4 KiB files, one I/O each)") \
  X(tarball, "--tarball", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_TREE), "tree: extract this tarball with tar(1) instead of writing the shape") \
  X(pause, "--pause", NULL, OPT_FLAG, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_TREE), "tree: after each write phase wait for a line on stdin before deleting (harnesses)") \
  X(app_files, "--app-files", "N", OPT_COUNT, 1.0, 100000.0, 200.0, 1, VERB_BIT(VERB_APP_START), "app-start --app-mix small: files per program (default 200)") \
  X(trace, "--trace", "PATH", OPT_STRING, 0.0, 0.0, 0.0, 0, VERB_BIT(VERB_RECORD), "record: the trace file, appended to (created 0600; a later run resumes it)") \
  X(seconds, "--seconds", "SECONDS", OPT_NUMBER, 0.0, 34560000.0, 0.0, 1, VERB_BIT(VERB_RECORD), "record: stop after this long; 0: until SIGTERM/SIGINT (default 0)") \
  X(merge_ms, "--merge-ms", "MS", OPT_COUNT, 0.0, 3600000.0, 1000.0, 1, VERB_BIT(VERB_RECORD), "record: a file's reads (or opens, or writes) within this window are one touch; 0: every event (default 1000)") \
  X(block, "--block", "BYTES", OPT_BYTES, 4096.0, 67108864.0, 1048576.0, 1, VERB_BIT(VERB_SUSTAINED) | VERB_BIT(VERB_SURFACE), "sustained: bytes per write; surface: bytes per read; a multiple of 4096 (default 1048576)") \
  X(samples, "--samples", "N", OPT_COUNT, 2.0, 10000.0, 100.0, 1, VERB_BIT(VERB_SURFACE), "surface: offsets read, evenly spread from the first to the last byte (default 100)") \
  X(sample_bytes, "--sample-bytes", "BYTES", OPT_BYTES, 4096.0, 1073741824.0, 4194304.0, 1, VERB_BIT(VERB_SURFACE), "surface: bytes read sequentially at each offset, a multiple of --block (default 4194304)") \
  X(accesses, "--accesses", "N", OPT_COUNT, 0.0, 100000.0, 100.0, 1, VERB_BIT(VERB_SURFACE), "surface: random 4 KiB reads timed one at a time (the access time); 0: none (default 100)") \
  X(depth, "--depth", "N", OPT_COUNT, 1.0, 64.0, 1.0, 1, VERB_BIT(VERB_SUSTAINED), "sustained: writes in flight (one thread each, one sequential stream) (default 1)") \
  X(recovery_size, "--recovery-size", "BYTES", OPT_BYTES, 0.0, 1125899906842624.0, 0.0, 1, VERB_BIT(VERB_SUSTAINED), "sustained: bytes written again from the start after --rest, to see the cache come back; 0: none (default 0)") \


#endif
