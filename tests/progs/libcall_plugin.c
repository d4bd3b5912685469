/* A plugin with hooks for libcall_shapes: plugin_work calls strlen twice
 * through the plugin's own PLT.  Its constructor makes a call while dlopen
 * runs it, before dlopen returns. */
#include <string.h>

volatile size_t plugin_sink;

__attribute__((noinline)) void plugin_setup(void)
{
	plugin_sink = 1;
}

__attribute__((constructor)) static void plugin_init(void)
{
	plugin_setup();
	plugin_sink++;	/* no tail call: plugin_init's frame stays open */
}

void plugin_work(void)
{
	plugin_sink += strlen("plugin");
	plugin_sink += strlen("work");
}
