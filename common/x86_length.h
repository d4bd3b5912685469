/*
 * Lengths of x86-64 instructions read without a disassembler: the ModRM
 * operand of any instruction, and whole VEX- and EVEX-encoded
 * instructions.  Extensions keep adding to those two encodings (AVX-VNNI,
 * AVX512-FP16, AMX) faster than a distribution's disassembler learns them,
 * and the reader of a function must step over such an instruction to
 * find the calls after it.
 */
#ifndef CALLSCOPE_X86_LENGTH_H
#define CALLSCOPE_X86_LENGTH_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of the ModRM byte at MODRM and of the SIB and displacement it
 * asks for (64-bit addressing), or 0 when LEFT bytes do not hold them. */
size_t x86_modrm_length(const uint8_t *modrm, size_t left);

/* The length of the VEX- (C4, C5) or EVEX-encoded (62) instruction at
 * CODE, or 0 when it is not one, is cut short by LEFT, or lies in an
 * opcode map this does not know. */
size_t x86_vex_length(const uint8_t *code, size_t left);

#endif
