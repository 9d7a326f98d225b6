#!/bin/sh
# After-remove of the .deb: DiskDelta's polkit actions go with the helper they name.
actions=/usr/share/polkit-1/actions
[ -z "$DISKDELTA_POLKIT_ACTIONS" ] || actions="$DISKDELTA_POLKIT_ACTIONS"
rm -f "$actions/org.diskdelta.helper.policy"
rm -f '/usr/bin/${executable}'
