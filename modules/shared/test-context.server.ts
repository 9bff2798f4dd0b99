// Builds the AppContext a request would get, for module-service tests inside workerd.
import type { AppContext } from "./context.server";
import { createDb } from "./context.server";

export function testAppContext(env: Env, overrides: Partial<AppContext> = {}): AppContext {
  const pending: Promise<unknown>[] = [];
  return {
    env,
    ctx: {
      waitUntil: (p: Promise<unknown>) => void pending.push(p),
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext,
    db: createDb(env.DB),
    nonce: "test",
    secure: false,
    ip: "203.0.113.7",
    memo: new Map(),
    ...overrides,
  };
}
