// Test harness: the helper's own nvme-smart.c, linked against a pretend drive. This file defines
// ioctl(), which the linker takes over libc's, so every admin command nvme_smart_print() builds
// comes here instead of to a driver: each is printed (opcode, nsid, CDW10, CDW11, length) on
// stderr as a JSON line, and answered with pages laid out by the NVMe and OCP specifications'
// byte offsets. No drive on the build machines has an endurance-group log or OCP's C0h page
// (QEMU 7.2 has neither), so this is where the commands' encoding meets the pages' layout.
//
//   nvme-smart-fake SCENARIO DEVICE_PATH
// SCENARIO: both (C0h with OCP's GUID and group 1's 09h log), egonly (no C0h), wrongguid (a
// vendor's C0h), nogroups (CTRATT bit 4 clear, no C0h), twogroups (ENDGIDMAX 2), group3 (the
// namespace names endurance group 3: needs DEVICE_PATH to be a block device).
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nvme-smart.h"

static const char *scenario = "";

static void put_u128(uint8_t *page, int offset, uint64_t low) {
  for (int i = 0; i < 8; i++) page[offset + i] = (uint8_t)(low >> (8 * i));
}

static void put_le16(uint8_t *p, unsigned v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

// A drive's answer: 0, or an NVMe status (Invalid Field in Command, Do Not Retry: 0x4002).
static int answer(struct nvme_admin_cmd *cmd) {
  uint8_t *buf = (uint8_t *)(uintptr_t)cmd->addr;
  unsigned log_id = cmd->cdw10 & 0xff;
  int has_groups = strcmp(scenario, "nogroups") != 0;
  if (cmd->opcode == 0x06 && cmd->cdw10 == 0x01) {  // Identify Controller
    if (has_groups) buf[96] = 1u << 4;                // CTRATT bit 4: endurance groups
    put_le16(buf + 340, strcmp(scenario, "twogroups") == 0 ? 2 : 1);  // ENDGIDMAX
    return 0;
  }
  if (cmd->opcode == 0x06 && cmd->cdw10 == 0x00) {  // Identify Namespace
    put_le16(buf + 102, strcmp(scenario, "group3") == 0 ? 3 : 1);  // ENDGID
    return 0;
  }
  if (cmd->opcode != 0x02) return 0x4002;
  if (log_id == 0x02) {                                  // SMART / health
    put_le16(buf + 1, 323);                              // 49.85 °C
    put_u128(buf, 48, 40000);                            // data units written
    return 0;
  }
  if (log_id == 0x09 && has_groups) {                    // Endurance Group Information
    unsigned group = cmd->cdw11 >> 16;
    unsigned want = strcmp(scenario, "group3") == 0 ? 3 : 1;
    if (group != want) return 0x4002;
    put_u128(buf, 64, 20);                               // Data Units Written (billions of bytes)
    put_u128(buf, 80, 25);                               // Media Units Written (billions of bytes)
    return 0;
  }
  if (log_id == 0xc0 && (strcmp(scenario, "both") == 0 || strcmp(scenario, "wrongguid") == 0)) {
    put_u128(buf, 0, 123456789012ull);                   // Physical Media Units Written, bytes
    static const uint8_t guid[16] = {0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
                                     0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf};
    for (int i = 0; i < 16; i++) buf[496 + i] = strcmp(scenario, "both") == 0 ? guid[i] : guid[15 - i];
    return 0;
  }
  return 0x4002;
}

int ioctl(int fd, unsigned long request, ...) {
  (void)fd;
  if (request == (unsigned long)NVME_IOCTL_ID) return 1;
  if (request != (unsigned long)NVME_IOCTL_ADMIN_CMD) return errno = ENOTTY, -1;
  va_list ap;
  va_start(ap, request);
  struct nvme_admin_cmd *cmd = va_arg(ap, struct nvme_admin_cmd *);
  va_end(ap);
  fprintf(stderr, "{\"opcode\":%u,\"nsid\":%u,\"cdw10\":%u,\"cdw11\":%u,\"data_len\":%u}\n", cmd->opcode, cmd->nsid, cmd->cdw10,
          cmd->cdw11, cmd->data_len);
  return answer(cmd);
}

int main(int argc, char **argv) {
  if (argc != 3) return fprintf(stderr, "usage: %s SCENARIO DEVICE_PATH\n", argv[0]), 2;
  scenario = argv[1];
  int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
  if (fd < 0) return perror(argv[2]), 2;
  char why[256];
  if (nvme_smart_print(fd, argv[2], stdout, why, sizeof why) != 0) return fprintf(stderr, "%s\n", why), 1;
  return 0;
}
