/** The types of the undici modules src/api/undici-lean.ts imports by path: the package's own. */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/core/errors.js' {
  import type { errors } from 'undici';
  const undiciErrors: typeof errors;
  export default undiciErrors;
}

declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  const api: { request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> };
  export default api;
}
