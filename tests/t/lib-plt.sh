# Helpers for the tests of PLT stub names, sourced after lib.sh.

SYMBOLIZE="$BUILD/tests/symbolize"
needs_shims "$SYMBOLIZE"

# The PLT layouts gcc and GNU ld write on Debian 12, NAME:FLAGS: the lazy
# .plt with its 8-byte .plt.got; IBT's .plt.sec with 16-byte .plt.got
# entries (Debian's crt1.o carries no IBT property, so -fcf-protection
# alone gets no .plt.sec from GNU ld; -z ibtplt asks for it anyway); -z now.
# shellcheck disable=SC2034 # used by the tests that source this file
PLT_VARIANTS="lazy:-fcf-protection=none ibt:-fcf-protection:-Wl,-z,ibtplt now:-Wl,-z,now"

# build_plt_variant NAME:FLAGS: tests/progs/plt_calls.c built as p-NAME
# with those flags; sets name to NAME.
build_plt_variant() {
	name=${1%%:*}
	# shellcheck disable=SC2046
	build_prog plt_calls "p-$name" -O2 -fno-builtin $(echo "${1#*:}" | tr : ' ')
}

# plt_names_match OBJECT: every instruction objdump shows in OBJECT's
# .plt, .plt.sec and .plt.got, named by callscope as objdump labels it:
# the label when it is NAME@plt, and the section's name where objdump has
# none (the lazy resolver's header, IBT's lazy entries).  A stub objdump calls
# "*ABS*+0xADDR@plt" (an IRELATIVE slot) is named after an IFUNC symbol
# at ADDR, as perf names it, and by its section when no exported one is
# there.  Prints the mismatches ("ADDRESS want WANT got GOT") and fails
# with any, or with no labelled stub at all.
plt_names_match() {
	nm -D --defined-only "$1" 2>/dev/null | awk '$2 == "i" {
		a = $1; sub(/^0+/, "", a); n = $3; sub(/@.*/, "", n); print a, n }' > plt-ifuncs.txt
	objdump -d -j .plt -j .plt.sec -j .plt.got "$1" 2>/dev/null | awk '
		/^Disassembly of section / { section = $4; sub(":$", "", section); next }
		/^[0-9a-f]+ <.*>:$/ { label = substr($2, 2, length($2) - 3); next }
		/^ +[0-9a-f]+:/ { a = $1; sub(":", "", a)
			print a, (label ~ /@plt$/ ? label : "-"), section }' > plt-want.txt
	cut -d' ' -f1 plt-want.txt | "$SYMBOLIZE" "$1" > plt-got.txt || return 1
	paste -d' ' plt-want.txt plt-got.txt | awk '
		FILENAME == "plt-ifuncs.txt" { ifunc[$1 " " $2 "@plt"] = 1; at[$1] = 1; next }
		$2 != "-" { stubs++ }
		$2 ~ /^[*]ABS[*][+]0x/ { a = $2; sub(/^[*]ABS[*][+]0x/, "", a); sub(/@plt$/, "", a)
			if ((a in at) ? !((a " " $5) in ifunc) : $5 != $3) {
				print $1, "want", ((a in at) ? "the IFUNC at " a : $3), "got", $5; bad++ }
			next }
		$2 == "-" { $2 = $3 }
		$5 != $2 { print $1, "want", $2, "got", $5; bad++ }
		END { exit !(stubs > 0 && !bad) }' plt-ifuncs.txt -
}
