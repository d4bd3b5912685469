#!/bin/sh
# bash completion: commands and options as the CLI's --help lists them,
# option values, recordings, and function names read from the recording
# the command line names.
. "$(dirname "$0")/lib.sh"

command -v bash > /dev/null || { echo "1..0 # SKIP bash is not installed"; exit 0; }
plan 7

build_prog basic prog -pg -O1
limited "$CS" record -o run.data -- ./prog > /dev/null 2>&1
touch other.data notes.txt

# complete WORDS...: what bash offers for the last word (may be empty).
complete_line() {
	bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_callscope
		printf "%s\n" "${COMPREPLY[@]}" | sort' complete "$ROOT/scripts/completion.bash" "$@"
}

is "$(complete_line "$CS" re | tr '\n' ' ')" "record replay report " "command names"
is "$(complete_line "$CS" report --so | tr '\n' ' ')" "--sort " "a command's options from its --help"
complete_line "$CS" tree -i run.data --fo | grep -qx -- --focus
ok $? "tree's --focus is offered"
is "$(complete_line "$CS" export --format p | tr '\n' ' ')" "pprof prf " "option values"
is "$(complete_line "$CS" diff "" | grep -v / | tr '\n' ' ')" "other.data run.data " \
	"diff's arguments: recordings, not other files"
expected=$("$CS" report -i run.data --json | jq -r '.functions[].name' | sort -u)
[ -n "$expected" ] || expected="(no functions in run.data)"
is "$(complete_line "$CS" tree -i run.data --focus "")" "$expected" \
	"--focus: the functions of the recording named by -i"
is "$(complete_line "$CS" record -o x.data -- ./pro)" "./prog" "record -- completes the program"
done_testing
