// Get Log Page 02h (SMART / Health Information, NVMe base specification 1.4, figure 194) through
// NVME_IOCTL_ADMIN_CMD. The command is fixed here: opcode 02h, all namespaces, 512 bytes of the
// log into our own buffer. It reads the drive's counters and changes nothing on it.
#include "nvme-smart.h"

#include <errno.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SMART_LOG_ID 0x02
#define SMART_LOG_BYTES 512
#define ADMIN_GET_LOG_PAGE 0x02

// The last component of the link LINK points to ("nvme" for …/class/nvme), or "" when unreadable.
void sysfs_link_tail(const char *link, char *out, size_t outlen) {
  char target[PATH_MAX];
  ssize_t n = readlink(link, target, sizeof target - 1);
  out[0] = '\0';
  if (n <= 0) return;
  target[n] = '\0';
  const char *slash = strrchr(target, '/');
  const char *tail = slash ? slash + 1 : target;
  // A class name is short; a longer one is no class this code knows.
  if (strlen(tail) < outlen) memcpy(out, tail, strlen(tail) + 1);
}

int nvme_smart_check_fd(int fd, char *why, size_t whylen) {
  struct stat st;
  if (fstat(fd, &st) != 0) return snprintf(why, whylen, "fstat: %s", strerror(errno)), -1;
  char path[96], subsystem[64];
  unsigned maj = major(st.st_rdev), min = minor(st.st_rdev);
  if (S_ISCHR(st.st_mode)) {
    // The controller's character device: its class is nvme.
    snprintf(path, sizeof path, "/sys/dev/char/%u:%u/subsystem", maj, min);
    sysfs_link_tail(path, subsystem, sizeof subsystem);
    if (strcmp(subsystem, "nvme") != 0)
      return snprintf(why, whylen, "character device %u:%u is not an NVMe controller (its class is '%s')", maj, min, subsystem), -1;
    return 0;
  }
  if (!S_ISBLK(st.st_mode)) return snprintf(why, whylen, "neither an NVMe controller nor an NVMe namespace"), -1;
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u/partition", maj, min);
  if (access(path, F_OK) == 0) return snprintf(why, whylen, "a partition: name the whole namespace (/dev/nvmeNnM)"), -1;
  // A namespace's device is its controller (class nvme) or, with native multipath, its
  // subsystem (class nvme-subsystem), which routes the command to one of its controllers.
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u/device/subsystem", maj, min);
  sysfs_link_tail(path, subsystem, sizeof subsystem);
  if (strcmp(subsystem, "nvme") != 0 && strcmp(subsystem, "nvme-subsystem") != 0)
    return snprintf(why, whylen, "block device %u:%u is not an NVMe namespace (its device's class is '%s')", maj, min,
                    subsystem[0] ? subsystem : "unknown"),
           -1;
  return 0;
}

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | (uint32_t)le16(p + 2) << 16; }

// A 16-byte little-endian counter as a decimal string (JSON numbers lose precision past 2^53).
static void u128_text(const uint8_t *p, char *out, size_t outlen) {
  unsigned __int128 v = 0;
  for (int i = 15; i >= 0; i--) v = (v << 8) | p[i];
  char digits[48];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v && n < sizeof digits);
  size_t k = 0;
  while (n && k + 1 < outlen) out[k++] = digits[--n];
  out[k] = '\0';
}

int nvme_smart_print(int fd, const char *device, FILE *out, char *why, size_t whylen) {
  uint8_t log[SMART_LOG_BYTES];
  memset(log, 0, sizeof log);
  struct nvme_admin_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.opcode = ADMIN_GET_LOG_PAGE;
  cmd.nsid = 0xffffffffu;  // the controller as a whole
  cmd.addr = (uint64_t)(uintptr_t)log;
  cmd.data_len = sizeof log;
  // CDW10: number of dwords to read, minus one (bits 31:16), and the log id (bits 7:0).
  cmd.cdw10 = ((uint32_t)(SMART_LOG_BYTES / 4 - 1) << 16) | SMART_LOG_ID;
  int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
  if (rc < 0) return snprintf(why, whylen, "Get Log Page 02h: %s", strerror(errno)), -1;
  if (rc > 0) return snprintf(why, whylen, "Get Log Page 02h: the drive answered status 0x%x", (unsigned)rc), -1;
  static const struct {
    const char *name;
    int offset;
  } counters[] = {
      {"data_units_read", 32},   {"data_units_written", 48}, {"host_read_commands", 64},
      {"host_write_commands", 80}, {"controller_busy_minutes", 96}, {"power_cycles", 112},
      {"power_on_hours", 128},   {"unsafe_shutdowns", 144},  {"media_errors", 160},
      {"error_log_entries", 176},
  };
  fprintf(out, "{\"device\":\"%s\",\"critical_warning\":%u,\"composite_temperature_k\":%u,\"available_spare\":%u,"
               "\"available_spare_threshold\":%u,\"percentage_used\":%u,\"endurance_group_critical_warning\":%u",
          device, log[0], le16(log + 1), log[3], log[4], log[5], log[6]);
  for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
    char text[48];
    u128_text(log + counters[i].offset, text, sizeof text);
    fprintf(out, ",\"%s\":\"%s\"", counters[i].name, text);
  }
  fprintf(out, ",\"warning_temperature_minutes\":%u,\"critical_temperature_minutes\":%u,\"temperature_sensors_k\":[",
          le32(log + 192), le32(log + 196));
  for (int i = 0; i < 8; i++) fprintf(out, "%s%u", i ? "," : "", le16(log + 200 + 2 * i));
  fprintf(out, "],\"thermal_transitions\":[%u,%u],\"thermal_seconds\":[%u,%u]}\n", le32(log + 216), le32(log + 220),
          le32(log + 224), le32(log + 228));
  return fflush(out) == 0 ? 0 : (snprintf(why, whylen, "writing the log out: %s", strerror(errno)), -1);
}
