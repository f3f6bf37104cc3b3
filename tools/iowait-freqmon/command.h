/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running and supervising the measured command:
 * "iowait-freqmon [options] -- command".
 */
#ifndef IFM_COMMAND_H
#define IFM_COMMAND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct command {
	pid_t pid;		/* 0: not running */
	int status;		/* exit status (see below), -1 while unknown */
	/* from wait4() once reaped (have_times): perf stat's three times */
	bool have_times;
	uint64_t start_ns;	/* CLOCK_MONOTONIC at the spawn */
	uint64_t elapsed_ns;	/* spawn to reaping */
	uint64_t user_ns, sys_ns;	/* the command's and its children's */
};

/*
 * Start @argv (searched in PATH) with the default signal dispositions and
 * an empty signal mask. With @stdout_to_stderr, the command's standard
 * output is this process's standard error (when ours carries the data).
 *
 * SIGCHLD is first set back to SIG_DFL in this process: a parent may have
 * left it ignored across exec, and then the kernel reaps the command by
 * itself and its status is lost.
 *
 * Returns 0, or -errno with c->status set to 127 (-ENOENT: not found) or
 * 126 (-EACCES, -ENOEXEC, ...: cannot be executed).
 */
int command_start(struct command *c, char *const argv[],
		  bool stdout_to_stderr);

/*
 * Collect the command if it has ended, without waiting (wait4(): its
 * elapsed, user and sys times too). Returns 1 while it
 * runs, 0 once it has ended (c->status and the times set, c->pid 0), or -errno:
 * -ECHILD when it is gone and its status unknown (c->pid 0, c->status -1).
 */
int command_reap(struct command *c);

/* Pass signal @sig on to the command, if it runs. Returns 0 or -errno. */
int command_signal(const struct command *c, int sig);

/* Exit status for a wait status: the code, or 128 + the signal number. */
int command_exit_status(int wstatus);

/* 127 for a command that was not found, 126 if it could not be run. */
int command_spawn_status(int err);

#endif
