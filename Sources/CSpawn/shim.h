#ifndef GESTUREPAD_CSPAWN_SHIM_H
#define GESTUREPAD_CSPAWN_SHIM_H
#include <spawn.h>

// Two GNU file actions of posix_spawn that Swift's Glibc module does not show (spawn.h declares
// them only under _GNU_SOURCE / __USE_MISC). Hook processes start in the configuration file's
// folder and inherit no descriptor of the server's (its sockets, the X and D-Bus connections).

/// Change to `path` in the child before exec (glibc ≥ 2.29).
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

/// Close every descriptor from `from` up in the child before exec (glibc ≥ 2.34).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

#endif
