#ifndef GESTUREPAD_CYAML_SHIM_H
#define GESTUREPAD_CYAML_SHIM_H
#include <yaml.h>
#endif
