#!/bin/sh
# Objects named in --patch and loaded later with dlopen are patched as the
# dynamic loader maps them, before their constructors, whoever calls
# dlopen and with or without library-call tracing, while other threads
# run in objects patched at start: every call counted exactly.  Where the
# loader cannot be followed (CALLSCOPE_NO_LOADER_HOOK), they are patched
# when dlopen returns, int3 first, while their own threads run in them.
. "$(dirname "$0")/lib.sh"

plan 14
cc -O2 -g -shared -fPIC -DBUSY_LOADED -o libbusy_a.so "$PROGS/patch_busy_lib.c"
cc -O2 -g -shared -fPIC -o libbusy_b.so "$PROGS/patch_busy_lib.c"
cc -O2 -g -o busy "$PROGS/patch_busy.c" -L. -lbusy_a -lpthread -ldl
want_busy=$(LD_LIBRARY_PATH=$WORK ./busy 2> /dev/null)

counts() {
	"$CS" report -i "$1" --json |
		jq -r '.functions[] | select(.name | test("^[ab]_")) | "\(.name)=\(.calls)"' | sort |
		tr '\n' ' '
}

# The program itself is not patched: only the libraries are named.
for libcall in "" --no-libcall; do
	got=$(LD_LIBRARY_PATH=$WORK limited "$CS" record --patch=libbusy_a,libbusy_b $libcall \
		-o busy.data -- ./busy 2> busy.err)
	is "$got" "$want_busy" "busy ${libcall:-with library calls}: output unchanged"
	r=$(sed -n 's/^rounds //p' busy.err)
	is "$(counts busy.data)" \
		"a_leaf=$((r * 10)) a_work=$r b_leaf=5003 b_start=1 b_work=51 " \
		"busy ${libcall:-with library calls}: calls counted exactly, the loaded object's constructor too, while a thread ran in the other"
done
is "$(grep -v '^rounds' busy.err | grep -vc '^callscope: \(patching\|recorded\)')" 0 \
	"busy --no-libcall: nothing said but what was done"

# W^X: the object loaded later is written as at start, never writable
# and executable at once
if command -v strace > /dev/null; then
	LD_LIBRARY_PATH=$WORK limited strace -f -o st.txt -e trace=mprotect,mmap \
		"$CS" record --patch=libbusy_a,libbusy_b -o wx.data -- ./busy > /dev/null 2>&1
	is "$(grep -c 'PROT_WRITE|PROT_EXEC' st.txt)/$(counts wx.data | grep -c b_work=51)" "0/1" \
		"busy: nothing writable and executable while the loaded object is patched"
else
	skip "strace not installed"
fi

# Not following the loader: the library's own thread runs in it when
# dlopen returns, and its jumps are written while it does.
cc -O2 -g -shared -fPIC -o libpatch_plugin.so "$PROGS/patch_plugin.c" -lpthread
cc -O2 -g -o dl "$PROGS/patch_dlopen.c" -ldl
want=$(LD_LIBRARY_PATH=$WORK ./dl)
fails=0
for i in 1 2 3 4 5; do
	got=$(LD_LIBRARY_PATH=$WORK CALLSCOPE_NO_LOADER_HOOK=1 limited "$CS" record \
		--patch=dl,libpatch_plugin -o dl.data -- ./dl 2> dl.err)
	[ "$got" = "$want" ] && [ "$(calls_of dl.data plugin_once)" = 7 ] || fails=$((fails + 1))
done
is "$fails" 0 "dlopen return: 5 runs patched while a thread runs in the library, all right"
ok "$([ "$(calls_of dl.data plugin_leaf)" -gt 7000 ]; echo $?)" \
	"dlopen return: the library's thread is traced from then on"
is "$(calls_of dl.data plugin_start)" 0 "dlopen return: its constructor ran before, untraced"
# the same followed: patched before its constructor
LD_LIBRARY_PATH=$WORK limited "$CS" record --patch=dl,libpatch_plugin -o dl.data -- ./dl > /dev/null 2>&1
is "$(calls_of dl.data plugin_start)/$(calls_of dl.data plugin_once)" "1/7" \
	"loader followed: the constructor traced too"

# Neither way: one line says so, the program runs untraced in the library.
got=$(LD_LIBRARY_PATH=$WORK CALLSCOPE_NO_LOADER_HOOK=1 limited "$CS" record --no-libcall \
	--patch=libbusy_a,libbusy_b -o none.data -- ./busy 2> none.err)
is "$got" "$want_busy" "not followed, --no-libcall: output unchanged"
is "$(grep -c 'objects planned for dlopen will run untraced: .*(--no-libcall)' none.err)/$(calls_of none.data b_work)" \
	"1/0" "not followed, --no-libcall: said in one line, the loaded object untraced"

# Code that may not be made writable (SELinux without execmod; here a
# seccomp filter answers EACCES, which keeps threads from starting too):
# each library's refusal in one line with the remedy, the program unchanged.
cc -O2 -o deny "$PROGS/deny_code_writes.c"
got=$(LD_LIBRARY_PATH=$WORK limited ./deny "$CS" record --patch=libbusy_a,libbusy_b -o deny.data \
	-- ./busy 2> deny.err)
is "$got" "$want_busy" "code not writable: output unchanged"
is "$(grep -c "cannot make the code of '.*libbusy_[ab].so' writable to patch it (Permission denied: SELinux" deny.err)/$(calls_of deny.data b_work)" \
	"2/0" "code not writable: at start and at dlopen, said with the remedy, nothing traced"
done_testing
