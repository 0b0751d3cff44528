# Shared set-up for the bats suites: run from the repository's top.
bats_require_minimum_version 1.5.0

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
export TOP
cd "$TOP" || exit 1
export NO_COLOR=1
# The user's state (the lessons done: a lesson run to a full score is
# recorded) is the test's own, never the real ~/.local/state.
export XDG_STATE_HOME="${BATS_TEST_TMPDIR:-${BATS_RUN_TMPDIR:-${TMPDIR:-/tmp}}}/state"

# The first fenced block of language $1 in README.md (or in the page $2).
readme_block() {
	awk -v lang="$1" '
		$0 == "```" lang { inside = 1; next }
		inside && /^```/ { exit }
		inside { print }' "${2:-README.md}"
}

# The pages of the documentation: the README and doc/.
DOC_PAGES="README.md $(echo doc/*.md)"

# Every fenced block of language $1 ("" for a plain fence) in the pages
# $2..., each as "\036PAGE", a newline and its lines, with a last \036:
# read them with `while IFS= read -r -d $'\036' block`.
md_blocks() {
	local lang=$1
	shift
	awk -v lang="$lang" '
		FNR == 1 { state = 0 }
		state == 0 && $0 == "```" lang { state = 1; printf "\036%s\n", FILENAME; next }
		state == 0 && /^```/ { state = 2; next }
		state != 0 && /^```$/ { state = 0; next }
		state == 1 { print }
		END { printf "\036" }' "$@"
}

# The prose of the pages $@ (fenced blocks left out), one page a line.
md_prose() {
	awk 'FNR == 1 { if (NR > 1) print ""; code = 0 }
		/^```/ { code = !code; next }
		!code { printf "%s ", $0 }
		END { print "" }' "$@"
}

# For the idrsh suites: assertions, and a HOME of the test's own so that
# history lands in the test's temporary folder.
idrsh_setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	export HOME="$BATS_TEST_TMPDIR"
	unset XDG_STATE_HOME IDRSH_HISTORY
	IDRSH=${IDRSH:-./build/idrsh}
}
