/**
 * Shell completion scripts for bash and zsh, written from a plain description of the command
 * tree (what follows each command: its subcommands or argument choices, and its options). The
 * scripts complete command names, subcommands, `--options` and fixed argument values, and leave
 * everything else (paths, plan files) to the shell's file completion. Pure: text in, text out.
 */

/** A word the shell may offer, with the one-line summary zsh shows beside it. */
export interface Candidate {
  word: string;
  summary: string;
}

/** What may follow one command: `key` is its path below `adsctl` (`""`, `plan`, `state mv`). */
export interface CompletionNode {
  key: string;
  /** Subcommands, or the fixed values of its first argument (`completion bash|zsh`). */
  words: Candidate[];
  /** Whether `words` are subcommands (then the next word is one of them). */
  group: boolean;
  options: Candidate[];
}

const single = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
const wordList = (candidates: readonly Candidate[]): string => candidates.map((c) => c.word).join(' ');

/** Loop over the words before the cursor: the command, and the word after it (`sub`). */
function scanWords(first: number, last: string, word: string): string[] {
  return [
    '  local cmd="" sub="" i',
    `  for ((i = ${first}; i < ${last}; i++)); do`,
    `    case "${word}" in`,
    '      -*) ;;',
    `      *) if [[ -z $cmd ]]; then cmd="${word}"; elif [[ -z $sub ]]; then sub="${word}"; fi ;;`,
    '    esac',
    '  done',
  ];
}

/** The key of the node the cursor is in: `cmd sub` for a command group, else `cmd`. */
function keyLines(nodes: readonly CompletionNode[]): string[] {
  const groups = nodes.filter((n) => n.group && n.key !== '').map((n) => n.key);
  return [
    '  local key="$cmd"',
    ...(groups.length === 0 ? [] : [`  case "$cmd" in ${groups.join('|')}) [[ -n $sub ]] && key="$cmd $sub" ;; esac`]),
  ];
}

/** The bash script: `source <(adsctl completion bash)`, or save it in bash-completion's directory. */
export function bashScript(nodes: readonly CompletionNode[]): string {
  const cases = nodes.map((n) => `    ${single(n.key)}) words=${single(n.group || n.key === '' ? wordList(n.words) : '')}; values=${single(n.group ? '' : wordList(n.words))}; options=${single(wordList(n.options))} ;;`);
  return [
    '# bash completion for adsctl: source <(adsctl completion bash)',
    '_adsctl() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}"',
    ...scanWords(1, 'COMP_CWORD', '${COMP_WORDS[i]}'),
    ...keyLines(nodes),
    '  local words="" values="" options=""',
    '  case "$key" in',
    ...cases,
    '  esac',
    '  [[ -n $values && -z $sub ]] && words="$values"',
    '  [[ -n $cmd && -n $sub && $key == "$cmd" ]] && words=""',
    '  if [[ $cur == -* ]]; then',
    '    COMPREPLY=($(compgen -W "$options" -- "$cur"))',
    '  elif [[ -n $words ]]; then',
    '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '  fi',
    '}',
    'complete -o default -F _adsctl adsctl',
    '',
  ].join('\n');
}

const described = (candidates: readonly Candidate[]): string => candidates.map((c) => single(`${c.word.replace(/:/g, '\\:')}:${c.summary}`)).join(' ');

/** The zsh script: `source <(adsctl completion zsh)` after compinit, or save it as `_adsctl` on `$fpath`. */
export function zshScript(nodes: readonly CompletionNode[]): string {
  const cases = nodes.map((n) => `    ${single(n.key)}) cands=(${n.group || n.key === '' ? described(n.words) : ''}); vals=(${n.group ? '' : described(n.words)}); opts=(${described(n.options)}) ;;`);
  return [
    '#compdef adsctl',
    '# zsh completion for adsctl: source <(adsctl completion zsh)',
    '_adsctl() {',
    ...scanWords(2, 'CURRENT', '${words[i]}'),
    ...keyLines(nodes),
    '  local -a cands vals opts',
    '  case "$key" in',
    ...cases,
    '  esac',
    '  (( ${#vals} )) && [[ -z $sub ]] && cands=($vals)',
    '  [[ -n $cmd && -n $sub && $key == "$cmd" ]] && cands=()',
    '  if [[ $PREFIX == -* ]]; then',
    "    _describe -t options 'option' opts",
    '  elif (( ${#cands} )); then',
    "    _describe -t commands 'command' cands",
    '  else',
    '    _files',
    '  fi',
    '}',
    'if [[ "${funcstack[1]}" == _adsctl ]]; then _adsctl "$@"; else compdef _adsctl adsctl; fi',
    '',
  ].join('\n');
}
