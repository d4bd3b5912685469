#include "binheap.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void *item(const struct binheap *h, size_t i)
{
	return h->items + i * h->item_size;
}

/* The item at I moves up to its place; the items it passes move down. */
static void sift_up(struct binheap *h, size_t i)
{
	memcpy(h->spare, item(h, i), h->item_size);
	while (i && h->before(h->spare, item(h, (i - 1) / 2))) {
		memcpy(item(h, i), item(h, (i - 1) / 2), h->item_size);
		i = (i - 1) / 2;
	}
	memcpy(item(h, i), h->spare, h->item_size);
}

/* The item at I moves down to its place; the better children move up. */
static void sift_down(struct binheap *h, size_t i)
{
	memcpy(h->spare, item(h, i), h->item_size);
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = l;
		if (l >= h->n)
			break;
		if (r < h->n && h->before(item(h, r), item(h, l)))
			m = r;
		if (!h->before(item(h, m), h->spare))
			break;
		memcpy(item(h, i), item(h, m), h->item_size);
		i = m;
	}
	memcpy(item(h, i), h->spare, h->item_size);
}

void binheap_init(struct binheap *h, size_t item_size, binheap_before_fn *before)
{
	memset(h, 0, sizeof(*h));
	h->item_size = item_size;
	h->before = before;
	h->spare = xmalloc(item_size);
}

void binheap_release(struct binheap *h)
{
	free(h->items);
	free(h->spare);
	h->items = h->spare = NULL;
	h->n = h->alloc = 0;
}

void binheap_push(struct binheap *h, const void *it)
{
	if (h->n == h->alloc) {
		h->alloc = h->alloc < 16 ? 16 : 2 * h->alloc;
		h->items = xrealloc(h->items, h->alloc * h->item_size);
	}
	memcpy(item(h, h->n), it, h->item_size);
	sift_up(h, h->n++);
}

int binheap_pop(struct binheap *h, void *out)
{
	if (!h->n)
		return 0;
	memcpy(out, item(h, 0), h->item_size);
	if (--h->n) {
		memcpy(item(h, 0), item(h, h->n), h->item_size);
		sift_down(h, 0);
	}
	return 1;
}

void binheap_filter(struct binheap *h, int (*keep)(const void *item, void *ctx), void *ctx)
{
	size_t kept = 0;

	for (size_t i = 0; i < h->n; i++)
		if (keep(item(h, i), ctx)) {
			if (kept != i)
				memcpy(item(h, kept), item(h, i), h->item_size);
			kept++;
		}
	h->n = kept;
	for (size_t i = h->n / 2; i-- > 0;)
		sift_down(h, i);
}
