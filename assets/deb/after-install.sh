#!/bin/sh
# After-install of the .deb (electron-builder's deb.afterInstall): put DiskDelta's polkit
# actions in place, naming the helper the package installed (root-owned, under /opt), and do
# what electron-builder 26's own after-install.tpl does, which a custom script replaces: the
# command link, the AppArmor profile that lets the app make user namespaces (Ubuntu 24.04+
# blocks them for unprofiled programs, and Chromium's sandbox then aborts the app), and the
# SUID sandbox only where user namespaces stay unavailable.
# Paths are under $DPKG_ROOT, which dpkg sets for an install into another root (empty otherwise).
# electron-builder fills in the dollar-brace macros when it packs; plain $NAME is the shell's.
set -e
opt="$DPKG_ROOT/opt/${sanitizedProductName}"
resources="$opt/resources"
actions="$DPKG_ROOT/usr/share/polkit-1/actions"
[ -z "$DISKDELTA_POLKIT_ACTIONS" ] || actions="$DISKDELTA_POLKIT_ACTIONS"
proc=/proc
[ -z "$DISKDELTA_PROC" ] || proc="$DISKDELTA_PROC"
chmod 0755 "$resources/diskdelta-helper"
mkdir -p "$actions"
sed "s|@HELPER@|/opt/${sanitizedProductName}/resources/diskdelta-helper|g" "$resources/polkit/org.diskdelta.helper.policy.in" \
  > "$actions/org.diskdelta.helper.policy"
chmod 0644 "$actions/org.diskdelta.helper.policy"

mkdir -p "$DPKG_ROOT/usr/bin"
ln -sf '/opt/${sanitizedProductName}/${executable}' "$DPKG_ROOT/usr/bin/${executable}"

# The AppArmor profile (electron-builder puts it in resources/apparmor-profile): only where
# AppArmor runs, and only if this AppArmor understands it (Ubuntu 22.04's lacks abi/4.0 and
# does not restrict user namespaces, so it needs none). Loaded into the running kernel except
# in a chroot or another root, where the next boot loads it.
profile_loaded=no
if apparmor_status --enabled > /dev/null 2>&1; then
  profile="$DPKG_ROOT/etc/apparmor.d/${executable}"
  if apparmor_parser --skip-kernel-load --debug "$resources/apparmor-profile" > /dev/null 2>&1; then
    mkdir -p "$DPKG_ROOT/etc/apparmor.d"
    cp -f "$resources/apparmor-profile" "$profile"
    if [ -z "$DPKG_ROOT" ] && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
      # -W -T as dh_apparmor: abstraction updates are pulled in too.
      apparmor_parser --replace --write-cache --skip-read-cache "$profile" && profile_loaded=yes
    fi
  else
    echo "DiskDelta: this AppArmor does not accept the app's profile (abi/4.0); installing none"
  fi
fi

# Chromium's sandbox needs user namespaces; where they stay blocked, the SUID helper instead.
# Judged from the kernel's switches, not by trying: this script runs as root, where an
# `unshare --user` passes even on a machine whose users it fails for.
userns=yes
[ -L "$proc/self/ns/user" ] || userns=no
[ "$(cat "$proc/sys/kernel/unprivileged_userns_clone" 2> /dev/null)" != 0 ] || userns=no
[ "$(cat "$proc/sys/user/max_user_namespaces" 2> /dev/null)" != 0 ] || userns=no
if [ "$(cat "$proc/sys/kernel/apparmor_restrict_unprivileged_userns" 2> /dev/null)" = 1 ] && [ "$profile_loaded" != yes ]; then
  userns=no
fi
if [ "$userns" = yes ]; then
  chmod 0755 "$opt/chrome-sandbox" || true
else
  chmod 4755 "$opt/chrome-sandbox" || true
fi
