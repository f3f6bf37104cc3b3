/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal assertions for the unit tests: report every failure, count them. */
#ifndef IFM_CHECK_H
#define IFM_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                          \
	do {                                                                 \
		check_count++;                                               \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                            \
			check_failures++;                                    \
		}                                                            \
	} while (0)

#define CHECK_U64(a, b)                                                      \
	do {                                                                 \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);             \
		check_count++;                                               \
		if (a_ != b_) {                                              \
			fprintf(stderr,                                      \
				"%s:%d: CHECK failed: %s == %s (%" PRIu64    \
				" != %" PRIu64 ")\n", __FILE__, __LINE__, #a,  \
				#b, a_, b_);                                 \
			check_failures++;                                    \
		}                                                            \
	} while (0)

#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *a_ = (a), *b_ = (b);                             \
		check_count++;                                               \
		if (strcmp(a_, b_)) {                                        \
			fprintf(stderr,                                      \
				"%s:%d: CHECK failed: %s == %s (\"%s\" != "   \
				"\"%s\")\n", __FILE__, __LINE__, #a, #b, a_,  \
				b_);                                         \
			check_failures++;                                    \
		}                                                            \
	} while (0)

static inline int check_report(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count,
	       check_failures);
	return check_failures ? 1 : 0;
}

#endif
