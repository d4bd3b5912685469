#!/bin/sh
# Tracing library calls leaves the program's arithmetic alone: a function
# whose address the program takes from a GOT slot is not pointed at a
# stub, so the address equals the one the dynamic linker gives (a callback
# compared with dlsym's answer, a table of handlers), in every binding
# shape; calls through slots whose address is never taken are still
# traced (-fno-plt, the GOT too).
. "$(dirname "$0")/lib.sh"

plan 10
LIMIT=30
n=0
for flags in "-pg" "-pg -fno-plt" "-pg -no-pie" "-pg -Wl,-z,now" "-finstrument-functions -fno-plt"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	cc -g -O2 $flags -o "a$n" "$PROGS/libcall_address.c" -ldl
	out=$(limited "$CS" record -o "a$n.data" -- "./a$n" 1000 2> /dev/null)
	is "$(echo $out)" "strcmp same puts same called" "$flags: the addresses taken are the functions'"
	is "$(calls_of "a$n.data" strlen)/$(calls_of "a$n.data" printf)" "1000/2" \
		"$flags: calls through slots never read otherwise are traced"
done
