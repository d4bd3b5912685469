/* What the [counters possibly incorrect] tag means (report/legend.c). */
#ifndef CALLSCOPE_REPORT_MARKS_H
#define CALLSCOPE_REPORT_MARKS_H

/*
 * A function whose thread had a counter time-shared by the kernel, or a
 * hook's reading taken while a signal handler ran inside the hook, has
 * counts that are estimates (model/profile.h, counters_unreliable).
 */
#define COUNTERS_DOUBTFUL_MEANING \
	"the kernel time-shared a counter, or a signal handler ran inside a hook, " \
	"while it ran, so its counts are estimates"

#endif
