/**
 * `adsctl auth login|bearer|revoke|whoami`: the token endpoints of Part A from the command line.
 * `login` runs the PIN flow and stores the credentials (mode 0600) or prints them as exports;
 * `bearer` obtains the application-only token; `revoke` invalidates the stored token;
 * `whoami` shows the user's accounts and permissions.
 */
import { Command } from 'commander';
import { chooseEndpoint, endpointSetting, type EndpointChoice } from '../api/endpoint-choice.js';
import type { OAuthCredentials } from '../api/signer.js';
import { whoami, type HandRun } from '../engine/by-hand.js';
import { runFailure } from '../engine/failure.js';
import { finishLogin, obtainBearer, revokeBearer, revokeToken, startLogin } from '../engine/oauth-steps.js';
import { consumerFrom, readProfile, userCredentialsFrom, writeProfile } from './credentials.js';
import { openEndpoint, type OpenEndpoint } from './endpoint.js';
import type { Io } from './io.js';

interface CommonFlags {
  endpoint?: string;
  debug?: boolean;
}

/**
 * Runs `body` against the endpoint `chooseEndpoint` gives (`--endpoint`, else ADSCTL_ENDPOINT,
 * else local); API errors become a message and exit 1.
 */
async function withEndpoint(io: Io, flags: CommonFlags, setExit: (code: number) => void, body: (open: OpenEndpoint, name: string, choice: EndpointChoice) => Promise<void>): Promise<void> {
  const choice = chooseEndpoint({ flag: flags.endpoint, environment: io.env['ADSCTL_ENDPOINT'] });
  const { name } = choice;
  const open = await openEndpoint(name, '.adsctl', io.clock);
  if (typeof open === 'string') {
    io.err(`Error: ${choice.source === 'environment' ? 'ADSCTL_ENDPOINT: ' : ''}${open}\n`);
    setExit(1);
    return;
  }
  try {
    await body(open, name, choice);
  } catch (error) {
    const failure = runFailure(error);
    if (failure === undefined) throw error;
    io.err(`Error: ${failure.message}\n`);
    setExit(1);
  } finally {
    await open.close();
  }
}

/** The application's keys (built in for `local`), or an error printed and exit 1. */
function consumerOrFail(io: Io, open: OpenEndpoint, name: string, setExit: (code: number) => void): { consumerKey: string; consumerSecret: string } | undefined {
  const consumer = open.builtInCredentials ?? consumerFrom(io.env, name);
  if (consumer === undefined) {
    io.err("Error: set ADSCTL_CONSUMER_KEY and ADSCTL_CONSUMER_SECRET (the application's API key and secret)\n");
    setExit(1);
  }
  return consumer;
}

/**
 * The user's credentials (environment, stored profile, or built in) with where they came from
 * (none for the built-in ones), or an error printed and exit 1.
 */
function userOrFail(io: Io, open: OpenEndpoint, name: string, setExit: (code: number) => void): { credentials: OAuthCredentials; source?: string } | undefined {
  const found = userCredentialsFrom(io.env, name) ?? (open.builtInCredentials === undefined ? undefined : { credentials: open.builtInCredentials });
  if (found === undefined) {
    io.err('Error: no credentials: run adsctl auth login or set the ADSCTL_* variables\n');
    setExit(1);
  }
  return found;
}

/** The run by hand at `open`: the run's clock (OAuth timestamps), and the request trace with `--debug`. */
const handRun = (io: Io, open: OpenEndpoint, flags: CommonFlags): HandRun => ({
  endpoint: open.endpoint,
  options: { clock: io.clock },
  ...(flags.debug === true ? { trace: (line: string) => io.err(`[debug] ${line}\n`) } : {}),
});

