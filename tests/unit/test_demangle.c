/*
 * symbols/demangle: names as GNU gprof prints them (libiberty with
 * gprof's flags, BFD's handling of prefixes and version suffixes), the
 * --no-demangle switch, and the C++ forms a user may type for a function.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"

static void expect_demangled(const char *symbol, const char *want)
{
	char *got = demangle_symbol(symbol);
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_demangle_forms(void **state)
{
	(void)state;
	demangle_set_enabled(1);
	expect_demangled("_ZNK8geometry6Square4areaEv", "geometry::Square::area() const");
	expect_demangled("_Z5labelB5cxx11i", "label[abi:cxx11](int)");
	expect_demangled("_ZN8geometryplENS_3VecES0_", "geometry::operator+(geometry::Vec, geometry::Vec)");
	/* a template function keeps its return type, as gprof shows it */
	expect_demangled("_Z7sum_allIiET_RKSt6vectorIS0_SaIS0_EE",
			 "int sum_all<int>(std::vector<int, std::allocator<int> > const&)");
	expect_demangled("_Z7checkedi.cold", "checked(int) [clone .cold]");
	/* BFD's way: a version suffix and leading dots stay around the name */
	expect_demangled("_Z7checkedi@@VERS_1", "checked(int)@@VERS_1");
	expect_demangled("._Z7checkedi", ".checked(int)");
	/* C names, and names that only look mangled, are left alone */
	expect_demangled("main", NULL);
	expect_demangled("_Zgarbage", NULL);
	expect_demangled("", NULL);
}

static void test_no_demangle(void **state)
{
	(void)state;
	demangle_set_enabled(0);
	expect_demangled("_ZNK8geometry6Square4areaEv", NULL);
	char *shown = demangle_for_display("_ZNK8geometry6Square4areaEv");
	assert_string_equal(shown, "_ZNK8geometry6Square4areaEv");
	free(shown);
	demangle_set_enabled(1);
	shown = demangle_for_display("_ZNK8geometry6Square4areaEv");
	assert_string_equal(shown, "geometry::Square::area() const");
	free(shown);
}

static void test_style(void **state)
{
	(void)state;
	assert_int_equal(demangle_set_style("no-such-style"), -1);
	demangle_set_enabled(0);
	assert_int_equal(demangle_set_style("gnu-v3"), 0);
	/* choosing a style turns demangling on, as gprof's --demangle=STYLE */
	expect_demangled("_Z7checkedi", "checked(int)");
	assert_int_equal(demangle_set_style("auto"), 0);
}

static void test_matches(void **state)
{
	(void)state;
	const char *sym = "_ZNK8geometry6Square4areaEv", *shown = "geometry::Square::area() const";
	demangle_set_enabled(1);
	assert_true(demangled_name_matches(sym, shown, sym));
	assert_true(demangled_name_matches(sym, shown, shown));
	assert_true(demangled_name_matches(sym, shown, "geometry::Square::area"));
	assert_false(demangled_name_matches(sym, shown, "Square::area"));
	assert_false(demangled_name_matches(sym, shown, "geometry::Square::area()"));

	const char *tsym = "_Z7sum_allIiET_RKSt6vectorIS0_SaIS0_EE";
	const char *tshown = "int sum_all<int>(std::vector<int, std::allocator<int> > const&)";
	assert_true(demangled_name_matches(tsym, tshown, "sum_all<int>"));
	assert_true(demangled_name_matches(tsym, tshown, "int sum_all<int>"));
	assert_false(demangled_name_matches(tsym, tshown, "sum_all"));

	/* operator() of a lambda: the name keeps its own "()" */
	const char *lshown = "sort_descending(std::vector<int, std::allocator<int> >&)::"
			     "{lambda(int, int)#1}::operator()(int, int) const";
	assert_true(demangled_name_matches("x", lshown,
					   "sort_descending(std::vector<int, std::allocator<int> >&)::"
					   "{lambda(int, int)#1}::operator()"));
	assert_false(demangled_name_matches("x", lshown, "sort_descending"));

	/* shown raw (--no-demangle): the C++ forms still name it */
	assert_true(demangled_name_matches(sym, sym, "geometry::Square::area"));
	assert_true(demangled_name_matches(sym, sym, shown));
	/* a C function is named by its name only */
	assert_true(demangled_name_matches("main", "main", "main"));
	assert_false(demangled_name_matches("main", "main", "mai"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle_forms),
		cmocka_unit_test(test_no_demangle),
		cmocka_unit_test(test_style),
		cmocka_unit_test(test_matches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
