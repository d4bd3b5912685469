/*
 * The bundled example: counts word frequencies in generated text with a
 * chained hash table, then sorts the words by count.  Small, but with
 * the shape of real code: a hot inner function (hash), an allocator-heavy
 * path (insert), a recursive sort and a cold report.
 *
 *   cc -pg -O2 -fno-inline -g -o wordfreq examples/wordfreq.c
 *   callscope record -- ./wordfreq 200000
 *   callscope report
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 4096

struct entry {
	char word[16];
	unsigned count;
	struct entry *next;
};

static struct entry *table[BUCKETS];
static unsigned long rng_state = 12345;

static unsigned next_random(void)
{
	rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(rng_state >> 33);
}

/* A Zipf-like word: short words are far more frequent. */
static void make_word(char *buf)
{
	unsigned len = 1 + next_random() % 3 + (next_random() % 8 == 0 ? next_random() % 8 : 0);
	for (unsigned i = 0; i < len; i++)
		buf[i] = (char)('a' + next_random() % 6);
	buf[len] = '\0';
}

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct entry *insert(const char *word)
{
	struct entry *e = calloc(1, sizeof(*e));
	if (!e)
		exit(1);
	strcpy(e->word, word);
	return e;
}

static void count_word(const char *word)
{
	unsigned b = hash(word) % BUCKETS;
	for (struct entry *e = table[b]; e; e = e->next) {
		if (!strcmp(e->word, word)) {
			e->count++;
			return;
		}
	}
	struct entry *e = insert(word);
	e->count = 1;
	e->next = table[b];
	table[b] = e;
}

static int by_count(const struct entry *a, const struct entry *b)
{
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return strcmp(a->word, b->word);
}

static void sort_entries(struct entry **v, int lo, int hi)
{
	if (lo >= hi)
		return;
	struct entry *pivot = v[(lo + hi) / 2];
	int i = lo, j = hi;
	while (i <= j) {
		while (by_count(v[i], pivot) < 0)
			i++;
		while (by_count(v[j], pivot) > 0)
			j--;
		if (i <= j) {
			struct entry *t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
	}
	sort_entries(v, lo, j);
	sort_entries(v, i, hi);
}

static void report(struct entry **v, int n)
{
	for (int i = 0; i < n && i < 5; i++)
		printf("%-10s %u\n", v[i]->word, v[i]->count);
	printf("%d distinct words\n", n);
}

int main(int argc, char **argv)
{
	long words = argc > 1 ? atol(argv[1]) : 200000;
	char buf[16];

	for (long i = 0; i < words; i++) {
		make_word(buf);
		count_word(buf);
	}
	int n = 0;
	for (int b = 0; b < BUCKETS; b++)
		for (struct entry *e = table[b]; e; e = e->next)
			n++;
	struct entry **v = malloc((size_t)n * sizeof(*v) + 1);
	if (!v)
		return 1;
	n = 0;
	for (int b = 0; b < BUCKETS; b++)
		for (struct entry *e = table[b]; e; e = e->next)
			v[n++] = e;
	sort_entries(v, 0, n - 1);
	report(v, n);
	return 0;
}
