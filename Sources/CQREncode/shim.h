#ifndef GESTUREPAD_CQRENCODE_SHIM_H
#define GESTUREPAD_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
