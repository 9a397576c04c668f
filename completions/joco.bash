# bash completion for joco's tools (installed as share/bash-completion/completions/joco-<tool>, one
# copy per tool, which bash-completion loads on first use). Options and their choices come from the
# tool's own --help, so completion never lags behind the tool; everything else completes as a file
# name (models, trajectories, NAME.h5:/group).


# _joco_help TOOL: prints TOOL --help, asking the tool once per shell.
_joco_help() {
  local key=${1//[^A-Za-z0-9]/_}
  local var="_joco_help_${key}"
  if [[ -z ${!var+set} ]]; then
    printf -v "$var" '%s' "$("$1" --help 2>/dev/null)"
  fi
  printf '%s\n' "${!var}"
}

_joco_complete() {
  local cur prev help
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  help=$(_joco_help "${COMP_WORDS[0]}")

  # An option whose value is one of a set ("--print TEXT:{json,text}"): offer the set.
  if [[ $prev == -* ]]; then
    local line choices
    line=$(grep -E -- "(^|[ ,])${prev}([ ,]|$)" <<<"$help" | head -1)
    if [[ $line =~ \{([^}]*)\} ]]; then
      choices=${BASH_REMATCH[1]//,/ }
      mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
      return
    fi
  fi
  if [[ $cur == -* ]]; then
    local options
    options=$(grep -oE -- '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' <<<"$help" | tr -d ' ,' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  compopt -o filenames 2>/dev/null
}

complete -F _joco_complete joco-compile joco-urdf2mjcf joco-simulate joco-inverse joco-fwdinv-check \
  joco-derivatives joco-profile joco-ik joco-view
