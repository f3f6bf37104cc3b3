/* SPDX-License-Identifier: GPL-2.0 */
/* Running the measured command: "iowait-freqmon [options] -- command". */
#ifndef IFM_COMMAND_H
#define IFM_COMMAND_H

#include <sys/types.h>

/*
 * Start @argv (searched in PATH) with the default signal dispositions and
 * an empty signal mask. Returns 0 or -errno (-ENOENT: not found,
 * -EACCES/-ENOEXEC...: cannot be executed).
 */
int command_spawn(char *const argv[], pid_t *pid);

/* Exit status for a wait status: the code, or 128 + the signal number. */
int command_exit_status(int wstatus);

/* 127 for a command that was not found, 126 if it could not be run. */
int command_spawn_status(int err);

#endif
