/* The sampler's contract and SAMPLE records: what the runtime writes the
 * reader decodes, and damaged records stop the decoder with a reason. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "formats/stream_reader.h"
#include "model/cct.h"
#include "model/samples.h"
#include "report/samples.h"
#include "sampling.h"
#include "stream.h"

static void test_parse(void **state)
{
	struct sampling s;
	const char *why = NULL;

	(void)state;
	assert_int_equal(sampling_parse("hz=499;clock=wall;stack=dwarf;only=libz,prog", &s, &why), 0);
	assert_int_equal(s.hz, 499);
	assert_int_equal(s.wall, 1);
	assert_int_equal(s.stack, SAMPLING_STACK_DWARF);
	assert_int_equal(s.timer, 0);
	assert_string_equal(s.only, "libz,prog");
	assert_int_equal(sampling_parse("", &s, &why), 0);
	assert_int_equal(s.hz, SAMPLING_HZ_DEFAULT);
	assert_int_equal(sampling_parse("hz=0", &s, &why), -1);
	assert_int_equal(sampling_parse("hz=12x", &s, &why), -1);
	assert_int_equal(sampling_parse("clock=sun", &s, &why), -1);
	assert_int_equal(sampling_parse("hz=100;bogus=1", &s, &why), -1);
	assert_non_null(why);
}

/* Writes a SAMPLE record as runtime/sampler.c does; returns its end. */
static uint8_t *put_sample(uint8_t *p, uint64_t flags, uint64_t weight, uint64_t pc,
			   const uint64_t *rets, size_t n, const uint8_t *copy, size_t len)
{
	p = stream_put_varint(p, ((uint64_t)STREAM_SAMPLE << 2) | STREAM_SPECIAL);
	p = stream_put_varint(p, 7);
	p = stream_put_varint(p, flags);
	p = stream_put_varint(p, weight);
	p = stream_put_varint(p, 2);
	p = stream_put_varint(p, pc);
	p = stream_put_varint(p, n);
	for (size_t i = 0; i < n; i++)
		p = stream_put_varint(p, rets[i]);
	if (copy) {
		p = stream_put_varint(p, 0x7ffd0000);
		p = stream_put_varint(p, 0x7ffd0040);
		p = stream_put_varint(p, len);
		memcpy(p, copy, len);
		p += len;
	}
	return p;
}

static void test_decode(void **state)
{
	uint8_t buf[512], copy[64];
	const uint64_t rets[] = { 0x401234, 0x7f0000001000 };
	struct stream_reader r;
	struct stream_event ev;

	(void)state;
	memset(copy, 0xab, sizeof(copy));
	uint8_t *p = put_sample(buf, SAMPLE_METHOD_FP << SAMPLE_METHOD_SHIFT, 3, 0x401000, rets,
				2, NULL, 0);
	uint8_t *end = put_sample(p, SAMPLE_METHOD_DWARF << SAMPLE_METHOD_SHIFT, 1, 0x401010,
				  NULL, 0, copy, sizeof(copy));
	stream_reader_init(&r, buf, (size_t)(end - buf), 100, 0);
	assert_int_equal(stream_reader_next(&r, &ev), 1);
	assert_int_equal(ev.kind, EVENT_SAMPLE);
	assert_int_equal(ev.time, 107);
	assert_int_equal(ev.addr, 0x401000);
	assert_int_equal(ev.sample_weight, 3);
	assert_int_equal(ev.sample_missed, 2);
	assert_int_equal(ev.nframes, 2);
	assert_null(ev.stack_copy);
	assert_int_equal(stream_reader_next(&r, &ev), 1);
	assert_int_equal(ev.kind, EVENT_SAMPLE);
	assert_int_equal(ev.nframes, 0);
	assert_int_equal(ev.sample_sp, 0x7ffd0000);
	assert_int_equal(ev.stack_copy_len, sizeof(copy));
	assert_memory_equal(ev.stack_copy, copy, sizeof(copy));
	assert_int_equal(stream_reader_next(&r, &ev), 0);
	stream_reader_release(&r);

	/* every cut inside a record is an error, never a read past the end */
	for (size_t len = 1; len < (size_t)(p - buf); len++) {
		stream_reader_init(&r, buf, len, 0, 0);
		assert_int_equal(stream_reader_next(&r, &ev), -1);
		assert_non_null(r.error);
		stream_reader_release(&r);
	}
	/* a weight of 0 is impossible */
	end = put_sample(buf, 0, 0, 0x401000, NULL, 0, NULL, 0);
	stream_reader_init(&r, buf, (size_t)(end - buf), 0, 0);
	assert_int_equal(stream_reader_next(&r, &ev), -1);
	stream_reader_release(&r);
}

/* Samples walked with the call frame information in the handler count as
 * their own methods, beside those of the two bits. */
