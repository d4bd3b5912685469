/*
 * Merging data files (formats/native_merge.h).  Sections are copied as
 * they are, with a few fields patched:
 *
 *   image        (+ the input's image offset) in PROCESS, OBJECT, THREAD
 *                and PROCESS_END, at offset 4 of each
 *   clock values (+ the input's shift) where a time is stored: THREAD's
 *                clock at start (24), PROCESS's clock at start (16),
 *                PROCESS_END's clock at end (16); CLOCK_MONOTONIC values
 *                (PROCESS 24, PROCESS_END 24) move by the same time
 *   SESSION      clock and monotonic time at the end, so the run spans
 *                all inputs and the clock rate stays the first input's
 *
 * A thread's stream holds only deltas from its clock at start, so moving
 * that one value moves all its events.  Input k is placed after inputs
 * 0..k-1, each taking its own recorded duration.
 */
#include "formats/native_merge.h"

#include <errno.h>
#include <string.h>

#include "contract.h"
#include "formats/patch_coverage.h"
#include "xalloc.h"

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
	return get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void set_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void set_u64(uint8_t *p, uint64_t v)
{
	set_u32(p, (uint32_t)v);
	set_u32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t origin(const struct data_session *s)
{
	return s->clock == CONTRACT_CLOCK_MONO ? s->mono_start : s->tsc_start;
}

static double rate(const struct data_session *s)
{
	if (s->clock == CONTRACT_CLOCK_MONO)
		return 1.0;
	if (s->tsc_end > s->tsc_start && s->mono_end > s->mono_start)
		return (double)(s->mono_end - s->mono_start) / (double)(s->tsc_end - s->tsc_start);
	return 1.0;
}

/* The recorded span of a run in ns: the session's, or its last event's
 * if a process ran longer than the launcher saw (it never should). */
static uint64_t span_ns(const struct data_file *df)
{
	const struct data_session *s = &df->session;
	uint64_t span = s->mono_end > s->mono_start ? s->mono_end - s->mono_start : 0;

	for (size_t i = 0; i < df->nprocesses; i++) {
		const struct data_process *p = &df->processes[i];
		if (p->ended && p->end_mono > s->mono_start && p->end_mono - s->mono_start > span)
			span = p->end_mono - s->mono_start;
	}
	return span;
}

struct shift {
	uint32_t image_offset;
	int64_t units;		/* added to clock values */
	int64_t mono_ns;	/* added to CLOCK_MONOTONIC values */
};

static void patch_u64(uint8_t *payload, uint64_t len, size_t off, int64_t by)
{
	if (len >= off + 8)
		set_u64(payload + off, get_u64(payload + off) + (uint64_t)by);
}

/* Copies one section of input with SH applied; 1 if it was skipped. */
static int copy_section(FILE *out, uint32_t type, const uint8_t *payload, uint64_t len,
			const struct shift *sh, int *failed)
{
	uint8_t small[256];
	uint8_t *copy;

	/* the inputs' PATCH sections make one of the output's (data_merge());
	 * a PAD means nothing */
	if (type == SECTION_PATCH || type == SECTION_PAD)
		return 0;
	if ((type < SECTION_PROCESS || type > SECTION_PROCESS_END) && type != SECTION_CALIBRATION &&
	    type != SECTION_THREAD_PAUSED && type != SECTION_MOVED_CODE)
		return 1;
	/* Only the fixed fields are patched: the head is copied, the rest
	 * (a THREAD's stream) written from the input as it is. */
	size_t head = len < sizeof(small) ? (size_t)len : sizeof(small);
	copy = small;
	memcpy(copy, payload, head);
	if (head >= 8)
		set_u32(copy + 4, get_u32(copy + 4) + sh->image_offset);
	switch (type) {
	case SECTION_THREAD:
		patch_u64(copy, head, 24, sh->units);
		break;
	case SECTION_PROCESS:
	case SECTION_PROCESS_END:
		patch_u64(copy, head, 16, sh->units);
		patch_u64(copy, head, 24, sh->mono_ns);
		break;
	default:
		break;
	}
	struct data_part parts[2] = { { copy, head }, { payload + head, (size_t)(len - head) } };
	if (data_write_section_parts(out, (enum section_type)type, parts, 2))
		*failed = 1;
	return 0;
}

int data_merge(FILE *out, const struct data_file *in, size_t n, struct data_merge_result *res,
	       char *err, size_t errlen)
{
	const struct data_session *s0 = &in[0].session;
	double rate0 = rate(s0);
	uint64_t elapsed_ns = 0;
	uint32_t image_offset = 0, *offsets = NULL, *max_images = NULL;
	int failed = 0;

	memset(res, 0, sizeof(*res));
	res->worst_rate_ratio = 1.0;
	for (size_t k = 1; k < n; k++) {
		if (in[k].session.clock != s0->clock) {
			snprintf(err, errlen, "input %zu was recorded with another clock (%s) than the "
				 "first (%s)", k + 1,
				 in[k].session.clock == CONTRACT_CLOCK_MONO ? "monotonic" : "tsc",
				 s0->clock == CONTRACT_CLOCK_MONO ? "monotonic" : "tsc");
			return -1;
		}
		double r = rate(&in[k].session) / rate0;
		if (r < 1)
			r = 1 / r;
		if (r > res->worst_rate_ratio) {
			res->worst_rate_ratio = r;
			res->worst_input = k;
		}
	}

	if (data_write_header(out))
		goto io_error;
	/* The SESSION: the first input's, stretched over all the runs. */
	uint64_t total_ns = 0;
	for (size_t k = 0; k < n; k++)
		total_ns += span_ns(&in[k]);
	uint64_t total_units = (uint64_t)((double)total_ns / rate0 + 0.5);
	{
		const uint8_t *h = in[0].bytes;
		uint32_t header_size = get_u32(h + 12);
		const uint8_t *p = h + header_size, *end = h + in[0].size;
		while (end - p >= SECTION_HEADER_SIZE) {
			uint32_t type = get_u32(p);
			uint64_t len = get_u64(p + 8);
			const uint8_t *payload = p + SECTION_HEADER_SIZE;
			if (type == SECTION_SESSION && len >= 32) {
				uint8_t head[32];
				memcpy(head, payload, sizeof(head));
				set_u64(head + 16, origin(s0) + total_units);
				set_u64(head + 24, s0->mono_start +
						     (s0->clock == CONTRACT_CLOCK_MONO
							      ? total_units
							      : (uint64_t)((double)total_units * rate0 + 0.5)));
				struct data_part parts[2] = {
					{ head, sizeof(head) },
					{ payload + sizeof(head), (size_t)(len - sizeof(head)) },
				};
				if (data_write_section_parts(out, SECTION_SESSION, parts, 2))
					goto io_error;
				break;
			}
			p = payload + len;
		}
	}
	/* Each input's images move up past the previous inputs'. */
	offsets = xcalloc(n, sizeof(*offsets));
	max_images = xcalloc(n, sizeof(*max_images));
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < in[k].nprocesses; i++)
			if (in[k].processes[i].image > max_images[k])
				max_images[k] = in[k].processes[i].image;
		offsets[k] = image_offset;
		image_offset += max_images[k] + 1;
	}
	/* What record --patch patched, per input: which objects call hooks
	 * in its processes, and info's account of the patching. */
	size_t patch_len;
	uint8_t *patch = patch_coverage_merge(in, n, offsets, max_images, &patch_len);
	int patch_failed = patch && data_write_section(out, SECTION_PATCH, patch, patch_len);
	free(patch);
	if (patch_failed)
		goto io_error;
	for (size_t k = 0; k < n; k++) {
		const struct data_file *df = &in[k];
		struct shift sh;

		sh.image_offset = offsets[k];
		sh.units = (int64_t)(origin(s0) + (uint64_t)((double)elapsed_ns / rate0 + 0.5) -
				     origin(&df->session));
		sh.mono_ns = (int64_t)(s0->mono_start + elapsed_ns - df->session.mono_start);

		const uint8_t *p = df->bytes + get_u32(df->bytes + 12), *end = df->bytes + df->size;
		while (end - p >= SECTION_HEADER_SIZE) {
			uint32_t type = get_u32(p);
			uint64_t len = get_u64(p + 8);
			const uint8_t *payload = p + SECTION_HEADER_SIZE;
			if (len > (uint64_t)(end - payload))
				break;	/* the parser accepted the file: cannot happen */
			/* the events counted name every input's counters (the
			 * caller checked they are the same): the first's, as
			 * they are */
			if (type == SECTION_COUNTERS && k == 0 &&
			    data_write_section(out, SECTION_COUNTERS, payload, (size_t)len))
				goto io_error;
			/* one SESSION and one END frame the output, not each input's */
			if (type != SECTION_SESSION && type != SECTION_END && type != SECTION_COUNTERS)
				res->skipped_sections += (size_t)copy_section(out, type, payload, len,
									      &sh, &failed);
			if (failed)
				goto io_error;
			p = payload + len;
		}
		elapsed_ns += span_ns(df);
	}
	if (data_write_end(out) || fflush(out) != 0 || ferror(out))
		goto io_error;
	free(offsets);
	free(max_images);
	return 0;
io_error:
	free(offsets);
	free(max_images);
	snprintf(err, errlen, "%s", strerror(errno));
	return -1;
}
