// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include "command.h"

extern char **environ;

int command_spawn(char *const argv[], pid_t *pid)
{
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int ret;

	ret = posix_spawnattr_init(&attr);
	if (ret)
		return -ret;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGCHLD);
	sigaddset(&dfl, SIGUSR1);
	ret = posix_spawnattr_setsigmask(&attr, &none);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (!ret)
		ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
						      POSIX_SPAWN_SETSIGDEF);
	/* glibc reports exec failures (ENOENT, EACCES) here */
	if (!ret)
		ret = posix_spawnp(pid, argv[0], NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return -ret;
}

int command_exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

int command_spawn_status(int err)
{
	return err == -ENOENT ? 127 : 126;
}
