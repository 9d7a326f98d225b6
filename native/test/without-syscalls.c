// Test helper: runs a command as on a kernel without io_uring (or without kernel AIO).
//   without-syscalls ENOSYS|EPERM io_uring|aio|io_uring,aio COMMAND [ARG…]
// A seccomp filter makes those system calls fail with the given errno: ENOSYS is a kernel
// built without them, EPERM is kernel.io_uring_disabled=2 (which answers io_uring_setup with
// EPERM) or a container's seccomp policy. Unlike the sysctl, it touches nothing outside this
// process tree, so it is safe on a shared machine and needs no root.
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s ENOSYS|EPERM io_uring|aio|io_uring,aio COMMAND [ARG...]\n", argv[0]);
    return 2;
  }
  unsigned err = strcmp(argv[1], "EPERM") == 0 ? EPERM : ENOSYS;
  int uring = strstr(argv[2], "io_uring") != NULL, aio = strstr(argv[2], "aio") != NULL;
  // The system call numbers of this architecture (a test helper: no arch check needed,
  // since it only ever runs the native worker).
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uring ? SYS_io_uring_setup : ~0u, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, aio ? SYS_io_setup : ~0u, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
  };
  struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    perror("seccomp");
    return 2;
  }
  execvp(argv[3], argv + 3);
  perror(argv[3]);
  return 2;
}
