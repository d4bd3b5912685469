#!/bin/sh
# PLT stubs of shared libraries are named as a program's are: a library's
# hot loop of calls through its own PLT (lazy, and bound at load with
# -z now), sampled, shows NAME@plt in that library with no unnamed
# address of it; every stub instruction of the library and of libc (whose
# IFUNC stubs objdump calls "*ABS*+0x...@plt": named after the IFUNC, as
# perf names them) gets objdump's label (tests/symbols/symbolize).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-plt.sh"

plan 12

for v in lazy:-fcf-protection=none now:-Wl,-z,now; do
	name=${v%%:*}
	flags=${v#*:}
	mkdir "$name"
	cc -g -O2 -fno-builtin -fPIC -shared $flags -o "$name/libpltloop.so" "$PROGS/plt_lib.c"
	cc -g -O2 -o "$name/main" "$PROGS/plt_lib_main.c" -L"$name" -lpltloop -Wl,-rpath,'$ORIGIN'
	plt_names_match "$name/libpltloop.so" >&2
	ok $? "$name: every PLT instruction of the library named as objdump labels it"
	if [ "$name" = now ]; then
		readelf -d now/libpltloop.so | grep -q 'BIND_NOW'
		ok $? "now: the library is bound at load"
	fi

	limited "$CS" record --mode=sample -o "$name.data" -- "./$name/main" 100000000 \
		> out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:6550000000" "$name: the sampled program runs unharmed"
	"$CS" report -i "$name.data" --json > r.json
	stubs=$(jq '[.functions[] | select((.name == "strlen@plt" or .name == "abs@plt")
		and (.object | endswith("/libpltloop.so"))) | .self_samples] | add // 0' r.json)
	[ "$stubs" -gt 0 ]
	ok $? "$name: the report names the library's stubs ($stubs samples)"
	unnamed=$(jq -r '.functions[].name | select(startswith("libpltloop.so+0x"))' r.json)
	is "$unnamed" "" "$name: no address of the library left unnamed"
	"$CS" export -i "$name.data" -f folded > folded.txt
	grep -q ';plt_lib_loop;\(strlen\|abs\)@plt [0-9]' folded.txt
	ok $? "$name: the folded stacks end in the stubs under the library's loop"
done

libc=$(ldd ./now/main | awk '$1 ~ /^libc[.]so/ { print $3 }')
plt_names_match "$libc" >&2
ok $? "every PLT instruction of libc ($libc) named as objdump labels it"
done_testing
