/*
 * callscope list
 *
 * The counters `record -e` can read, and whether this machine can read
 * each (software counters work everywhere; hardware ones need a CPU and a
 * kernel that expose them), or why not: no such counter here, or
 * forbidden to this user by kernel.perf_event_paranoid.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/events.h"
#include "die.h"
#include "json.h"

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, opt;
	struct json j;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'h': puts("usage: callscope list [--json]"); return 0;
		default: return EXIT_USAGE;
		}
	}
	json_init(&j, stdout);
	if (json)
		json_array_begin(&j);
	else
		printf("%-26s %-14s %s\n", "event", "here", "counts");
	for (size_t i = 0; i < event_table_len; i++) {
		const struct event_desc *e = &event_table[i];
		char why[256];
		enum event_state state = event_probe(e, why, sizeof(why));
		if (json) {
			json_object_begin(&j);
			json_kv_string(&j, "name", e->name);
			json_kv_string(&j, "counts", e->what);
			json_key(&j, "supported");
			json_bool(&j, state == EVENT_SUPPORTED);
			json_kv_string(&j, "state", event_state_name(state));
			if (state != EVENT_SUPPORTED)
				json_kv_string(&j, "why", why);
			json_object_end(&j);
		} else {
			printf("%-26s %-14s %s\n", e->name, event_state_name(state), e->what);
		}
	}
	if (json) {
		json_array_end(&j);
		json_finish(&j);
	}
	return 0;
}
