/* How durations are shown in the text reports. */
#ifndef CALLSCOPE_REPORT_UNITS_H
#define CALLSCOPE_REPORT_UNITS_H

#include <stdint.h>

#define DURATION_BUF 24

/* Writes NS as "123.456 ms" (three decimals, unit chosen so the number is
 * below 1000) into BUF and returns BUF. */
const char *format_duration(char buf[DURATION_BUF], double ns);

#endif
