import type { RouteDef } from '../context.js';

export const routes: RouteDef[] = [];
