/**
 * Credentials written into a URL (`http://user:secret@host`) must not reach a log, a message or a
 * plan. Like the OAuth header in request traces, the structure stays visible and the secret goes:
 * the password becomes `***`, and a user name given alone, which is often a token, is hidden too.
 */

/**
 * A URL's scheme and its userinfo, everything up to the authority's last `@`. A scheme starts only
 * where no scheme character precedes it, so a long run of letters is tried once, not at each of
 * its characters, and the time stays linear in the length of the text.
 */
const USERINFO = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#]*)@/g;

/** How redacted text is written. */
interface RedactOptions {
  /** Replace each hidden character by `*`, so columns after it still line up (source snippets). */
  keepLength?: boolean;
}

/** `text` with the credentials of every URL in it hidden: `http://user:***@host`, `https://***@host`. */
export function redactUserinfo(text: string, options: RedactOptions = {}): string {
  if (!text.includes('@')) return text;
  const hide = (secret: string): string => (options.keepLength === true ? '*'.repeat(secret.length) : '***');
  return text.replace(USERINFO, (match: string, scheme: string, userinfo: string) => {
    if (userinfo === '') return match;
    const colon = userinfo.indexOf(':');
    if (colon < 0) return `${scheme}${hide(userinfo)}@`;
    return `${scheme}${userinfo.slice(0, colon)}:${hide(userinfo.slice(colon + 1))}@`;
  });
}
