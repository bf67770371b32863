# bash completion for rockcreek's tools: rck, rccerun, rckcc, rckc++,
# rckmpicc, rckmpiexec. The options come from each tool's own --help at
# completion time (one source: the help text), so they never drift.
# Installed as share/bash-completion/completions/rck (and links for the
# other names); in a build tree: source tools/rck-completion.bash.

# The options a --help text names (words that start with - or --).
_rck_opts_from_help() {
    "$@" --help 2>/dev/null |
        grep -oE '(^|[[:space:],[(|])--?[A-Za-z][-A-Za-z0-9:_]*' |
        sed -E 's/^[[:space:],[(|]+//' | sort -u
}

_rck() {
    local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[0]} sub
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ] && [ "${cmd##*/}" = rck ]; then
        COMPREPLY=($(compgen -W "run explore config report backends --help --version" \
            -- "$cur"))
        return 0
    fi
    case "$cur" in
    -*)
        if [ "${cmd##*/}" = rck ]; then
            sub=${COMP_WORDS[1]}
            COMPREPLY=($(compgen -W "$(_rck_opts_from_help "$cmd" "$sub")" \
                -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_rck_opts_from_help "$cmd")" \
                -- "$cur"))
        fi
        ;;
    *)
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
    esac
    return 0
}
complete -o filenames -F _rck rck rccerun rckcc rckc++ rckmpicc rckmpiexec
