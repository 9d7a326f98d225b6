// Get Log Page 02h (SMART / Health Information, NVMe base specification 1.4, figure 194) through
// NVME_IOCTL_ADMIN_CMD, then the two pages that may hold the flash's own writes (for write
// amplification): the endurance-group log (09h) of the device's endurance group, and OCP's
// SMART / Health Information Extended page (C0h). Every command is fixed here (Identify and Get
// Log Page only, into our own buffers, Retain Asynchronous Event set so no event is cleared):
// they read the drive's counters and change nothing on it. The two extra pages are printed as
// hex and decoded by the caller (electron/node/system/drive-health.ts), where their layout is
// tested: root's code only fetches them.
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
#define ENDURANCE_LOG_ID 0x09
#define OCP_SMART_EXTENDED_LOG_ID 0xc0
#define LOG_BYTES 512
#define IDENTIFY_BYTES 4096
#define ADMIN_GET_LOG_PAGE 0x02
#define ADMIN_IDENTIFY 0x06
#define CNS_NAMESPACE 0x00
#define CNS_CONTROLLER 0x01
// Get Log Page CDW10: Retain Asynchronous Event (bit 15), so reading never clears an event.
#define RAE (1u << 15)

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

// One admin command reading LEN bytes into BUF: 0, the drive's status (> 0), or -1 with errno.
static int admin_read(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, void *buf, uint32_t len) {
  struct nvme_admin_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  memset(buf, 0, len);
  cmd.opcode = opcode;
  cmd.nsid = nsid;
  cmd.addr = (uint64_t)(uintptr_t)buf;
  cmd.data_len = len;
  cmd.cdw10 = cdw10;
  cmd.cdw11 = cdw11;
  return ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
}

// A 512-byte log page: CDW10 holds the dwords to read minus one (bits 31:16) and the log id.
static int get_log(int fd, uint8_t log_id, uint32_t nsid, uint16_t log_specific_id, uint8_t *log) {
  return admin_read(fd, ADMIN_GET_LOG_PAGE, nsid, ((uint32_t)(LOG_BYTES / 4 - 1) << 16) | RAE | log_id,
                    (uint32_t)log_specific_id << 16, log, LOG_BYTES);
}

static void say_failed(char *why, size_t whylen, const char *what, int rc) {
  if (rc < 0) snprintf(why, whylen, "%s: %s", what, strerror(errno));
  else snprintf(why, whylen, "%s: the drive answered status 0x%x", what, (unsigned)rc);
}

static void print_hex(FILE *out, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) fprintf(out, "%02x", p[i]);
}

static void print_absent(FILE *out, const char *name, const char *why) {
  // The reasons are ours (fixed words, numbers, strerror): nothing in them needs escaping.
  fprintf(out, ",\"%s\":{\"absent\":\"%s\"}", name, why);
}

// The endurance group the device belongs to, or 0 with why: a namespace names its own
// (Identify Namespace ENDGID, bytes 103:102); a controller is asked for only when it has one.
static unsigned endurance_group(int fd, char *why, size_t whylen) {
  static uint8_t id[IDENTIFY_BYTES];
  int rc = admin_read(fd, ADMIN_IDENTIFY, 0, CNS_CONTROLLER, 0, id, sizeof id);
  if (rc != 0) return say_failed(why, whylen, "Identify Controller", rc), 0u;
  // CTRATT (bytes 99:96) bit 4: endurance groups; ENDGIDMAX (bytes 341:340).
  if (!(le32(id + 96) & (1u << 4)))
    return snprintf(why, whylen, "the controller reports no endurance groups (Identify Controller CTRATT bit 4 clear)"), 0u;
  unsigned most = le16(id + 340);
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
    int nsid = ioctl(fd, NVME_IOCTL_ID);
    if (nsid <= 0) return snprintf(why, whylen, "the namespace's id: %s", strerror(errno)), 0u;
    rc = admin_read(fd, ADMIN_IDENTIFY, (uint32_t)nsid, CNS_NAMESPACE, 0, id, sizeof id);
    if (rc != 0) return say_failed(why, whylen, "Identify Namespace", rc), 0u;
    unsigned group = le16(id + 102);
    if (group == 0) snprintf(why, whylen, "the namespace names no endurance group (Identify Namespace ENDGID 0)");
    return group;
  }
  if (most == 1) return 1u;
  return snprintf(why, whylen, "the controller has %u endurance groups: name the namespace (/dev/nvmeNnM) to read its own", most), 0u;
}

int nvme_smart_print(int fd, const char *device, FILE *out, char *why, size_t whylen) {
  uint8_t log[LOG_BYTES];
  int rc = get_log(fd, SMART_LOG_ID, 0xffffffffu, 0, log);  // the controller as a whole
  if (rc != 0) return say_failed(why, whylen, "Get Log Page 02h", rc), -1;
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
  fprintf(out, "],\"thermal_transitions\":[%u,%u],\"thermal_seconds\":[%u,%u]", le32(log + 216), le32(log + 220),
          le32(log + 224), le32(log + 228));

  // The flash's own writes, where the drive reports them: neither page missing fails the read.
  char absent[200];
  unsigned group = endurance_group(fd, absent, sizeof absent);
  if (group != 0) {
    rc = get_log(fd, ENDURANCE_LOG_ID, 0, (uint16_t)group, log);
    if (rc == 0) {
      fprintf(out, ",\"endurance_log\":{\"group\":%u,\"hex\":\"", group);
      print_hex(out, log, sizeof log);
      fputs("\"}", out);
    } else {
      say_failed(absent, sizeof absent, "Get Log Page 09h", rc);
      print_absent(out, "endurance_log", absent);
    }
  } else {
    print_absent(out, "endurance_log", absent);
  }
  rc = get_log(fd, OCP_SMART_EXTENDED_LOG_ID, 0xffffffffu, 0, log);
  if (rc == 0) {
    fputs(",\"ocp_c0\":{\"hex\":\"", out);
    print_hex(out, log, sizeof log);
    fputs("\"}", out);
  } else {
    say_failed(absent, sizeof absent, "Get Log Page C0h", rc);
    print_absent(out, "ocp_c0", absent);
  }
  fputs("}\n", out);
  return fflush(out) == 0 ? 0 : (snprintf(why, whylen, "writing the log out: %s", strerror(errno)), -1);
}
