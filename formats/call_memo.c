#include "formats/call_memo.h"

#include <string.h>

#include "sections.h"

void call_memo_settle(uint8_t *file, size_t size)
{
	struct thread_file_header *h = (struct thread_file_header *)file;

	if (size < THREAD_FILE_DATA_OFFSET || memcmp(h->magic, THREAD_FILE_MAGIC, 8) ||
	    h->version != THREAD_FILE_VERSION || !(h->flags & THREAD_CCT) ||
	    h->committed_end < THREAD_FILE_DATA_OFFSET)
		return;
	uint64_t end = h->committed_end < size ? h->committed_end : size;
	uint64_t nodes = (end - THREAD_FILE_DATA_OFFSET) / CCT_RECORD_SIZE;
	struct cct_record *node = (struct cct_record *)(file + THREAD_FILE_DATA_OFFSET);
	if (!h->call_memo_entries || h->call_memo_offset < end || h->call_memo_offset > size ||
	    (size - h->call_memo_offset) / sizeof(struct thread_call_memo) < h->call_memo_entries)
		return;
	struct thread_call_memo *memo = (struct thread_call_memo *)(file + h->call_memo_offset);
	uint32_t entries = h->call_memo_entries;

	/* the count is the node's total: written again it stays right */
	for (uint32_t i = 0; i < entries; i++)
		if (memo[i].node && memo[i].node < nodes && node[memo[i].node].kind == CCT_KIND_PATH)
			node[memo[i].node].calls = memo[i].calls;
	h->call_memo_entries = 0;
}
