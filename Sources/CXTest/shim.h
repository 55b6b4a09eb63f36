#ifndef GESTUREPAD_CXTEST_SHIM_H
#define GESTUREPAD_CXTEST_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/keysym.h>
#include <X11/XF86keysym.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/shape.h>
#endif
