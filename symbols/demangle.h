/*
 * C++ (and Rust, D, Ada) names as a reader knows them.  Symbol tables hold
 * linkage names (_ZN3ns3fooEv); every view shows them demangled, the way
 * GNU gprof does: libiberty's demangler with DMGL_PARAMS | DMGL_ANSI
 * (parameter types and cv-qualifiers, no return types), a leading '.' or
 * '$' and a trailing "@VERSION" or "@plt" kept as they are, around the
 * demangled part (BFD's bfd_demangle).
 *
 * Whether to demangle, and in which style, is one setting for the whole
 * run of the tool: a command's --no-demangle or --demangle=STYLE sets it
 * before anything is loaded, as gprof's options do.
 */
#ifndef CALLSCOPE_SYMBOLS_DEMANGLE_H
#define CALLSCOPE_SYMBOLS_DEMANGLE_H

/* Turns demangling on (the default) or off (--no-demangle). */
void demangle_set_enabled(int on);

/*
 * --demangle=STYLE: "auto" (the default), "gnu-v3", "java", "gnat",
 * "dlang" or "rust", as libiberty names them.  Turns demangling on.
 * Returns 0, or -1 for a style libiberty does not know.
 */
int demangle_set_style(const char *style);

/*
 * SYMBOL demangled, as a malloc'd string the caller frees; NULL when
 * demangling is off or SYMBOL is not a mangled name (a C function).
 */
char *demangle_symbol(const char *symbol);

/* SYMBOL as a reader should see it: demangle_symbol()'s result, or a copy
 * of SYMBOL.  A malloc'd string the caller frees. */
char *demangle_for_display(const char *symbol);

/*
 * Whether SPEC, a name a user typed, names the function whose linkage
 * name is SYMBOL and whose demangled name is SHOWN (SHOWN may equal
 * SYMBOL): SPEC is either exactly, or SHOWN without its parameter list
 * and what follows it, and without a template function's return type:
 * "ns::Shape::area" names "ns::Shape::area() const", "sum_all<int>"
 * names "int sum_all<int>(std::vector<int, std::allocator<int> > const&)",
 * "compute" names every overload of compute.  The C++ forms work under
 * --no-demangle too.
 */
int demangled_name_matches(const char *symbol, const char *shown, const char *spec);

#endif
