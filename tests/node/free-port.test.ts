import net from "node:net";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script shared by the npm scripts, no type declarations
import { freePort } from "../../scripts/lib.mjs";

const listen = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(port, "127.0.0.1", () => resolve(srv));
  });
const close = (srv: net.Server) => new Promise((r) => srv.close(r));

describe("test servers take a free port", () => {
  it("freePort never hands out a port something listens on", async () => {
    // Hold the port the runner used to insist on, as another checkout's server would.
    const blocker = await listen(0);
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
      for (const port of ports) {
        expect(port).not.toBe(taken);
        await close(await listen(port)); // it really is free
      }
    } finally {
      await close(blocker);
    }
  });
});
