/**
 * Matches a method and path against the declared routes. A path that exists with another method
 * answers 405 `METHOD_NOT_ALLOWED`, an unknown path 404 `ROUTE_NOT_FOUND`, as the service does.
 */
import type { RouteDef } from './context.js';
import { methodNotAllowed, routeNotFound } from './errors.js';

interface Compiled {
  route: RouteDef;
  segments: string[];
}

interface Match {
  route: RouteDef;
  pathParams: Record<string, string>;
}

export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly RouteDef[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').filter((s) => s !== '') }));
    // literal segments win over parameters: /cards/all before /cards/:card_id
    this.compiled.sort((a, b) => literalScore(b.segments) - literalScore(a.segments));
  }

  /** The route for `method path`; throws the service's 404/405 errors otherwise. */
  match(method: string, path: string, sandbox: boolean): Match {
    const parts = path.split('/').filter((s) => s !== '');
    let pathExists = false;
    for (const c of this.compiled) {
      if (c.route.sandboxOnly === true && !sandbox) continue;
      const params = matchSegments(c.segments, parts);
      if (params === undefined) continue;
      pathExists = true;
      if (c.route.method === method) return { route: c.route, pathParams: params };
    }
    throw pathExists ? methodNotAllowed(method) : routeNotFound();
  }
}

function literalScore(segments: string[]): number {
  return segments.reduce((n, s, i) => n + (s.startsWith(':') ? 0 : 2 ** (16 - Math.min(i, 16))), 0);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(v);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = decoded;
    } else if (p !== v) return undefined;
  }
  return params;
}
