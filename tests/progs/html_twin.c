/*
 * Two functions of one name in two objects, both called from main: the
 * program's static twin() and libtwin.so's (html_twin_lib.c), which does a
 * third of the work.  Build the library with -shared -fPIC as libtwin.so.
 */
void (*lib_twin(void))(int);

static volatile unsigned long sink;

__attribute__((noinline)) static void twin(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i;
}

int main(void)
{
	twin(300000);
	lib_twin()(100000);
	return 0;
}
