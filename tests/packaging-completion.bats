# Bash completion for idrsh (completion/idrsh.bash): sourced and called
# the way bash calls it, and found by bash-completion where make install
# puts it.

setup() {
	load test_helper
}

# complete WORD... - the completions bash would offer for the command
# line "WORD...", the cursor at the end of the last word, one a line.
complete_words() {
	bash -c '
		source completion/idrsh.bash
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_idrsh idrsh "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$@"
}

@test "completion: every option idrsh --help lists, on --" {
	run complete_words idrsh --
	[ "$status" -eq 0 ]
	for opt in $(./build/idrsh --help | grep -o -- '--[a-z]*' | sort -u); do
		grep -q -- "^$opt=\?$" <<< "$output" ||
			{ echo "$opt missing from:"; echo "$output"; return 1; }
	done
}

@test "completion: a prefix narrows the options" {
	run complete_words idrsh --b
	[ "$output" = "$(printf -- '--bail\n--batch')" ]
}

@test "completion: --color= offers its values, whether bash split the = or not" {
	run complete_words idrsh --color=a
	[ "$output" = "$(printf -- '--color=auto\n--color=always')" ]
	run complete_words idrsh --color = n
	[ "$output" = never ]
}

@test "completion: file names for SCRIPT, and no options after it" {
	run complete_words idrsh examples/quick
	[ "$(sort <<< "$output")" = "$(printf 'examples/quickstart.idrsh\nexamples/quickstart.out')" ]
	run complete_words idrsh -q examples/quickstart.idrsh tests/man.b
	[ "$output" = tests/man.bats ]
	run complete_words idrsh examples/quickstart.idrsh --b
	[ -z "$output" ]
}

@test "completion: nothing for -c's and -e's text" {
	run complete_words idrsh -c ''
	[ -z "$output" ]
	run complete_words idrsh -e al
	[ -z "$output" ]
}

@test "bash-completion loads it from PREFIX/share/bash-completion/completions" {
	[ -f /usr/share/bash-completion/bash_completion ] ||
		{ echo "bash-completion is not installed"; return 1; }
	p=$BATS_TEST_TMPDIR/prefix
	run make -s install-completion PREFIX="$p"
	[ -f "$p/share/bash-completion/completions/idrsh" ]
	# bash-completion looks in $XDG_DATA_DIRS/bash-completion/completions.
	run env XDG_DATA_DIRS="$p/share" bash -c '
		source /usr/share/bash-completion/bash_completion
		__load_completion idrsh || exit 1
		complete -p idrsh'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"-F _idrsh idrsh"* ]]
}

@test "completion: --html takes a file name, and SCRIPT comes after it" {
	run complete_words idrsh --html=tests/replay/dem
	[ "$output" = "--html=tests/replay/demo.idrsh" ]
	run complete_words idrsh --html tests/replay/dem
	[ "$output" = "tests/replay/demo.idrsh" ]
	run complete_words idrsh --html out.html --b
	[ "$output" = "$(printf -- '--bail\n--batch')" ]
}
