/**
 * `adsctl api METHOD PATH [KEY=VALUE...] [--data JSON]`: one signed request to the endpoint and
 * with the credentials adsctl would use, the JSON answer on stdout (the `twurl` habit). The
 * endpoint is a plan's (api-target.ts); the credentials are the endpoint's own for `local`, else
 * the environment's or those `adsctl auth login` stored, or with `--as` those of one of the
 * emulator's seeded users, logged in for this request. Signing, retries, rate limits and the
 * `--debug` trace are the one client's (src/api/client.ts).
 *
 * Exit 0 for a 2xx answer. Anything else is exit 1 with nothing on stdout: a problem with the
 * arguments is one line and nothing is opened or sent; an error answer of the service is its
 * error envelope on stderr, then one line naming the request and the status.
 */
import { readFileSync } from 'node:fs';
import { Argument, Option, type Command } from 'commander';
import { endpointSetting } from '../api/endpoint-choice.js';
import type { OAuthCredentials } from '../api/signer.js';
import { noCredentials, runHints } from '../engine/accounts.js';
import { sendByHand, type HandRun } from '../engine/by-hand.js';
import { runFailure } from '../engine/failure.js';
import { loginSeededUser } from '../engine/oauth-steps.js';
import { API_METHODS, parseHandRequest, type HandRequest } from './api-request.js';
import { apiTarget } from './api-target.js';
import { consumerFrom, userCredentialsFrom } from './credentials.js';
import { openEndpoint, type OpenEndpoint } from './endpoint.js';
import type { Io, SetExit } from './io.js';
import { parseDuration } from './run-options.js';
import { requestTimeoutFromEnv } from './run-env.js';
import { waitNotices } from './wait-notices.js';

interface ApiFlags {
  data?: string;
  as?: string;
  endpoint?: string;
  manifests: string;
  lockTimeout: number;
  connectTimeout: number;
  debug?: boolean;
}

/** A screen name as the service spells them, with or without its `@`. */
const SCREEN_NAME = /^@?([A-Za-z0-9_]{1,15})$/;

/** The text of `--data`: as given, or read from the file `@FILE` names (`@-`: stdin); the one-line problem otherwise. */
function dataText(data: string | undefined): { text?: string } | { problem: string } {
  if (data === undefined || !data.startsWith('@')) return data === undefined ? {} : { text: data };
  const file = data.slice(1);
  try {
    return { text: readFileSync(file === '-' ? 0 : file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: `--data ${data}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : `cannot be read (${code ?? 'error'})`}` };
  }
}

/** The request and the seeded user of `--as`, checked before anything is opened; the one-line problem otherwise. */
function checkedArguments(method: string, path: string, pairs: readonly string[], flags: ApiFlags): { request: HandRequest; as?: string } | { problem: string } {
  const as = flags.as === undefined ? undefined : SCREEN_NAME.exec(flags.as)?.[1];
  if (flags.as !== undefined && as === undefined) return { problem: `--as ${JSON.stringify(flags.as)} is not a screen name (letters, digits and _, up to 15)` };
  const data = dataText(flags.data);
  if ('problem' in data) return data;
  const parsed = parseHandRequest({ method, path, pairs, ...(data.text === undefined ? {} : { data: data.text }) });
  if ('problem' in parsed) return parsed;
  return { request: parsed.request, ...(as === undefined ? {} : { as }) };
}

/** A failure's description on one line, as this command prints it. */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

/** Sends `request`, prints its answer or the service's error; the exit code of either. */
async function send(io: Io, run: HandRun, credentials: OAuthCredentials, hints: ReturnType<typeof runHints>, request: HandRequest): Promise<number> {
  const answer = await sendByHand(run, credentials, hints, request);
  if ('failure' in answer) {
    if (answer.envelope !== undefined) io.err(`${JSON.stringify(answer.envelope, null, 2)}\n`);
    io.err(`Error: ${oneLine(answer.failure)}\n`);
    return 1;
  }
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2);
  const shown = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  if (answer.status >= 200 && answer.status < 300) {
    io.out(shown);
    return 0;
  }
  io.err(`${shown}Error: ${request.method} ${request.path}: ${answer.status}, not a success\n`);
  return 1;
}

/**
 * The credentials of the request and where they came from (none for the endpoint's own, or a
 * seeded user's): the endpoint's own or the stored ones, or the seeded user's of `--as`; the
 * one-line problem otherwise.
 */
