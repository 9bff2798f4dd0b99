/// <reference types="@cloudflare/vitest-plugin/types" />
