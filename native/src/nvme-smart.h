// An NVMe drive's own SMART / health log (Get Log Page 02h), read by the privileged helper's
// smart-log verb: the one admin command it sends, built here with no operand from the caller.
#ifndef DD_NVME_SMART_H
#define DD_NVME_SMART_H

#include <stddef.h>
#include <stdio.h>

// The last component of the sysfs link LINK points to ("nvme" for …/class/nvme, "sda" for a
// disk's …/block/sda) into out, or "" when unreadable or longer than outlen allows. The helper's
// smart-ata verb uses it too.
void sysfs_link_tail(const char *link, char *out, size_t outlen);

// Checks that the descriptor is an NVMe controller (/dev/nvmeN, class nvme) or a whole NVMe
// namespace (/dev/nvmeNnM, not a partition), by its major:minor in sysfs: an admin ioctl number
// must never reach another driver, which could read it as a command of its own.
// Returns 0, or -1 with a sentence in why.
int nvme_smart_check_fd(int fd, char *why, size_t whylen);

// Reads the controller's SMART / health log (all namespaces) and prints it as one JSON line on
// out: every field of the log by its NVMe name, 128-bit counters as decimal strings; then the
// device's endurance-group log ("endurance_log": its group and the page as hex) and OCP's C0h
// page ("ocp_c0": as hex), each {"absent": why} where the drive has none.
// Returns 0, or -1 with a sentence in why (errno kept in it).
int nvme_smart_print(int fd, const char *device, FILE *out, char *why, size_t whylen);

#endif