async function credentialsOf(io: Io, open: OpenEndpoint, name: string, as: string | undefined, run: HandRun): Promise<{ credentials: OAuthCredentials; source?: string } | { problem: string }> {
  if (as === undefined) {
    if (open.builtInCredentials !== undefined) return { credentials: open.builtInCredentials };
    return userCredentialsFrom(io.env, name) ?? { problem: noCredentials(name) };
  }
  const consumer = open.builtInCredentials ?? consumerFrom(io.env, name);
  if (consumer === undefined) return { problem: "--as logs in with the application's keys: set ADSCTL_CONSUMER_KEY and ADSCTL_CONSUMER_SECRET (the emulator prints them)" };
  const user = await loginSeededUser(run, { consumerKey: consumer.consumerKey, consumerSecret: consumer.consumerSecret }, as);
  if (user === undefined) return { problem: `--as ${as}: the emulator has no user with that screen name (README, "The emulator", lists the seeded users)` };
  run.trace?.(`logged in as @${as} (user ${user.userId}) through the emulator's approval page`);
  return { credentials: user.credentials };
}

/** Adds `api` to the program. */
export function registerApi(program: Command, io: Io, setExit: SetExit): void {
  const method = new Argument('<method>', 'the HTTP method, in any case');
  method.argChoices = [...API_METHODS];
  program
    .command('api')
    .description('send one signed request with the endpoint and credentials adsctl would use, and print the JSON answer')
    .addArgument(method)
    .argument('<path>', 'below the advertising base URL, e.g. /12/accounts/18ce54d4x5t/campaigns (a query string is read as parameters)')
    .argument('[key=value...]', 'parameters: the query of GET and DELETE, the form body of POST and PUT (the query with --data)')
    .option('--data <json>', 'a JSON body for POST or PUT (batch endpoints, cards, audience users); @FILE reads it from a file, @- from stdin')
    .option('--as <screen_name>', "send as this seeded user of the emulator (adsctl_manager, ...), logged in for the request; local or an emulator's URL only")
    .option('--endpoint <name>', 'local, sandbox, production or http(s)://host:port (default: $ADSCTL_ENDPOINT, else the manifests\', else local)')
    .option('--manifests <path>', 'the manifests whose endpoint, and for local whose .adsctl/, to use', '.')
    .option('--lock-timeout <duration>', 'how long to wait for the embedded emulator (endpoint local) while another run uses it', parseDuration, 0)
    .addOption(new Option('--connect-timeout <duration>', 'how long to keep retrying an endpoint that refuses connections').argParser(parseDuration).default(10_000, '10s'))
    .option('--debug', 'print a request trace (credentials redacted)')
    .action(async (methodArg: string, path: string, pairs: string[], flags: ApiFlags) => {
      const checked = checkedArguments(methodArg, path, pairs, flags);
      if ('problem' in checked) {
        io.err(`Error: ${checked.problem}\n`);
        return setExit(1);
      }
      const target = apiTarget(flags.manifests, flags.endpoint, io.env);
      if ('problem' in target) {
        io.err(`Error: ${target.problem}\n`);
        return setExit(1);
      }
      const { name, source } = target.choice;
      if (checked.as !== undefined && (name === 'production' || name === 'sandbox')) {
        io.err(`Error: --as logs in as one of the emulator's seeded users: it needs endpoint local or an emulator's URL, not ${name}\n`);
        return setExit(1);
      }
      const open = await openEndpoint(name, target.dotDir, io.clock, flags.lockTimeout, flags.connectTimeout);
      if (typeof open === 'string') {
        io.err(`Error: ${source === 'manifest' || source === 'default' ? '' : `${endpointSetting(source)}: `}${open}\n`);
        return setExit(1);
      }
      try {
        const trace = flags.debug === true ? (line: string) => io.err(`[debug] ${line}\n`) : undefined;
        const timeout = requestTimeoutFromEnv(io.env);
        const run: HandRun = {
          endpoint: open.endpoint,
          options: { clock: io.clock, ...(typeof timeout === 'number' ? { requestTimeoutMs: timeout } : {}) },
          onWait: waitNotices(io),
          ...(trace === undefined ? {} : { trace }),
        };
        const found = await credentialsOf(io, open, name, checked.as, run).catch((error: unknown) => {
          const failure = runFailure(error);
          if (failure === undefined) throw error;
          return { problem: `--as ${checked.as ?? ''}: logging in failed: ${oneLine(failure.message)}` };
        });
        if ('problem' in found) {
          io.err(`Error: ${found.problem}\n`);
          return setExit(1);
        }
        setExit(await send(io, run, found.credentials, runHints(target.choice, found.source), checked.request));
      } finally {
        await open.close();
      }
    });
}
