/* A plugin with hooks for libcall_shapes: plugin_work calls strlen twice
 * through the plugin's own PLT. */
#include <string.h>

volatile size_t plugin_sink;

void plugin_work(void)
{
	plugin_sink += strlen("plugin");
	plugin_sink += strlen("work");
}
