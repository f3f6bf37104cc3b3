// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <sched.h>

#include "pin.h"

int pin_thread(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET((size_t)cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int pin_check(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	return CPU_ISSET((size_t)cpu, &set) ? 0 : -EINVAL;
}
