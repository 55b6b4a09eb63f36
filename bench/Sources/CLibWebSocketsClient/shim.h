#ifndef GESTUREPAD_CLIBWEBSOCKETSCLIENT_SHIM_H
#define GESTUREPAD_CLIBWEBSOCKETSCLIENT_SHIM_H
#include <libwebsockets.h>

/// LWS_PRE is a function-like macro in some builds; Swift cannot import it.
static const unsigned int CLWS_PRE = LWS_PRE;

#endif