export function registerAuth(program: Command, io: Io, setExit: (code: number) => void): void {
  const auth = program.command('auth').description('obtain, inspect and revoke API credentials');
  const common = (cmd: Command): Command => cmd.option('--endpoint <name>', 'local, sandbox, production or http(s)://host:port (default: ADSCTL_ENDPOINT, else local)').option('--debug', 'print a request trace (credentials redacted)');

  common(auth.command('login'))
    .description('authorize adsctl for a user with the PIN flow and store the credentials')
    .option('--print', 'print the credentials as environment exports instead of storing them')
    .action(async (flags: CommonFlags & { print?: boolean }) =>
      withEndpoint(io, flags, setExit, async (open, name) => {
        const consumer = consumerOrFail(io, open, name, setExit);
        if (consumer === undefined) return;
        const run = handRun(io, open, flags);
        const rt = await startLogin(run, consumer);
        io.err(`Open this URL in a browser, approve adsctl, and enter the PIN it shows:\n  ${rt.authorizeUrl}\n`);
        const pin = await io.readLine('PIN: ');
        if (pin === undefined || !/^\d+$/.test(pin)) {
          io.err('Error: no PIN entered\n');
          setExit(1);
          return;
        }
        const at = await finishLogin(run, consumer, rt, pin);
        if (flags.print === true) {
          io.out(`export ADSCTL_CONSUMER_KEY='${consumer.consumerKey}'\nexport ADSCTL_CONSUMER_SECRET='${consumer.consumerSecret}'\nexport ADSCTL_ACCESS_TOKEN='${at.token}'\nexport ADSCTL_ACCESS_TOKEN_SECRET='${at.secret}'\n`);
        } else {
          const path = writeProfile(io.env, name, {
            ...readProfile(io.env, name),
            consumer_key: consumer.consumerKey,
            consumer_secret: consumer.consumerSecret,
            access_token: at.token,
            access_token_secret: at.secret,
            user_id: at.userId,
            screen_name: at.screenName,
          });
          io.err(`Logged in as @${at.screenName} (user ${at.userId}); credentials stored in ${path}\n`);
        }
      }),
    );

  common(auth.command('bearer'))
    .description('obtain the application-only bearer token and store it')
    .option('--print', 'print it as an environment export instead of storing it')
    .action(async (flags: CommonFlags & { print?: boolean }) =>
      withEndpoint(io, flags, setExit, async (open, name) => {
        const consumer = consumerOrFail(io, open, name, setExit);
        if (consumer === undefined) return;
        const token = await obtainBearer(handRun(io, open, flags), consumer);
        if (flags.print === true) io.out(`export ADSCTL_BEARER_TOKEN='${token}'\n`);
        else {
          const path = writeProfile(io.env, name, { ...(readProfile(io.env, name) ?? { consumer_key: consumer.consumerKey, consumer_secret: consumer.consumerSecret }), bearer_token: token });
          io.err(`Bearer token stored in ${path}\n`);
        }
      }),
    );

  common(auth.command('revoke'))
    .description('revoke the stored access token (or, with --bearer, the bearer token)')
    .option('--bearer', 'revoke the application-only bearer token instead')
    .action(async (flags: CommonFlags & { bearer?: boolean }) =>
      withEndpoint(io, flags, setExit, async (open, name) => {
        const creds = userOrFail(io, open, name, setExit)?.credentials;
        if (creds === undefined) return;
        const run = handRun(io, open, flags);
        const profile = readProfile(io.env, name);
        if (flags.bearer === true) {
          const bearer = io.env['ADSCTL_BEARER_TOKEN'] ?? profile?.bearer_token;
          if (bearer === undefined) {
            io.err('Error: no bearer token stored: run adsctl auth bearer first\n');
            setExit(1);
            return;
          }
          await revokeBearer(run, creds, bearer);
          if (profile !== undefined) {
            const { bearer_token: _revoked, ...rest } = profile;
            writeProfile(io.env, name, rest);
          }
          io.err('Bearer token revoked\n');
          return;
        }
        await revokeToken(run, creds);
        if (profile?.access_token === creds.token && profile !== undefined) {
          const { access_token: _t, access_token_secret: _s, ...rest } = profile;
          writeProfile(io.env, name, rest);
        }
        io.err('Access token revoked\n');
      }),
    );

  common(auth.command('whoami'))
    .description('show the authenticated user, its accounts and permissions')
    .action(async (flags: CommonFlags) =>
      withEndpoint(io, flags, setExit, async (open, name, choice) => {
        const found = userOrFail(io, open, name, setExit);
        if (found === undefined) return;
        const hints = { endpoint: `check ${endpointSetting(choice.source)}`, ...(found.source === undefined ? {} : { unauthorized: `the credentials came from ${found.source}` }) };
        const user = await whoami(handRun(io, open, flags), found.credentials, hints);
        io.out(`user ${user.userId ?? '(no accounts)'} at ${open.endpoint.name}\n`);
        for (const a of user.accounts) io.out(`  ${a.id}  ${a.name}  ${a.permissions.join(', ')}\n`);
      }),
    );
}
