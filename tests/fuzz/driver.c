/*
 * A stand-alone driver for the fuzz harnesses, so they run without
 * libFuzzer (CI's smoke run, and any machine without clang):
 *
 *   fuzz_X SEED_DIR [--mutate N]
 *
 * feeds every file in SEED_DIR to LLVMFuzzerTestOneInput, then N mutants
 * of each (bit flips, byte sets, truncations, grown lengths) from a fixed
 * random seed so a failure reproduces.  A crash is the failure signal.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t alloc = 0;

	*size = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*size == alloc) {
			alloc = alloc ? alloc * 2 : 4096;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		size_t n = fread(buf + *size, 1, alloc - *size, f);
		if (!n)
			break;
		*size += n;
	}
	fclose(f);
	return buf;
}

static void mutate(uint8_t *buf, size_t *size, size_t max)
{
	int edits = 1 + (int)(rng() % 4);

	for (int i = 0; i < edits && *size; i++) {
		size_t at = rng() % *size;
		switch (rng() % 5) {
		case 0: buf[at] ^= (uint8_t)(1u << (rng() % 8)); break;
		case 1: buf[at] = (uint8_t)rng(); break;
		case 2: buf[at] = (rng() & 1) ? 0xff : 0x00; break;
		case 3: *size = at; break;
		case 4:
			/* make a length-like field huge */
			if (at + 4 <= *size)
				memset(buf + at, 0xff, 4);
			break;
		}
	}
	if (*size > max)
		*size = max;
}

int main(int argc, char **argv)
{
	long mutants = 0;
	size_t runs = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s SEED_DIR [--mutate N]\n", argv[0]);
		return 2;
	}
	if (argc >= 4 && !strcmp(argv[2], "--mutate"))
		mutants = strtol(argv[3], NULL, 10);
	DIR *d = opendir(argv[1]);
	if (!d) {
		perror(argv[1]);
		return 2;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		size_t size;
		snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
		uint8_t *seed = read_file(path, &size);
		if (!seed)
			continue;
		LLVMFuzzerTestOneInput(seed, size);
		runs++;
		uint8_t *work = malloc(size ? size : 1);
		for (long i = 0; i < mutants; i++) {
			size_t n = size;
			memcpy(work, seed, size);
			mutate(work, &n, size);
			LLVMFuzzerTestOneInput(work, n);
			runs++;
		}
		/* every truncation point of small seeds */
		for (size_t cut = 0; size <= 65536 && cut < size; cut++) {
			LLVMFuzzerTestOneInput(seed, cut);
			runs++;
		}
		free(work);
		free(seed);
	}
	closedir(d);
	printf("%s: %zu inputs, no crash\n", argv[0], runs);
	return 0;
}
