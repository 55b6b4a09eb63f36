#ifndef GESTUREPAD_CWAYLANDKEYMAP_SHIM_H
#define GESTUREPAD_CWAYLANDKEYMAP_SHIM_H
#include <poll.h>
#include <sys/mman.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

// libwayland-client and libxkbcommon, for the keyboard layouts (GesturePadHost/Keyboard): the
// keymap the compositor gives the seat's keyboard (wl_keyboard.keymap) and keymaps compiled by
// xkbcommon, so that the backends know which characters the desktop can type. The interface objects are `extern const` C globals, whose
// address Swift cannot take without a copy (and libwayland keeps the pointer): these two
// helpers bind with the real ones.

static inline struct wl_seat *gesturepad_bind_seat(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return (struct wl_seat *)wl_registry_bind(registry, name, &wl_seat_interface, version);
}

static inline const char *gesturepad_seat_interface_name(void) {
    return wl_seat_interface.name;
}

#endif
