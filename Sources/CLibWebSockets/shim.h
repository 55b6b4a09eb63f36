#ifndef GESTUREPAD_CLIBWEBSOCKETS_SHIM_H
#define GESTUREPAD_CLIBWEBSOCKETS_SHIM_H
#include <libwebsockets.h>
#include <stddef.h>
#include <stdint.h>

/// LWS_PRE is a function-like macro in some builds; Swift cannot import it.
static const unsigned int CLWS_PRE = LWS_PRE;

/// LWS_WRITE_RAW is a macro alias (of LWS_WRITE_HTTP) Swift does not import: on a ws
/// connection it sends the bytes as they are, for frames the server framed itself.
static const enum lws_write_protocol CLWS_WRITE_RAW = LWS_WRITE_RAW;

/// The per-connection block lws allocates (zeroed) for every connection of our protocol,
/// plain HTTP ones included. Swift never keeps a pointer to a Swift object here: only the
/// integer id of the connection, so a stale block can at worst miss a dictionary lookup.
typedef struct gp_connection_slot {
    /// The connection's timer. Kept first so the timer callback's argument is the slot.
    lws_sorted_usec_list_t sul;
    /// The connection's lws handle (set when it is established), for the timer callback.
    struct lws *wsi;
    /// The connection id (0: not a WebSocket connection of ours).
    uint64_t connection_id;
    /// When lws was last told the peer is alive because data arrived (server clock, ms).
    double alive_confirmed_ms;
} gp_connection_slot;

_Static_assert(offsetof(gp_connection_slot, sul) == 0, "the timer must be the slot's first member");

/// Recovers the slot from its timer (lws_container_of is a macro Swift cannot import).
static inline gp_connection_slot *gp_slot_from_sul(lws_sorted_usec_list_t *sul) {
    return lws_container_of(sul, gp_connection_slot, sul);
}

/// The slot's timer (Swift cannot take a stable address of a struct member).
static inline lws_sorted_usec_list_t *gp_slot_timer(gp_connection_slot *slot) {
    return &slot->sul;
}

/// LWS_SERVER_OPTION_* values are built from macros; exposed as plain constants.
static const uint64_t CLWS_OPTION_EXPLICIT_VHOSTS = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
static const uint64_t CLWS_OPTION_DISABLE_IPV6 = LWS_SERVER_OPTION_DISABLE_IPV6;
static const uint64_t CLWS_OPTION_DO_SSL_GLOBAL_INIT = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
static const uint64_t CLWS_OPTION_ALLOW_NON_SSL_ON_SSL_PORT = LWS_SERVER_OPTION_ALLOW_NON_SSL_ON_SSL_PORT;
static const uint64_t CLWS_OPTION_ALLOW_HTTP_ON_HTTPS_LISTENER = LWS_SERVER_OPTION_ALLOW_HTTP_ON_HTTPS_LISTENER;

/// Kill a connection on the next service pass (a macro value in lws-timeout-timer.h).
static const int CLWS_TO_KILL_ASYNC = LWS_TO_KILL_ASYNC;

#endif
