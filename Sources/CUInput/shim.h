#ifndef GESTUREPAD_CUINPUT_SHIM_H
#define GESTUREPAD_CUINPUT_SHIM_H
#include <linux/input.h>
#include <linux/uinput.h>
#endif
