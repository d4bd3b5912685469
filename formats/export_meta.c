/* Lookups in the run's description shared by the export writers. */
#include <string.h>

#include "formats/export.h"

const struct export_object *export_meta_object(const struct export_meta *m, const char *path)
{
	if (!path || !path[0])
		return NULL;
	for (size_t i = 0; i < m->nobjects; i++)
		if (!strcmp(m->objects[i].path, path))
			return &m->objects[i];
	return NULL;
}
