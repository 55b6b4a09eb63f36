#ifndef GESTUREPAD_CLIBWEBSOCKETSCLIENT_SHIM_H
#define GESTUREPAD_CLIBWEBSOCKETSCLIENT_SHIM_H
#include <libwebsockets.h>
#include <stddef.h>

/// LWS_PRE is a function-like macro in some builds; Swift cannot import it.
static const unsigned int CLWS_PRE = LWS_PRE;

/// The load generator's wake timer: an lws timer and the context whose service pass it ends.
typedef struct gp_wake_timer {
    /// Kept first so the timer callback's argument is the whole struct.
    lws_sorted_usec_list_t sul;
    struct lws_context *context;
} gp_wake_timer;

_Static_assert(offsetof(gp_wake_timer, sul) == 0, "the timer must be the struct's first member");

/// Recovers the struct from its timer (lws_container_of is a macro Swift cannot import).
static inline gp_wake_timer *gp_wake_from_sul(lws_sorted_usec_list_t *sul) {
    return lws_container_of(sul, gp_wake_timer, sul);
}

/// The struct's timer (Swift cannot take a stable address of a struct member).
static inline lws_sorted_usec_list_t *gp_wake_sul(gp_wake_timer *timer) {
    return &timer->sul;
}

#endif
