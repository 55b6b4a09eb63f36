#!/bin/sh
# Regenerates the C glue of the Wayland protocols the `wlroots` control backend speaks
# (Sources/CWaylandVirtualInput/protocol/*.xml) with wayland-scanner (Debian: libwayland-bin).
# The output is committed, so that building needs no scanner: run this only after changing an
# XML file, and commit what it writes.
set -eu
cd "$(dirname "$0")/../Sources/CWaylandVirtualInput"
for xml in protocol/*.xml; do
    name=$(basename "$xml" .xml)
    # The header includes the core API only: wayland-client.h's own protocol (wl_seat,
    # wl_keyboard …) stays CWaylandKeymap's, which Swift needs to see it in one module.
    wayland-scanner client-header <"$xml" |
        sed 's|#include "wayland-client.h"|#include <wayland-client-core.h>|' >"include/$name-client-protocol.h"
    wayland-scanner private-code "$xml" "$name-protocol.c"
done
