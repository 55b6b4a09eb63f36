#ifndef GESTUREPAD_CWAYLANDVIRTUALINPUT_H
#define GESTUREPAD_CWAYLANDVIRTUALINPUT_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client-core.h>
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

// The two Wayland protocols of the `wlroots` control backend: wlr-virtual-pointer-unstable-v1
// (zwlr_virtual_pointer_manager_v1) and virtual-keyboard-unstable-v1
// (zwp_virtual_keyboard_manager_v1), as wayland-scanner generates them (protocol/*.xml,
// scripts/wayland-scanner.sh; the output is committed). The interface objects are `extern const`
// C globals whose address Swift cannot take without a copy, so the globals this backend binds
// are named by a number here and bound with the real ones. Only libwayland's core API is
// included: the protocol of wayland-client.h (wl_registry, wl_seat …) is CWaylandKeymap's module,
// which the Swift side imports beside this one.

extern const struct wl_interface wl_seat_interface;

/// wl_keyboard.keymap_format.xkb_v1.
#define GESTUREPAD_KEYMAP_FORMAT_XKB_V1 1

enum gesturepad_global {
    GESTUREPAD_GLOBAL_NONE = 0,
    GESTUREPAD_GLOBAL_SEAT = 1,
    GESTUREPAD_GLOBAL_POINTER_MANAGER = 2,
    GESTUREPAD_GLOBAL_KEYBOARD_MANAGER = 3,
};

/// Which of the globals this backend binds `interface` is (NONE for others).
static inline int gesturepad_global_kind(const char *interface) {
    if (strcmp(interface, wl_seat_interface.name) == 0) return GESTUREPAD_GLOBAL_SEAT;
    if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0) return GESTUREPAD_GLOBAL_POINTER_MANAGER;
    if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0) return GESTUREPAD_GLOBAL_KEYBOARD_MANAGER;
    return GESTUREPAD_GLOBAL_NONE;
}

/// The highest version of a global this client speaks.
static inline uint32_t gesturepad_global_version(int kind) {
    switch (kind) {
    case GESTUREPAD_GLOBAL_SEAT: return 1;
    case GESTUREPAD_GLOBAL_POINTER_MANAGER: return (uint32_t)zwlr_virtual_pointer_manager_v1_interface.version;
    case GESTUREPAD_GLOBAL_KEYBOARD_MANAGER: return (uint32_t)zwp_virtual_keyboard_manager_v1_interface.version;
    default: return 0;
    }
}

/// wl_registry.bind (wayland-client-protocol.h's inline function, on the core API).
static inline void *gesturepad_registry_bind(struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version) {
    return wl_proxy_marshal_flags(registry, 0 /* WL_REGISTRY_BIND */, interface, version, 0, name, interface->name, version, NULL);
}

/// Binds a global of `kind` (a wl_seat, or one of the two managers).
static inline void *gesturepad_bind_global(struct wl_proxy *registry, uint32_t name, int kind, uint32_t version) {
    switch (kind) {
    case GESTUREPAD_GLOBAL_SEAT: return gesturepad_registry_bind(registry, name, &wl_seat_interface, version);
    case GESTUREPAD_GLOBAL_POINTER_MANAGER:
        return gesturepad_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, version);
    case GESTUREPAD_GLOBAL_KEYBOARD_MANAGER:
        return gesturepad_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, version);
    default: return NULL;
    }
}

/// A sealed memory file holding `size` bytes of `text` (an XKB keymap, NUL included), for
/// zwp_virtual_keyboard_v1.keymap; -1 with errno set on failure.
static inline int gesturepad_keymap_file(const char *text, size_t size) {
    int fd = memfd_create("gesturepad-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    size_t written = 0;
    while (written < size) {
        ssize_t n = write(fd, text + written, size - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        written += (size_t)n;
    }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    return fd;
}

#endif
