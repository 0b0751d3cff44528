# The documentation: the README and the pages of doc/ it leads to.  Their
# links lead somewhere, and what they show is what the code does: each C
# block compiles (and a program runs), each Lua block runs, each idrsh
# session prints what the page says, each shell recipe of doc/ runs, and
# each `make TARGET` named is a target.  tests/build.bats checks the
# README's own examples and that no page says anything twice.

setup() {
	load test_helper
}

# The targets of the relative links ](...) in the page $1, one a line,
# without the web's (http:, https:, mailto:).
links() {
	md_prose "$1" | grep -o '](\([^)]*\))' | sed 's/^](//; s/)$//' |
		grep -v -e '^https\?:' -e '^mailto:' || true
}

# The anchors GitHub gives the headings of the page $1.
anchors() {
	awk '/^```/ { code = !code; next }
		!code && /^#+ / {
			h = tolower($0); sub(/^#+ +/, "", h)
			gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); print h
		}' "$1"
}

# "PAGE: TARGET: why" for each relative link of the pages $@ that leads
# nowhere: no such file, or no such heading in the page it names.
bad_links() {
	local page target path anchor
	for page in "$@"; do
		while read -r target; do
			path=${target%%#*}
			anchor=
			[[ "$target" == *"#"* ]] && anchor=${target#*#}
			if [ -z "$path" ]; then
				path=$page
			else
				path=$(dirname "$page")/$path
			fi
			if [ ! -e "$path" ]; then
				echo "$page: $target: no such file"
			elif [ -n "$anchor" ] && ! anchors "$path" | grep -qxF "$anchor"; then
				echo "$page: $target: no such heading"
			fi
		done < <(links "$page")
	done
}

@test "the README leads to every page of doc/, and to no page that is missing" {
	local page missing=
	for page in doc/*.md; do
		links README.md | grep -qx "$page" || missing="$missing $page"
	done
	[ -z "$missing" ] || { echo "the README does not link to:$missing"; return 1; }
	for page in $(links README.md | grep '^doc/'); do
		[ -e "${page%%#*}" ] || { echo "README.md: no $page"; return 1; }
	done
}

@test "every relative link of the README and doc/ resolves, anchors included" {
	run bad_links $DOC_PAGES
	[ -z "$output" ] || { echo "$output"; return 1; }
}

@test "the link checker finds a missing page and a missing heading" {
	mkdir "$BATS_TEST_TMPDIR/doc"
	cd "$BATS_TEST_TMPDIR"
	printf '# A\n\n## The `make test` run\n\n' > doc/a.md
	printf '[b](b.md), [a](#the-make-test-run), [x](https://x.org),\n' >> doc/a.md
	printf '[top](../README.md), [c](a.md#no-such), [d](a.md#a)\n' >> doc/a.md
	touch README.md
	run bad_links doc/a.md
	[ "$output" = "$(printf 'doc/a.md: b.md: no such file\ndoc/a.md: a.md#no-such: no such heading')" ]
}

@test "every C block of the README and doc/ compiles, and each program runs" {
	local block page n=0
	while IFS= read -r -d $'\036' block; do
		[ -n "$block" ] || continue
		page=${block%%$'\n'*}
		block=${block#*$'\n'}
		n=$((n + 1))
		src=$BATS_TEST_TMPDIR/block$n.c
		if [[ "$block" == *"int main("* || "$block" == "#include"* ]]; then
			# A program, or a file of its own (it begins with its
			# #includes): compiled as it is.
			printf '%s' "$block" > "$src"
		else
			# A fragment, as the 2004 API's retry loop: the body of a
			# function with the names it uses.
			{
				printf '#include <pthread.h>\n#include <idr.h>\n'
				printf 'static DEFINE_IDR(idr);\n'
				printf 'static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n'
				printf 'int fragment(void *ptr);\nint fragment(void *ptr)\n{\n\tint id = 0, err;\n\n'
				printf '%s' "$block"
				printf '\treturn err ? err : id;\n}\n'
			} > "$src"
		fi
		if [[ "$block" == *"int main("* ]]; then
			run cc -std=c11 -Wall -Wextra -Wpedantic -Werror -pthread \
				-Isrc -o "$src.out" "$src" build/libidr.a
		else
			run cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Isrc \
				-c -o "$src.o" "$src"
		fi
		[ "$status" -eq 0 ] || { echo "$page, C block $n:"; echo "$output"; return 1; }
		if [[ "$block" == *"int main("* ]]; then
			run "$src.out"
			[ "$status" -eq 0 ] || { echo "$page, C block $n exits $status"; return 1; }
		fi
	done < <(md_blocks c $DOC_PAGES)
	[ "$n" -ge 3 ]
}

@test "every Lua block of the README and doc/ runs" {
	local block page n=0
	while IFS= read -r -d $'\036' block; do
		[ -n "$block" ] || continue
		page=${block%%$'\n'*}
		n=$((n + 1))
		printf '%s' "${block#*$'\n'}" > "$BATS_TEST_TMPDIR/block$n.lua"
		run env LUA_CPATH_5_4='build/?.so;;' lua5.4 "$BATS_TEST_TMPDIR/block$n.lua"
		[ "$status" -eq 0 ] || { echo "$page, Lua block $n:"; echo "$output"; return 1; }
	done < <(md_blocks lua $DOC_PAGES)
	[ "$n" -ge 4 ]
}

@test "every idrsh session of the README and doc/ is what idrsh prints" {
	# A block that opens with "$ COMMAND" naming idrsh, and has no "idr> "
	# prompt (those are typed at the terminal): COMMAND's output,
	# standard error included, is the rest of the block.
	local block page cmd want got n=0
	while IFS= read -r -d $'\036' block; do
		[ -n "$block" ] || continue
		page=${block%%$'\n'*}
		block=${block#*$'\n'}
		cmd=${block%%$'\n'*}
		[[ "$cmd" == '$ '*idrsh* ]] || continue
		! grep -q '^idr> ' <<< "$block" || continue
		cmd=${cmd#'$ '}
		want=${block#*$'\n'}
		want=${want%$'\n'}
		got=$(PATH="$TOP/build:$PATH" bash -c "$cmd" 2>&1)
		[ "$got" = "$want" ] ||
			{ echo "$page: $cmd"; diff <(echo "$want") <(echo "$got"); return 1; }
		n=$((n + 1))
	done < <(md_blocks "" $DOC_PAGES)
	[ "$n" -ge 5 ]
}

@test "every shell recipe of doc/ runs, and prints what its comments say" {
	# A comment "# ... TEXT" says that TEXT is among what the recipe
	# prints.  Each runs in a folder of its own, with idrsh on the PATH.
	local block page said n=0
	while IFS= read -r -d $'\036' block; do
		[ -n "$block" ] || continue
		page=${block%%$'\n'*}
		block=${block#*$'\n'}
		n=$((n + 1))
		mkdir "$BATS_TEST_TMPDIR/sh$n"
		run bash -c "cd '$BATS_TEST_TMPDIR/sh$n' && PATH='$TOP/build':\$PATH && set -e && $block"
		[ "$status" -eq 0 ] || { echo "$page: $block"; echo "$output"; return 1; }
		while IFS= read -r said; do
			[[ "$output" == *"$said"* ]] || {
				echo "$page: no '$said' in what it printed, which ends:"
				printf '%s\n' "$output" | tail -5
				return 1
			}
		done < <(sed -n 's/.*# \.\.\. //p' <<< "$block")
	done < <(md_blocks sh doc/*.md)
	[ "$n" -ge 2 ]
}

@test "every make target the README and doc/ name is a target of the Makefile" {
	local targets t missing=
	targets=" $(make -qpRr 2>/dev/null | awk -F: '
		/^[a-zA-Z0-9][^$#\/\t=%]*:([^=]|$)/ {
			n = split($1, a, " "); for (i = 1; i <= n; i++) print a[i]
		}' | sort -u | tr '\n' ' ') "
	[[ "$targets" == *" test "* ]]
	for t in $( { md_prose $DOC_PAGES | grep -o '`make [a-z][a-z0-9-]*' |
		sed 's/^`make //'; md_blocks sh $DOC_PAGES |
		sed -n 's/^make \([a-z][a-z0-9-]*\).*/\1/p'; } | sort -u); do
		[[ "$targets" == *" $t "* ]] || missing="$missing $t"
	done
	[ -z "$missing" ] || { echo "not make targets:$missing"; return 1; }
}
