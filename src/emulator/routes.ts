/** Every advertising endpoint the emulator serves, gathered from the per-resource handler modules. */
import type { RouteDef } from './context.js';
import { routes as accounts } from './handlers/accounts.js';

export const ROUTES: readonly RouteDef[] = [...accounts];
