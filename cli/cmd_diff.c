/*
 * callscope diff [--json] [--threshold PCT] A B
 *
 * Per-function change from recording A to recording B in self time,
 * total time and calls, largest change in self time first.  A and B are
 * callscope data files or CodeScape .prf files.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/load.h"
#include "die.h"
#include "formats/prf.h"
#include "report/diff.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope diff [--json] [--threshold PCT] A B\n"
	"\n"
	"  A, B               recordings (callscope data or .prf): A is the baseline\n"
	"      --json         machine-readable output (see docs/diff.md)\n"
	"  -t, --threshold PCT  hide functions whose self and total time changed by\n"
	"                     less than PCT % of A's time\n";

/* Reads PATH whole; dies with one line when it cannot. */
static uint8_t *read_file(const char *path, size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		die("'%s' is not a regular file", path);
	*size = (size_t)st.st_size;
	uint8_t *buf = xmalloc(*size + 1);
	size_t done = 0;
	while (done < *size) {
		ssize_t n = read(fd, buf + done, *size - done);
		if (n <= 0)
			die("cannot read '%s': %s", path, n ? strerror(errno) : "file shrank");
		done += (size_t)n;
	}
	close(fd);
	return buf;
}

static int is_prf(const char *path)
{
	char magic[PRF_MAGIC_LEN];
	FILE *f = fopen(path, "rb");
	int yes = 0;

	if (f) {
		yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
		      !memcmp(magic, PRF_MAGIC, PRF_MAGIC_LEN);
		fclose(f);
	}
	return yes;
}

/* Returns the profile of PATH, whichever format; sets *SALVAGED. */
static struct profile *load_any(const char *path, int *salvaged)
{
	struct profile *p;

	if (is_prf(path)) {
		size_t size;
		char err[256];
		uint8_t *bytes = read_file(path, &size);
		if (prf_to_profile(bytes, size, &p, err, sizeof(err)) != 0)
			die("'%s' is damaged: %s", path, err);
		free(bytes);
		return p;
	}
	struct data_file df;
	struct load_stats stats;
	struct load_filter all = { -1, -1 };
	if (data_file_load(path, &df) != 0)
		exit(EXIT_FATAL);
	p = load_profile(&df, &all, &stats);
	*salvaged |= stats.salvaged;
	data_file_release(&df);
	return p;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "threshold", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_options o = { NULL, NULL, 0, 0 };
	int opt;

	while ((opt = getopt_long(argc, argv, "t:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': o.json = 1; break;
		case 't': {
			char *end;
			o.threshold_pct = strtod(optarg, &end);
			if (end == optarg || *end || !(o.threshold_pct >= 0 && o.threshold_pct <= 100))
				usage_die("--threshold wants a percentage from 0 to 100, not '%s'",
					  optarg);
			break;
		}
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		usage_die("diff wants two recordings, A and B; see 'callscope diff --help'");
	o.name_a = argv[optind];
	o.name_b = argv[optind + 1];

	int salvaged = 0;
	struct profile *a = load_any(o.name_a, &salvaged);
	struct profile *b = load_any(o.name_b, &salvaged);
	struct diff d;
	diff_build(a, b, &d);
	report_diff(stdout, &d, &o);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	return salvaged ? EXIT_SALVAGED : 0;
}