static void test_methods(void **state)
{
	struct profile *p = profile_new();
	const uint32_t one[] = { profile_intern_func(p, "a", "", 0, 0, NULL, 0) };

	(void)state;
	assert_int_equal(sample_method_of(SAMPLE_METHOD_FP << SAMPLE_METHOD_SHIFT), SAMPLE_METHOD_FP);
	assert_int_equal(sample_method_of(SAMPLE_CFI | SAMPLE_METHOD_FP << SAMPLE_METHOD_SHIFT),
			 SAMPLE_METHOD_CFI);
	assert_int_equal(sample_method_of(SAMPLE_CFI | SAMPLE_METHOD_FP_DWARF << SAMPLE_METHOD_SHIFT),
			 SAMPLE_METHOD_CFI_DWARF);
	profile_add_sample(p, one, 1, 1, SAMPLE_CFI | SAMPLE_METHOD_FP << SAMPLE_METHOD_SHIFT, 0, 0);
	char *text = report_samples_method(p);
	assert_string_equal(text, "call frame information");
	free(text);
	profile_add_sample(p, one, 1, 2, SAMPLE_CFI | SAMPLE_METHOD_FP << SAMPLE_METHOD_SHIFT, 0, 0);
	profile_add_sample(p, one, 1, 1, SAMPLE_CFI | SAMPLE_METHOD_FP_DWARF << SAMPLE_METHOD_SHIFT,
			   0, 0);
	profile_add_sample(p, one, 1, 1, SAMPLE_METHOD_DWARF << SAMPLE_METHOD_SHIFT, 0, 0);
	text = report_samples_method(p);
	assert_string_equal(text, "DWARF unwinding 20 %, call frame information 60 %, "
				  "call frame information then DWARF 20 %");
	free(text);
	profile_free(p);
}

static void test_model(void **state)
{
	struct profile *p = profile_new();
	uint32_t a = profile_intern_func(p, "a", "", 0, 0, NULL, 0);
	uint32_t b = profile_intern_func(p, "b", "", 0, 0, NULL, 0);
	const uint32_t recursive[] = { a, a, a, b };
	const uint32_t plain[] = { b };

	(void)state;
	profile_add_sample(p, recursive, 4, 2, SAMPLE_TRUNCATED, 0, 1);
	profile_add_sample(p, plain, 1, 1, 0, 0, 0);
	assert_int_equal(p->samples, 3);
	assert_int_equal(p->samples_lost, 1);
	assert_int_equal(p->samples_truncated, 2);	/* by weight, as the samples */
	assert_int_equal(p->funcs[a].self_samples, 2);
	assert_int_equal(p->funcs[a].samples, 2);	/* once per sample, not per frame */
	assert_int_equal(p->funcs[b].self_samples, 1);
	assert_int_equal(p->funcs[b].samples, 3);
	assert_true(func_total_sample_pct(p, &p->funcs[b]) > 99.9);

	/* the pairs of the stacks: a -> a once per sample, b -> a, and the
	 * outermost functions from <spontaneous> */
	assert_int_equal(p->nsample_arcs, 3);
	const struct sample_arc *aa = &p->sample_arcs[profile_intern_sample_arc(p, a, a)];
	assert_int_equal(aa->samples, 2);
	assert_int_equal(aa->self_samples, 2);
	const struct sample_arc *ba = &p->sample_arcs[profile_intern_sample_arc(p, b, a)];
	assert_int_equal(ba->samples, 2);
	assert_int_equal(ba->self_samples, 0);
	const struct sample_arc *top = &p->sample_arcs[profile_intern_sample_arc(p, FUNC_NONE, b)];
	assert_int_equal(top->samples, 3);
	assert_int_equal(top->self_samples, 1);
	assert_int_equal(p->nsample_arcs, 3);

	/* the same stacks as call paths */
	struct cct *t = cct_new(FUNC_NONE);
	cct_add_sample(t, recursive, 4, 2);
	cct_add_sample(t, plain, 1, 1);
	assert_true(cct_has_metric(t, CCT_SAMPLES));
	assert_int_equal(t->nodes[CCT_ROOT].total[CCT_SAMPLES], 3);
	uint32_t nb = cct_child(t, CCT_ROOT, b), na = cct_child(t, nb, a);
	uint32_t naa = cct_child(t, na, a), naaa = cct_child(t, naa, a);
	assert_int_equal(t->nodes[nb].total[CCT_SAMPLES], 3);
	assert_int_equal(t->nodes[nb].self[CCT_SAMPLES], 1);
	assert_int_equal(t->nodes[na].total[CCT_SAMPLES], 2);
	assert_int_equal(t->nodes[na].self[CCT_SAMPLES], 0);
	assert_int_equal(t->nodes[naaa].self[CCT_SAMPLES], 2);
	assert_int_equal(t->nnodes, 5);
	cct_free(t);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_methods),
		cmocka_unit_test(test_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
