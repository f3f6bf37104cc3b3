// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "output.h"

static const struct output_ops *const formats[] = {
	&output_tsv,
	&output_json,
	&output_trace,
};

const struct output_ops *output_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}
