/// <reference types="@cloudflare/vitest-plugin/types" />
declare module "cloudflare:workers" {
  export const env: Env;
}
