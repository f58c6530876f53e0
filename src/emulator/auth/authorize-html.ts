/**
 * The HTML of the user authorization step: the approval form, the PIN page, the redirect page and
 * message pages. Elements carry ids (`oauth_form`, `oauth_pin`, `oauth_error`, `oauth_message`)
 * so that scripts and tests driving the flow over plain HTTP can read them.
 */
import type { RawResponse } from '../raw-response.js';

/** Escapes text for HTML element content and double-quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** An HTML response. */
export function htmlResponse(status: number, body: string, headers: Record<string, string> = {}): RawResponse {
  return { status, contentType: 'text/html; charset=utf-8', body, headers };
}

function page(title: string, content: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    `<body>`,
    content,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** What the approval form shows. */
interface FormPage {
  appName: string;
  oauthToken: string;
  screenName: string;
  /** Shown above the form (an unknown screen name, a missing choice). */
  error?: string;
}

/** The approval form: the application's name, a screen name field and Authorize / Cancel buttons. */
export function renderAuthorizeForm(f: FormPage): string {
  const error = f.error === undefined ? '' : `<p id="oauth_error">${escapeHtml(f.error)}</p>\n`;
  return page(
    `Authorize ${f.appName}`,
    [
      `<h1>Authorize <span id="oauth_app_name">${escapeHtml(f.appName)}</span> to use your account?</h1>`,
      error +
        '<p>This emulator has no passwords: approving as a user picks the seeded user with that screen name.</p>',
      '<form id="oauth_form" method="post" action="/oauth/authorize">',
      `<input type="hidden" name="oauth_token" value="${escapeHtml(f.oauthToken)}">`,
      `<label>Username <input type="text" name="screen_name" id="screen_name" value="${escapeHtml(f.screenName)}"></label>`,
      '<button type="submit" name="approve" value="1" id="allow">Authorize app</button>',
      '<button type="submit" name="deny" value="1" id="cancel">Cancel</button>',
      '</form>',
    ].join('\n'),
  );
}

/** The PIN page of the `oob` flow; the PIN is the verifier. */
export function renderPin(appName: string, pin: string): string {
  return page(
    'Authorized',
    [
      `<p id="oauth_message">You've granted access to ${escapeHtml(appName)}. Next, return to ${escapeHtml(appName)} and enter this PIN to complete the authorization process.</p>`,
      `<p><code id="oauth_pin">${escapeHtml(pin)}</code></p>`,
    ].join('\n'),
  );
}

/** A page with a single message (denied access, invalid token, application not set up for sign-in). */
export function renderMessage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p id="oauth_message">${escapeHtml(message)}</p>`);
}

/** A 302 to `location`, with a link for clients that do not follow redirects. */
export function redirectResponse(location: string, headers: Record<string, string>): RawResponse {
  const body = page('Redirecting', `<p id="oauth_message">Redirecting you back to the application: <a href="${escapeHtml(location)}">continue</a>.</p>`);
  return htmlResponse(302, body, { ...headers, location });
}
