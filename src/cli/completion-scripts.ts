/**
 * Shell completion scripts for bash, zsh and fish, written from a plain description of the
 * command tree (what follows each command: its subcommands or argument choices, and its options).
 * The scripts complete command names, subcommands, `--options`, fixed argument values, and
 * resource addresses where a command takes one (asked of `adsctl completion addresses`, which
 * reads the manifests and state of the current directory); everything else (paths, plan files)
 * is left to the shell's file completion. They complete `npx adsctl ...` too, for a clone after
 * `npm ci`, where adsctl is not on PATH: registered for `npx` when npx has no completion of its
 * own, they complete the words after `npx [options] adsctl` as adsctl's, and ask the adsctl that
 * wrote them for the addresses (`node <clone>/bin/adsctl.js`: what `npx adsctl` runs there, without
 * npx's start-up), or `npx --no adsctl` once that file is gone. Pure: text in, text out.
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
  /** How many leading arguments are resource addresses (`state mv`: 2); -1 when every one is (`state rm`). */
  addressArguments: number;
  /** The options whose value is an address (`--target`). */
  addressOptions: string[];
  /** The options that take a value, whose value is not an argument. */
  valueOptions: string[];
}

/** The command a script runs for the addresses: it prints one a line. */
const ADDRESSES = 'completion addresses';

/** What a script knows of the adsctl that wrote it. */
export interface ScriptSource {
  /** Its entry point (`bin/adsctl.js`, absolute): run with node for `npx adsctl`'s addresses. */
  entry: string;
}

/** Shell lines that set `run` to the command for the addresses when adsctl was typed as `npx adsctl` (bash and zsh alike). */
const viaNpx = (source: ScriptSource, indent: string): string =>
  `${indent}if [[ -f ${single(source.entry)} ]]; then run=(node ${single(source.entry)}); else run=(npx --no adsctl); fi`;

/** Single-dash spellings too: `-target` is read as `--target` (usage.ts). */
const spellings = (options: readonly string[]): string[] => options.flatMap((o) => [o, o.slice(1)]);

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

/**
 * Counts the arguments after the command's key (`n`), skipping options and their values; `at`
 * is the first word after `adsctl`.
 */
function countArguments(at: number, last: string, word: string): string[] {
  return [
    '  local n=0 seen=0 depth=1 skip="" w',
    '  [[ $key == *" "* ]] && depth=2',
    `  for ((i = ${at}; i < ${last}; i++)); do`,
    `    w="${word}"`,
    '    if [[ -n $skip ]]; then skip=""; continue; fi',
    '    case "$w" in',
    '      -*=*) ;;',
    '      -*) [[ " $valopts " == *" $w "* ]] && skip=1 ;;',
    '      *) if ((seen < depth)); then ((seen++)); else ((n++)); fi ;;',
    '    esac',
    '  done',
  ];
}

/** The per-node address settings, as shell assignments. */
const addressSettings = (n: CompletionNode): string =>
  `addrargs=${n.addressArguments === 0 ? "''" : String(n.addressArguments)}; addropts=${single(spellings(n.addressOptions).join(' '))}; valopts=${single(spellings(n.valueOptions).join(' '))}`;

