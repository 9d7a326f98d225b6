#!/bin/sh
# After-remove of the .deb: DiskDelta's polkit actions go with the helper they name, and the
# AppArmor profile after-install.sh put in place goes too (unloaded from the running kernel
# first, so it is not enforced until the next boot; not in a chroot or another root).
# Paths are under $DPKG_ROOT, as in after-install.sh.
actions="$DPKG_ROOT/usr/share/polkit-1/actions"
[ -z "$DISKDELTA_POLKIT_ACTIONS" ] || actions="$DISKDELTA_POLKIT_ACTIONS"
rm -f "$actions/org.diskdelta.helper.policy"
rm -f "$DPKG_ROOT/usr/bin/${executable}"
profile="$DPKG_ROOT/etc/apparmor.d/${executable}"
if [ -f "$profile" ]; then
  if [ -z "$DPKG_ROOT" ] && apparmor_status --enabled > /dev/null 2>&1 && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --remove "$profile" || true
  fi
  rm -f "$profile"
fi
