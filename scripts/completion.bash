# bash completion for callscope (installed as
# share/bash-completion/completions/callscope).
#
# The commands and each command's options are read from callscope's own
# --help, so they are those of the callscope being completed.  Recording
# files are completed for -i/--input, --base and the files of merge and
# diff; function names come from the recording the command line names (or
# callscope.data), read by 'callscope report' under a two-second limit.

# The commands, from the table 'callscope --help' prints.
_callscope_commands()
{
	"$1" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'
}

# Every option COMMAND's --help mentions.
_callscope_options()
{
	"$1" "$2" --help 2>/dev/null |
		grep -oE '(^|[][ ,|])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[][ ,|]//' | sort -u
}

# The functions of the recording named by -i/--input on the line (default
# callscope.data), as 'callscope report' names them.
_callscope_functions()
{
	local cs=$1 data=callscope.data i
	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		case ${COMP_WORDS[i]} in
		-i | --input) data=${COMP_WORDS[i + 1]} ;;
		--input=*) data=${COMP_WORDS[i]#--input=} ;;
		esac
	done
	[[ -r $data ]] || return
	timeout 2 "$cs" report -i "$data" --json 2>/dev/null |
		grep -oE '"name":"[^"]*"' | sed 's/^"name":"//; s/"$//' | sort -u
}

# Recordings (callscope data and CodeScape .prf files) and directories.
_callscope_recordings()
{
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -X '!*.data' -- "$1") $(compgen -f -X '!*.prf' -- "$1")
		$(compgen -d -- "$1"))
}

_callscope()
{
	local cs=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]} cmd="" i
	COMPREPLY=()

	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(_callscope_commands "$cs") --help --version" -- "$cur"))
		return
	fi

	# record -- PROG ARGS: complete the program, then its own arguments
	if [[ $cmd == record ]]; then
		for ((i = 2; i < COMP_CWORD; i++)); do
			if [[ ${COMP_WORDS[i]} == -- ]]; then
				if ((COMP_CWORD == i + 1)); then
					compopt -o filenames 2>/dev/null
					COMPREPLY=($(compgen -c -- "$cur"))
				else
					compopt -o default 2>/dev/null
				fi
				return
			fi
		done
	fi

	local values=""
	case $prev in
	-i | --input | --base) _callscope_recordings "$cur"; return ;;
	-o | --output | --map | --stdin | --binary)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-f | --focus | --filter | --histogram)
		if [[ $cmd != export || $prev != -f ]]; then
			COMPREPLY=($(compgen -W "$(_callscope_functions "$cs")" -- "$cur"))
			return
		fi ;;
	esac
	case $cmd:$prev in
	export:-f | export:--format) values="gmon callgrind pprof chrome folded prf" ;;
	export:--value) values="self calls" ;;
	record:--mode) values="trace sample both flight count" ;;
	record:--clock) values="tsc mono" ;;
	record:--stack) values="fp dwarf" ;;
	record:--sample-clock) values="cpu wall" ;;
	record:--sample-source) values="perf timer" ;;
	record:-e | record:--events)
		values=$("$cs" list 2>/dev/null | awk 'NR > 1 { print $1 }') ;;
	report:-s | report:--sort) values="self total calls avg max name" ;;
	tree:-s | tree:--sort) values="total self calls name" ;;
	*:--signal-filter) values="separate exclude none" ;;
	optimize:--algorithm) values="cache-sort cache-sort-callers dense-chains c3 cph pettis-hansen executed" ;;
	optimize:--weight) values="calls time samples mixed" ;;
	esac
	if [[ -n $values ]]; then
		COMPREPLY=($(compgen -W "$values" -- "$cur"))
		return
	fi

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_callscope_options "$cs" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	merge | diff) _callscope_recordings "$cur" ;;
	annotate) COMPREPLY=($(compgen -W "$(_callscope_functions "$cs")" -- "$cur")) ;;
	live | top)
		if [[ $prev == "$cmd" ]]; then
			local pids
			pids=$("$cs" live list 2>/dev/null | awk 'NR > 1 { print $1 }')
			[[ $cmd == live ]] && pids="list $pids"
			COMPREPLY=($(compgen -W "$pids" -- "$cur"))
		elif [[ $cmd == live && $prev =~ ^[0-9]+$ ]]; then
			COMPREPLY=($(compgen -W "status start stop flush reset snapshot" -- "$cur"))
		fi ;;
	*)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}

complete -F _callscope callscope
