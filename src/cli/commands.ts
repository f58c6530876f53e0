/**
 * The commands of adsctl as the top level knows them: a name, a one-line summary, the usage shown
 * in `adsctl --help`, and how to load the module that defines and runs the command. The top level
 * registers a stand-in per command and loads the real definition only when that command runs, so
 * `adsctl --version` and `adsctl --help` load neither the emulator nor the HTTP client
 * (docs/architecture.md lists the commands; the start-up figure is in BENCHMARKS.md).
 */
import type { LazyCommand } from './lazy-command.js';

/** Every command, in the order `adsctl --help` lists them. */
export const COMMANDS: readonly LazyCommand[] = [
  {
    name: 'validate',
    usage: '[path]',
    summary: 'check manifests offline: YAML, schema, references, money, limits (no network)',
    load: async () => {
      const { registerValidate } = await import('./validate-command.js');
      return (program, io, setExit) => registerValidate(program, setExit, io);
    },
  },
  {
    name: 'plan',
    usage: '[options] [path]',
    summary: 'show what apply would change in the live accounts',
    load: async () => (await import('./plan-command.js')).registerPlan,
  },
  {
    name: 'apply',
    usage: '[options] [path | planfile]',
    summary: 'make the live accounts match the manifests (or apply a saved plan)',
    load: async () => (await import('./apply-command.js')).registerApply,
  },
  {
    name: 'destroy',
    usage: '[options] [path]',
    summary: 'delete everything the state manages for these manifests',
    load: async () => (await import('./destroy-command.js')).registerDestroy,
  },
  {
    name: 'show',
    usage: '[options] <planfile>',
    summary: 'show a plan saved with plan --out, as text, Markdown or JSON',
    load: async () => (await import('./show-command.js')).registerShow,
  },
  {
    name: 'import',
    usage: '[options] <address> <id> [path]',
    summary: 'bind an existing object to a manifest address',
    load: async () => (await import('./import-command.js')).registerImport,
  },
  {
    name: 'generate',
    usage: '[options] [dir]',
    summary: 'write manifests from live accounts and bind the state to them',
    load: async () => (await import('./generate-command.js')).registerGenerate,
  },
  {
    name: 'state',
    usage: '<list|show|rm|mv> ...',
    summary: 'inspect and edit the state',
    load: async () => (await import('./state-command.js')).registerState,
  },
  {
    name: 'force-unlock',
    usage: '[options] <lock-id> [path]',
    summary: 'remove a state lock left by a run that is gone',
    load: async () => (await import('./state-command.js')).registerState,
  },
  {
    name: 'auth',
    usage: '<login|bearer|revoke|whoami> [options]',
    summary: 'obtain, inspect and revoke API credentials',
    load: async () => (await import('./auth-command.js')).registerAuth,
  },
  {
    name: 'api',
    usage: '[options] <method> <path> [key=value...]',
    summary: 'send one signed request to the API and print the JSON answer',
    load: async () => (await import('./api-command.js')).registerApi,
  },
  {
    name: 'insights',
    usage: 'keywords <keyword...> [options]',
    summary: 'keyword volumes and related keywords, for choosing keyword targeting',
    load: async () => (await import('./insights-command.js')).registerInsights,
  },
  {
    name: 'emulator',
    usage: '[options]',
    summary: 'run the local emulator of the advertising API',
    load: async () => {
      const { registerEmulator } = await import('./emulator-command.js');
      return (program, io, setExit) => registerEmulator(program, io, setExit);
    },
  },
  {
    name: 'completion',
    usage: '<bash|zsh|fish>',
    summary: 'print a shell completion script for bash, zsh or fish',
    // the completion script is written from this table, handed to the command (which cannot import it back)
    load: async () => {
      const { registerCompletion } = await import('./completion-command.js');
      return (program, io, setExit) => registerCompletion(program, io, setExit, COMMANDS);
    },
  },
];