/** The bash script: `source <(adsctl completion bash)` (or `npx adsctl`), or save it in bash-completion's directory. */
export function bashScript(nodes: readonly CompletionNode[], source: ScriptSource): string {
  const cases = nodes.map((n) => `    ${single(n.key)}) words=${single(n.group || n.key === '' ? wordList(n.words) : '')}; values=${single(n.group ? '' : wordList(n.words))}; options=${single(wordList(n.options))}; ${addressSettings(n)} ;;`);
  return [
    '# bash completion for adsctl: source <(adsctl completion bash), or in a clone after npm ci: source <(npx adsctl completion bash)',
    '_adsctl() {',
    '  local -a run=("${COMP_WORDS[0]}")',
    '  if [[ ${COMP_WORDS[0]##*/} == npx ]]; then',
    "    # `npx [options] adsctl ...`: the words from adsctl on, as if adsctl were typed",
    '    local at=1',
    '    while ((at < COMP_CWORD)) && [[ ${COMP_WORDS[at]} == -* ]]; do ((at++)); done',
    '    ((at < COMP_CWORD)) && [[ ${COMP_WORDS[at]} == adsctl ]] || return 0',
    '    local -a COMP_WORDS=("${COMP_WORDS[@]:at}")',
    '    local COMP_CWORD=$((COMP_CWORD - at))',
    viaNpx(source, '    '),
    '  fi',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev=""',
    '  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    ...scanWords(1, 'COMP_CWORD', '${COMP_WORDS[i]}'),
    ...keyLines(nodes),
    '  local words="" values="" options="" addrargs="" addropts="" valopts=""',
    '  case "$key" in',
    ...cases,
    '  esac',
    ...countArguments(1, 'COMP_CWORD', '${COMP_WORDS[i]}'),
    '  if [[ $cur != -* ]] && { [[ -n $prev && " $addropts " == *" $prev "* ]] || { [[ -n $addrargs && " $valopts " != *" $prev "* ]] && ((addrargs < 0 || n < addrargs)); }; }; then',
    '    local a',
    '    COMPREPLY=()',
    `    while IFS= read -r a; do [[ $a == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$a")"); done < <("\${run[@]}" ${ADDRESSES} 2>/dev/null)`,
    '    return',
    '  fi',
    '  [[ -n $values && -z $sub ]] && words="$values"',
    '  [[ -n $cmd && -n $sub && $key == "$cmd" ]] && words=""',
    '  if [[ $cur == -* ]]; then',
    '    COMPREPLY=($(compgen -W "$options" -- "$cur"))',
    '  elif [[ -n $words ]]; then',
    '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '  fi',
    '}',
    'complete -o default -F _adsctl adsctl',
    "# `npx adsctl`, where adsctl is not on PATH (a clone after npm ci); npx's own completion, if it has one, is kept",
    'complete -p npx &>/dev/null || complete -o default -F _adsctl npx',
    '',
  ].join('\n');
}

const described = (candidates: readonly Candidate[]): string => candidates.map((c) => single(`${c.word.replace(/:/g, '\\:')}:${c.summary}`)).join(' ');

/** The zsh script: `source <(adsctl completion zsh)` after compinit, or save it as `_adsctl` on `$fpath`. */
export function zshScript(nodes: readonly CompletionNode[], source: ScriptSource): string {
  const cases = nodes.map((n) => `    ${single(n.key)}) cands=(${n.group || n.key === '' ? described(n.words) : ''}); vals=(${n.group ? '' : described(n.words)}); opts=(${described(n.options)}); ${addressSettings(n)} ;;`);
  return [
    '#compdef adsctl',
    '# zsh completion for adsctl: source <(adsctl completion zsh), or in a clone after npm ci: source <(npx adsctl completion zsh)',
    '_adsctl() {',
    '  local -a run; run=(${words[1]})',
    '  if [[ ${words[1]:t} == npx ]]; then',
    "    # `npx [options] adsctl ...`: the words from adsctl on, as if adsctl were typed",
    '    local at=2',
    '    while (( at < CURRENT )) && [[ ${words[at]} == -* ]]; do (( at++ )); done',
    '    if ! (( at < CURRENT )) || [[ ${words[at]} != adsctl ]]; then _files; return; fi',
    '    words=("${(@)words[at,-1]}")',
    '    (( CURRENT -= at - 1 ))',
    viaNpx(source, '    '),
    '  fi',
    ...scanWords(2, 'CURRENT', '${words[i]}'),
    ...keyLines(nodes),
    '  local -a cands vals opts',
    '  local addrargs="" addropts="" valopts="" prev="${words[CURRENT-1]}"',
    '  case "$key" in',
    ...cases,
    '  esac',
    ...countArguments(2, 'CURRENT', '${words[i]}'),
    '  if [[ $PREFIX != -* ]] && { [[ " $addropts " == *" $prev "* ]] || { [[ -n $addrargs && " $valopts " != *" $prev "* ]] && ((addrargs < 0 || n < addrargs)); }; }; then',
    `    local -a addrs; addrs=(\${(f)"$(\${run[@]} ${ADDRESSES} 2>/dev/null)"})`,
    "    (( ${#addrs} )) && compadd -a addrs",
    '    return',
    '  fi',
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
    "# sourced, it completes `npx adsctl` too (a clone after npm ci), unless npx has a completion of its own",
    'if [[ "${funcstack[1]}" == _adsctl ]]; then _adsctl "$@"; else compdef _adsctl adsctl; (( $+_comps[npx] )) || compdef _adsctl npx; fi',
    '',
  ].join('\n');
}

const fishQuote = single;
/** A word inside a fish condition (keys and option names hold no quote or `$`). */
const inner = (text: string): string => `"${text}"`;

/**
 * The fish script: `adsctl completion fish | source`, or save it as
 * ~/.config/fish/completions/adsctl.fish (then `npx adsctl` completes once adsctl's completions
 * are loaded; sourcing loads them at once).
 */
