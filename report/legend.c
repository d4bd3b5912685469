#include "report/legend.h"

#include <string.h>

static const struct {
	const char *tag;
	const char *meaning;
} tags[LEGEND_TAGS] = {
	{ TAG_RUNNING, "calls closed when the thread or process ended (virtual returns)" },
	{ TAG_LONGJMP, "calls that never returned: a longjmp (or a switch of stacks) "
		       "skipped them, and stack repair closed them where it found them gone" },
	{ TAG_THROWN, "calls a C++ exception (or pthread_exit) unwound without returning, "
		      "closed where the exception passed" },
	{ TAG_BOTH, "some calls left by a longjmp, others by an exception" },
	{ TAG_STOPPED, "calls open when capture stopped; their time ends there" },
	{ TAG_BEGUN_BEFORE, "already running where the data begins (a flight recorder's "
			    "oldest record, a resumed capture, a forked child's inherited "
			    "calls): time counts from there, and what they called before is "
			    "not in the data" },
	{ TAG_CONTEXT, "calls open where the window shown begins, printed so that it "
		       "does not begin in mid-air; they are not among the lines asked for" },
	{ TAG_COUNTERS, COUNTERS_DOUBTFUL_MEANING },
	{ TAG_CONTINUED, "part of its time comes from calls already running where their "
			 "thread's data begins (a forked child's inherited calls, a capture "
			 "resumed, a flight recorder's ring): that time is in self and total, "
			 "not in calls nor in the per-call columns, which describe whole calls" },
	{ TAG_DOUBTFUL, "less is left of the time measured in the function than three times "
			"what was taken off as the hooks' cost (of its calls and of those it "
			"made), which moves with the machine's state: the figure may be several "
			"times off" },
	{ TAG_DOUBTFUL_TOTAL, "less is left of the time measured in the function and under it "
			      "than three times what was taken off as the hooks' cost (of its "
			      "calls and of every call beneath them): the total may be several "
			      "times off, even below the self time or 0" },
	{ TAG_DOUBTFUL_BOTH, "the self time and the total both within the hooks' error, as "
			     "the two tags above say" },
	{ TAG_UNTIMED, "called very often for very little each time (report --untimed): "
		       "counted, and its self time is in its callers'" },
};

static const char *trimmed(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

const char *legend_use(struct legend *l, const char *tag)
{
	const char *t = trimmed(tag);

	if (!*t)
		return tag;
	for (int i = 0; i < LEGEND_TAGS; i++)
		if (!strcmp(t, trimmed(tags[i].tag)))
			l->seen[i] = 1;
	return tag;
}

void legend_print(FILE *out, const struct legend *l)
{
	int any = 0;

	for (int i = 0; i < LEGEND_TAGS; i++) {
		if (!l->seen[i])
			continue;
		if (!any++)
			fputs("#\n", out);
		fprintf(out, "# %s: %s\n", trimmed(tags[i].tag), tags[i].meaning);
	}
}
