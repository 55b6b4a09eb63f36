#ifndef GESTUREPAD_CUINPUT_SHIM_H
#define GESTUREPAD_CUINPUT_SHIM_H
#include <linux/input.h>
#include <linux/uinput.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

// Swift can call neither `ioctl` (variadic) nor the UI_* request codes (function-like `_IOW`
// macros), so each uinput request the `uinput` and `touchpad` backends make gets one wrapper
// here. Each returns what `ioctl` returns: 0, or -1 with errno set.

#if defined(__LP64__)
/// The encoder writes `struct input_event` byte by byte (16 bytes of timeval, u16 type, u16 code,
/// s32 value): pin that layout, on the 64-bit platforms GesturePad builds for.
_Static_assert(sizeof(struct input_event) == 24, "struct input_event is 24 bytes on 64-bit Linux");
_Static_assert(offsetof(struct input_event, type) == 16, "input_event.type follows a 16-byte timeval");
_Static_assert(offsetof(struct input_event, value) == 20, "input_event.value is the last 4 bytes");
#endif

/// The size of `struct input_event`, for a run-time check on the Swift side (the encoder's layout).
static const int gp_input_event_size = (int)sizeof(struct input_event);

/// UI_SET_EVBIT: the device sends events of `type` (EV_KEY, EV_REL, EV_SYN).
static inline int gp_uinput_enable_event_type(int fd, int type) {
    return ioctl(fd, UI_SET_EVBIT, type);
}

/// UI_SET_KEYBIT: the device has key or button `code`.
static inline int gp_uinput_enable_key(int fd, int code) {
    return ioctl(fd, UI_SET_KEYBIT, code);
}

/// UI_SET_RELBIT: the device has relative axis `code`.
static inline int gp_uinput_enable_relative_axis(int fd, int code) {
    return ioctl(fd, UI_SET_RELBIT, code);
}

/// UI_SET_ABSBIT: the device has absolute axis `code` (the `touchpad` backend's positions and slots).
static inline int gp_uinput_enable_absolute_axis(int fd, int code) {
    return ioctl(fd, UI_SET_ABSBIT, code);
}

/// UI_SET_PROPBIT: the device has input property `property` (INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD).
static inline int gp_uinput_enable_property(int fd, int property) {
    return ioctl(fd, UI_SET_PROPBIT, property);
}

/// UI_ABS_SETUP: range and resolution (units per mm) of absolute axis `code`. Swift cannot build
/// the nested `struct uinput_abs_setup` as neatly as this; fuzz and flat stay 0.
static inline int gp_uinput_setup_absolute_axis(int fd, int code, int minimum, int maximum, int resolution) {
    struct uinput_abs_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.code = (uint16_t)code;
    setup.absinfo.minimum = minimum;
    setup.absinfo.maximum = maximum;
    setup.absinfo.resolution = resolution;
    return ioctl(fd, UI_ABS_SETUP, &setup);
}

/// UI_DEV_SETUP. Swift imports `uinput_setup.name` as an 80-element tuple; filling it here is
/// one line (the name is truncated and always NUL-terminated).
static inline int gp_uinput_setup(int fd, const char *name, uint16_t bustype, uint16_t vendor,
                                  uint16_t product, uint16_t version) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = bustype;
    setup.id.vendor = vendor;
    setup.id.product = product;
    setup.id.version = version;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    return ioctl(fd, UI_DEV_SETUP, &setup);
}

/// UI_DEV_CREATE: the configured device appears (/dev/input/eventN).
static inline int gp_uinput_create(int fd) {
    return ioctl(fd, UI_DEV_CREATE);
}

/// UI_DEV_DESTROY: the device disappears (closing the descriptor does the same).
static inline int gp_uinput_destroy(int fd) {
    return ioctl(fd, UI_DEV_DESTROY);
}

#endif