export function fishScript(nodes: readonly CompletionNode[], source: ScriptSource): string {
  const lines = [
    '# fish completion for adsctl: adsctl completion fish | source, or in a clone after npm ci: npx adsctl completion fish | source',
    '# the words after `adsctl` that are not options: the command, then its subcommand',
    'function __adsctl_path',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    string match -v -- "-*" $words',
    'end',
    '# whether the command line is at `key` (a command path below adsctl) and nothing further',
    'function __adsctl_at',
    '    set -l path (__adsctl_path)',
    '    set -l key (string split " " -- $argv[1])',
    '    test "$argv[1]" = ""; and set key',
    '    test (count $path) -ge (count $key); or return 1',
    '    for i in (seq (count $key))',
    '        test "$path[$i]" = "$key[$i]"; or return 1',
    '    end',
    '    test (count $argv) -lt 2; and return 0',
    '    # argv[2]: how many arguments may follow (-1 for any), argv[3]: options whose value is not one',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l n 0',
    '    set -l seen 0',
    '    set -l skip 0',
    '    set -l valopts (string split " " -- $argv[3])',
    '    for w in $words',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $w',
    '            case "-*=*"',
    '            case "-*"',
    '                contains -- $w $valopts; and set skip 1',
    '            case "*"',
    '                if test $seen -lt (count $key)',
    '                    set seen (math $seen + 1)',
    '                else',
    '                    set n (math $n + 1)',
    '                end',
    '        end',
    '    end',
    '    test $skip -eq 0; or return 1',
    '    test $argv[2] -lt 0; or test $n -lt $argv[2]',
    'end',
    '# whether the word before the cursor is one of the options given (whose value is an address)',
    'function __adsctl_after',
    '    set -l words (commandline -opc)',
    '    contains -- $words[-1] $argv',
    'end',
    `function __adsctl_addresses`,
    '    if set -q __adsctl_via_npx',
    `        if test -f ${fishQuote(source.entry)}`,
    `            node ${fishQuote(source.entry)} ${ADDRESSES} 2>/dev/null`,
    '        else',
    `            npx --no adsctl ${ADDRESSES} 2>/dev/null`,
    '        end',
    '        return',
    '    end',
    `    set -l words (commandline -opc)`,
    `    $words[1] ${ADDRESSES} 2>/dev/null`,
    'end',
    '# `npx [options] adsctl ...` (a clone after npm ci, adsctl not on PATH): completed as adsctl',
    'function __adsctl_npx',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    for w in $words',
    '        switch $w',
    '            case "-*"',
    '            case adsctl',
    '                return 0',
    '            case "*"',
    '                return 1',
    '        end',
    '    end',
    '    return 1',
    'end',
    'function __adsctl_npx_complete',
    '    set -g __adsctl_via_npx 1',
    "    complete -C (string replace -r -- '^\\s*npx(\\s+-\\S*)*\\s+adsctl' 'adsctl' (commandline -cp))",
    '    set -e __adsctl_via_npx',
    'end',
    "complete -c npx -n '__adsctl_npx' -f -a '(__adsctl_npx_complete)'",
    'complete -c adsctl -f',
  ];
  for (const n of nodes) {
    const at = `__adsctl_at ${inner(n.key)}`;
    const exact = `${at} 1`;
    for (const w of n.group || n.key === '' ? n.words : []) lines.push(`complete -c adsctl -n ${fishQuote(`${exact} ""`)} -a ${fishQuote(w.word)} -d ${fishQuote(w.summary)}`);
    if (!n.group && n.key !== '') for (const w of n.words) lines.push(`complete -c adsctl -n ${fishQuote(`${at} 1 ""`)} -a ${fishQuote(w.word)}`);
    for (const o of n.options) lines.push(`complete -c adsctl -n ${fishQuote(at)} -l ${fishQuote(o.word.replace(/^--/, ''))} -d ${fishQuote(o.summary)}`);
    if (n.addressArguments !== 0) lines.push(`complete -c adsctl -n ${fishQuote(`${at} ${n.addressArguments} ${inner(spellings(n.valueOptions).join(' '))}`)} -a '(__adsctl_addresses)'`);
    if (n.addressOptions.length > 0) lines.push(`complete -c adsctl -n ${fishQuote(`${at}; and __adsctl_after ${spellings(n.addressOptions).join(' ')}`)} -a '(__adsctl_addresses)'`);
    if (!n.group && n.key !== '' && n.words.length === 0) lines.push(`complete -c adsctl -n ${fishQuote(at)} -F`);
  }
  return `${lines.join('\n')}\n`;
}
