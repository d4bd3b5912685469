/*
 * Functions this code base does not call, because each has a safer form
 * that says how much room there is or keeps no hidden state:
 *
 *   strcpy, strcat, strncpy, strncat   memcpy with a checked length, or snprintf
 *   sprintf, vsprintf                  snprintf, vsnprintf, xasprintf (lib/xalloc.h)
 *   strtok                             strtok_r (strtok keeps its place in a static)
 *   gets                               fgets, getline
 *   asctime, ctime, gmtime, localtime  the _r forms (they return static storage)
 *
 * The Makefile hands this header to every compile of the runtime, the
 * tools and the tests (-include), so a new use fails the build.  The C
 * library's headers that declare these are read first, as the poisoning
 * would otherwise reject their declarations; being first, they are read
 * with the GNU features every file of ours asks for.
 */
#ifndef CALLSCOPE_COMMON_BANNED_H
#define CALLSCOPE_COMMON_BANNED_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#pragma GCC poison strcpy strcat strncpy strncat sprintf vsprintf strtok gets
#pragma GCC poison asctime ctime gmtime localtime

#endif
