/*
 * A binary heap of fixed-size items, best first by the caller's BEFORE:
 * the queue of candidate merges the link-order algorithms take best first.
 * Their candidates go stale as chains merge; rather than find and remove
 * them, the caller drops a stale one when it comes to the top, and
 * binheap_filter() clears out the stale ones in one pass when they pile up.
 */
#ifndef CALLSCOPE_LIB_BINHEAP_H
#define CALLSCOPE_LIB_BINHEAP_H

#include <stddef.h>

/* 1 if item X must come out before item Y. */
typedef int binheap_before_fn(const void *x, const void *y);

struct binheap {
	unsigned char *items;	/* owned; n items of item_size bytes */
	unsigned char *spare;	/* owned; room for the item being moved */
	size_t n, alloc, item_size;
	binheap_before_fn *before;
};

void binheap_init(struct binheap *h, size_t item_size, binheap_before_fn *before);
void binheap_release(struct binheap *h);
/* Copies ITEM into the heap. */
void binheap_push(struct binheap *h, const void *item);
/* Copies the best item into OUT and removes it; 0 when the heap is empty. */
int binheap_pop(struct binheap *h, void *out);
/* Keeps only the items KEEP(item, CTX) says 1 to, in heap order again. */
void binheap_filter(struct binheap *h, int (*keep)(const void *item, void *ctx), void *ctx);

#endif
