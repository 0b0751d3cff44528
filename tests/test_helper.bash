# Shared set-up for the bats suites: run from the repository's top.
bats_require_minimum_version 1.5.0

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
export TOP
cd "$TOP" || exit 1
export NO_COLOR=1

# The first fenced block of language $1 in README.md.
readme_block() {
	awk -v lang="$1" '
		$0 == "```" lang { inside = 1; next }
		inside && /^```/ { exit }
		inside { print }' README.md
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
