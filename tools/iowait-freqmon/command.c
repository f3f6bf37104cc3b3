// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "timeutil.h"

extern char **environ;

/*
 * The signals the tool blocks, ignores or handles: default in the command.
 * Not SIGHUP: the tool leaves its disposition alone (nohup's SIG_IGN is
 * the command's too).
 */
static const int dfl_signals[] = {
	SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGUSR1,
};

static int spawn(pid_t *pid, char *const argv[], bool stdout_to_stderr)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int ret;

	ret = posix_spawnattr_init(&attr);
	if (ret)
		return ret;
	ret = posix_spawn_file_actions_init(&fa);
	if (ret) {
		posix_spawnattr_destroy(&attr);
		return ret;
	}
	sigemptyset(&none);
	sigemptyset(&dfl);
	for (size_t i = 0; i < sizeof(dfl_signals) / sizeof(*dfl_signals); i++)
		sigaddset(&dfl, dfl_signals[i]);
	ret = posix_spawnattr_setsigmask(&attr, &none);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (!ret)
		ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
						      POSIX_SPAWN_SETSIGDEF);
	if (!ret && stdout_to_stderr)
		ret = posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO,
						       STDOUT_FILENO);
	/* glibc reports exec failures (ENOENT, EACCES) here */
	if (!ret)
		ret = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return ret;
}

int command_start(struct command *c, char *const argv[],
		  bool stdout_to_stderr)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	int ret;

	c->pid = 0;
	c->status = -1;
	c->have_times = false;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL))
		return -errno;
	c->start_ns = mono_ns();
	ret = spawn(&c->pid, argv, stdout_to_stderr);
	if (ret) {
		c->pid = 0;
		c->status = command_spawn_status(-ret);
		return -ret;
	}
	return 0;
}

int command_reap(struct command *c)
{
	struct rusage ru;
	pid_t p;
	int ws;

	if (!c->pid)
		return 0;
	do
		p = wait4(c->pid, &ws, WNOHANG, &ru);
	while (p < 0 && errno == EINTR);
	if (p == 0)
		return 1;
	if (p < 0) {
		int err = errno;

		/* ECHILD: reaped by someone else, its status is lost */
		c->pid = 0;
		c->status = -1;
		return -err;
	}
	c->elapsed_ns = mono_ns() - c->start_ns;
	c->user_ns = (uint64_t)ru.ru_utime.tv_sec * NSEC_PER_SEC +
		     (uint64_t)ru.ru_utime.tv_usec * 1000;
	c->sys_ns = (uint64_t)ru.ru_stime.tv_sec * NSEC_PER_SEC +
		    (uint64_t)ru.ru_stime.tv_usec * 1000;
	c->have_times = true;
	c->pid = 0;
	c->status = command_exit_status(ws);
	return 0;
}

int command_signal(const struct command *c, int sig)
{
	if (c->pid <= 0)
		return 0;
	return kill(c->pid, sig) ? -errno : 0;
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
