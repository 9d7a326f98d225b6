// GENERATED from electron/shared/model/failures.ts by `npm run gen:failures`: do not edit.
// Each failure is its stable code (the `code` of the error line) and the exit status it ends with.
#ifndef DD_FAILURES_H
#define DD_FAILURES_H

enum {
  EXIT_OK = 0,
  EXIT_INTERNAL = 1,
  EXIT_USAGE = 2,
  EXIT_TARGET = 3,
  EXIT_NOSPACE = 4,
  EXIT_NODIRECT = 5,
  EXIT_IO = 6,
  EXIT_INTERRUPTED = 7,
  EXIT_ELEVATION = 9,
  EXIT_NOT_SAVED = 10,
};

typedef struct {
  const char *code;
  int exit;
} failure_t;

#define FAIL_USAGE                  ((failure_t){"usage", EXIT_USAGE})
#define FAIL_WRITE_ON_BLOCK_DEVICE  ((failure_t){"write-on-block-device", EXIT_USAGE})
#define FAIL_READ_ONLY_MODE         ((failure_t){"read-only-mode", EXIT_USAGE})
#define FAIL_TARGET_MISSING         ((failure_t){"target-missing", EXIT_TARGET})
#define FAIL_TARGET_NOT_FOLDER      ((failure_t){"target-not-folder", EXIT_TARGET})
#define FAIL_TARGET_NOT_WRITABLE    ((failure_t){"target-not-writable", EXIT_TARGET})
#define FAIL_PERMISSION             ((failure_t){"permission", EXIT_TARGET})
#define FAIL_TARGET_UNUSABLE        ((failure_t){"target-unusable", EXIT_TARGET})
#define FAIL_TARGET_VIRTUAL_FS      ((failure_t){"target-virtual-fs", EXIT_TARGET})
#define FAIL_NO_SPACE               ((failure_t){"no-space", EXIT_NOSPACE})
#define FAIL_SPAN_NO_SPACE          ((failure_t){"span-no-space", EXIT_NOSPACE})
#define FAIL_NO_DIRECT_IO           ((failure_t){"no-direct-io", EXIT_NODIRECT})
#define FAIL_IO_ERROR               ((failure_t){"io-error", EXIT_IO})
#define FAIL_INTERRUPTED            ((failure_t){"interrupted", EXIT_INTERRUPTED})
#define FAIL_DISK_BUSY              ((failure_t){"disk-busy", EXIT_INTERNAL})
#define FAIL_NOT_SAVED              ((failure_t){"not-saved", EXIT_NOT_SAVED})
#define FAIL_INTERNAL               ((failure_t){"internal", EXIT_INTERNAL})
#define FAIL_NEEDS_ELEVATION        ((failure_t){"needs-elevation", EXIT_TARGET})
#define FAIL_DEVICE_VANISHED        ((failure_t){"device-vanished", EXIT_TARGET})
#define FAIL_HELPER_REFUSED         ((failure_t){"helper-refused", EXIT_TARGET})
#define FAIL_BAD_FD                 ((failure_t){"bad-fd", EXIT_USAGE})
#define FAIL_PKEXEC_MISSING         ((failure_t){"pkexec-missing", EXIT_ELEVATION})
#define FAIL_ELEVATE_POLICY_MISSING ((failure_t){"elevate-policy-missing", EXIT_ELEVATION})
#define FAIL_HELPER_MISSING         ((failure_t){"helper-missing", EXIT_ELEVATION})
#define FAIL_ELEVATE_NO_AGENT       ((failure_t){"elevate-no-agent", EXIT_ELEVATION})
#define FAIL_ELEVATE_DISMISSED      ((failure_t){"elevate-dismissed", EXIT_ELEVATION})
#define FAIL_ELEVATE_DENIED         ((failure_t){"elevate-denied", EXIT_ELEVATION})
#define FAIL_ELEVATE_FAILED         ((failure_t){"elevate-failed", EXIT_ELEVATION})
#define FAIL_HELPER_KILLED          ((failure_t){"helper-killed", EXIT_ELEVATION})
#define FAIL_HELPER_FAILED          ((failure_t){"helper-failed", EXIT_ELEVATION})
#define FAIL_HOLDER_GONE            ((failure_t){"holder-gone", EXIT_ELEVATION})
#define FAIL_NO_CIPHER_BACKEND      ((failure_t){"no-cipher-backend", EXIT_TARGET})
#define FAIL_NEEDS_ROOT             ((failure_t){"needs-root", EXIT_TARGET})
#define FAIL_NO_DM_CRYPT            ((failure_t){"no-dm-crypt", EXIT_USAGE})
#define FAIL_DM_CRYPT_UNAVAILABLE   ((failure_t){"dm-crypt-unavailable", EXIT_TARGET})
#define FAIL_THROWAWAY_FAILED       ((failure_t){"throwaway-failed", EXIT_INTERNAL})

#define EXIT_CODES_HELP "Exit codes: 0 ok; 1 any other failure (no such run, an unreadable library, an internal error); 2 bad usage (the message names the flag or value), incl. a write test on a block device; 3 target unusable (missing, not a folder or block device, read-only, no permission); 4 not enough free space for the test file; 5 O_DIRECT refused or meaningless (tmpfs) without --buffered; 6 I/O error during the test; 7 interrupted by a signal or Ctrl-C (the test file is removed); 9 a raw device could not be opened for you: pkexec or the policy missing, no polkit agent, dismissed, denied, or the helper killed; 10 measured and printed (--json too), but the library could not save the results (every command that saves a measurement: run, surface, encryption, ciphers, discard-cost, trim-audit, working-set, record)."

#endif
