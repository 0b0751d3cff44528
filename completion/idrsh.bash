# bash completion for idrsh(1)                             -*- shell-script -*-
#
# Installed as $(PREFIX)/share/bash-completion/completions/idrsh, where
# bash-completion loads it on the first Tab after "idrsh".  It needs
# nothing from bash-completion itself, so "source" works as well.
#
# Options until the first word that is not one (idrsh stops reading
# options there, as getopt's "+" does), then file names: the SCRIPT and
# its arguments.

_idrsh_options='-c -e -i -q --bail --batch --interactive --color= --html= --json
--load= -h --help -V --version'
_idrsh_colors='auto always never'

# _idrsh_options_over WORD... - whether idrsh reads no more options after
# these words (those before the cursor, the command name left out): one of
# them is SCRIPT, the first word that is neither an option nor an
# option's argument, or "--".
_idrsh_options_over()
{
	while (($# > 0)); do
		case $1 in
		-c | -e | --html | --load) shift 2 || return 1 ;;
		=) shift 2 || return 1 ;;	# "--color" "=" "WHEN"
		-?*) [[ $1 == -- ]] && return 0; shift ;;
		*) return 0 ;;
		esac
	done
	return 1
}

_idrsh()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}

	COMPREPLY=()
	# -c's and -e's argument is idrsh or Lua text, nothing to complete.
	case $prev in
	-c | -e) return ;;
	esac
	# --color=WHEN: bash splits the word at "=" unless COMP_WORDBREAKS
	# was changed, so the value may be a word of its own.
	# --html=FILE, --html = FILE, --html FILE: a file name; --load too.
	if [[ $cur == --html=* || $cur == --load=* ]]; then
		compopt -o filenames 2>/dev/null
		local IFS=$'\n'
		COMPREPLY=($(compgen -P "${cur%%=*}=" -f -- "${cur#*=}"))
		return
	elif [[ $prev == --html || $prev == --load ||
		($prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --html) ||
		($prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --load) ]]; then
		[[ $cur == = ]] && cur=
		compopt -o filenames 2>/dev/null
		local IFS=$'\n'
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	if [[ $cur == --color=* ]]; then
		COMPREPLY=($(compgen -P --color= -W "$_idrsh_colors" -- \
			"${cur#--color=}"))
		return
	elif [[ $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --color ]]; then
		COMPREPLY=($(compgen -W "$_idrsh_colors" -- "$cur"))
		return
	elif [[ $prev == --color && $cur == = ]]; then
		COMPREPLY=($_idrsh_colors)
		return
	fi
	if [[ $cur == -* ]] &&
		! _idrsh_options_over "${COMP_WORDS[@]:1:COMP_CWORD-1}"; then
		COMPREPLY=($(compgen -W "$_idrsh_options" -- "$cur"))
		[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	compopt -o filenames 2>/dev/null
	local IFS=$'\n'
	COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _idrsh idrsh
