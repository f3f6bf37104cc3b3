/* SPDX-License-Identifier: GPL-2.0 */
/* CPU affinity of the calling thread (the tools pin readers and loops). */
#ifndef IFM_PIN_H
#define IFM_PIN_H

/* Pin the calling thread to @cpu. Returns 0 or -errno. */
int pin_thread(int cpu);

/*
 * Can a thread of this process run on @cpu (in its affinity mask)?
 * Returns 0, or -EINVAL as pthread_setaffinity_np() would.
 */
int pin_check(int cpu);

#endif
