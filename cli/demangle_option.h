/*
 * --no-demangle, which every command that shows function names takes:
 * C++ names then appear as the symbol table holds them (symbols/demangle.h).
 * In a command's longopts: NO_DEMANGLE_OPTION; in its switch:
 *   case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
 */
#ifndef CALLSCOPE_CLI_DEMANGLE_OPTION_H
#define CALLSCOPE_CLI_DEMANGLE_OPTION_H

#include "symbols/demangle.h"

/* above every short option and every command's own long-only codes */
#define OPT_NO_DEMANGLE 0x1000
#define NO_DEMANGLE_OPTION { "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE }
#define NO_DEMANGLE_HELP "      --no-demangle  C++ names as the symbol table holds them\n"

#endif
