#!/bin/sh
# After-install of the .deb (electron-builder's deb.afterInstall): put DiskDelta's polkit
# actions in place, naming the helper the package installed (root-owned, under /opt).
set -e
resources='/opt/${sanitizedProductName}/resources'
actions=/usr/share/polkit-1/actions
[ -z "$DISKDELTA_POLKIT_ACTIONS" ] || actions="$DISKDELTA_POLKIT_ACTIONS"
chmod 0755 "$resources/diskdelta-helper"
mkdir -p "$actions"
sed "s|@HELPER@|$resources/diskdelta-helper|g" "$resources/polkit/org.diskdelta.helper.policy.in" \
  > "$actions/org.diskdelta.helper.policy"
chmod 0644 "$actions/org.diskdelta.helper.policy"
# What electron-builder's own after-install does (a custom script replaces it): the command
# link, and the SUID sandbox only where user namespaces are unavailable.
ln -sf '/opt/${sanitizedProductName}/${executable}' '/usr/bin/${executable}'
if [ -L /proc/self/ns/user ] && unshare --user true 2>/dev/null; then
  chmod 0755 '/opt/${sanitizedProductName}/chrome-sandbox' || true
else
  chmod 4755 '/opt/${sanitizedProductName}/chrome-sandbox' || true
fi
