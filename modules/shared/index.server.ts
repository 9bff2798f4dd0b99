// Server-only public face of the shared module.
export { appContext, createDb, memoize, type AppContext, type Db } from "./context.server";
export { parseJson, parseInput, parseForm, toErrorResponse, apiHandler, methodNotAllowed, pageAction } from "./api.server";
export * as tables from "./db/schema";
export { rateLimit } from "./rate-limit.server";
export { testAppContext } from "./test-context.server";
