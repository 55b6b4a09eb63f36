#ifndef GESTUREPAD_CSDBUS_SHIM_H
#define GESTUREPAD_CSDBUS_SHIM_H
#include <poll.h>
#include <sys/eventfd.h>
#include <systemd/sd-bus.h>

// sd-bus (libsystemd), for the `portal` control backend. No wrapper is needed: GesturePad uses
// only the non-variadic API (sd_bus_message_new_method_call, sd_bus_message_append_basic,
// sd_bus_message_open_container / close_container, sd_bus_message_read_basic,
// sd_bus_message_enter_container / exit_container, sd_bus_match_signal, sd_bus_call,
// sd_bus_call_async), which Swift imports as it is, instead of the variadic
// sd_bus_call_method / sd_bus_message_append / sd_bus_message_read it cannot call.
// SD_BUS_ERROR_NULL is a zeroed `sd_bus_error`, which Swift's `sd_bus_error()` also is.
// eventfd and poll let the backend's thread wait on the bus and on its own wake-up at once.

#endif
