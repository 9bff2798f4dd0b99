// A Chromium tab driven the way Chrome's own DevTools drives one, for what Playwright cannot show:
// Speculation Rules *prerendering* (docs/decisions/011). Playwright (and any CDP client that attaches
// to the page target directly, as `newCDPSession` does) makes Chromium refuse every prerender with
// `PrerenderingDisabledByDevTools`: it prerenders only while each DevTools session on the page came
// through the page's *tab* target. So this launches Debian's Chromium (new headless) itself, attaches
// to its tab target and reaches the page, and a prerendered page after its activation, as children of
// that tab. Just enough for e2e/verticals.spec.ts and scripts/bench-nav.mjs: navigate, evaluate,
// move and click the mouse, and the `Preload` domain's prerender statuses.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

type TargetInfo = { targetId: string; type: string; subtype?: string; url: string };
type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string }; sessionId?: string };
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; sessionId?: string };

/** One `Preload.prerenderStatusUpdated`: Pending, Running, Ready, Success (activated) or Failure with its reason. */
export type PrerenderStatus = { url: string; status: string; prerenderStatus?: string; disallowedMojoInterface?: string };

export type TabOptions = { executablePath?: string; width?: number; height?: number };

export class TabBrowser {
  /** every prerender status the current and earlier pages reported, oldest first */
  readonly prerenders: PrerenderStatus[] = [];
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** page targets attached under the tab: sessionId → target (a prerendering one has subtype "prerender") */
  private readonly pages = new Map<string, TargetInfo>();

  private readonly child: ChildProcess;
  private readonly socket: WebSocket;
  private readonly profile: string;

  private constructor(child: ChildProcess, socket: WebSocket, profile: string) {
    this.child = child;
    this.socket = socket;
    this.profile = profile;
    socket.addEventListener("message", (event) => this.receive(JSON.parse(String(event.data)) as Message));
  }

  static async launch({ executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", width = 1280, height = 800 }: TabOptions = {}): Promise<TabBrowser> {
    const profile = mkdtempSync(path.join(os.tmpdir(), "echo-tab-"));
    const args = [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      `--window-size=${width},${height}`,
      // a desktop with a mouse (headless has no pointing device: `(hover: hover)` would not match)
      "--blink-settings=primaryPointerType=4,availablePointerTypes=4,primaryHoverType=2,availableHoverTypes=2",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "about:blank",
    ];
    // its own process group: close() ends Chromium with all its helper processes
    const child = spawn(executablePath, args, { stdio: ["ignore", "ignore", "pipe"], detached: true });
    const endpoint = await new Promise<string>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${output}`)), 30_000);
      child.stderr!.on("data", (chunk) => {
        output += chunk;
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      child.once("exit", (code) => reject(new Error(`Chromium exited (${code}):\n${output}`)));
    });
    const socket = new WebSocket(endpoint);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", () => reject(new Error("no DevTools connection")), { once: true });
    });
    const browser = new TabBrowser(child, socket, profile);
    await browser.attach(width, height);
    return browser;
  }

  private async attach(width: number, height: number): Promise<void> {
    await this.send("Target.setDiscoverTargets", { discover: true });
    const { targetInfos } = (await this.send("Target.getTargets", { filter: [{ type: "tab" }] })) as { targetInfos: TargetInfo[] };
    const { sessionId: tab } = (await this.send("Target.attachToTarget", { targetId: targetInfos[0]!.targetId, flatten: true })) as { sessionId: string };
    // the page, and later each prerendering page, is attached as a child of the tab
    await this.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, tab);
    const page = await this.current();
    // --window-size is the window's; make the viewport itself width × height
    const { windowId } = (await this.send("Browser.getWindowForTarget", { targetId: this.pages.get(page)!.targetId })) as { windowId: number };
    const inner = await this.evaluate(() => ({ w: innerWidth, h: innerHeight }));
    if (inner.w !== width || inner.h !== height) {
      await this.send("Browser.setWindowBounds", { windowId, bounds: { width: 2 * width - inner.w, height: 2 * height - inner.h } });
    }
  }

  private receive(message: Message): void {
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
      return;
    }
    const params = message.params ?? {};
    switch (message.method) {
      case "Target.attachedToTarget": {
        const info = params.targetInfo as TargetInfo;
        if (info.type !== "page") break;
        const sessionId = params.sessionId as string;
        this.pages.set(sessionId, info);
        void this.send("Preload.enable", {}, sessionId).catch(() => undefined);
        break;
      }
      case "Target.detachedFromTarget": {
        const sessionId = params.sessionId as string;
        this.pages.delete(sessionId);
        // a command in flight on a page that went away (the page a prerender replaced) gets no answer
        for (const [id, waiting] of this.pending) {
          if (waiting.sessionId !== sessionId) continue;
          this.pending.delete(id);
          waiting.reject(new Error("page detached"));
        }
        break;
      }
      case "Target.targetInfoChanged": {
        const info = params.targetInfo as TargetInfo;
        for (const [sessionId, known] of this.pages) if (known.targetId === info.targetId) this.pages.set(sessionId, info);
        break;
      }
      case "Preload.prerenderStatusUpdated": {
        const { key, status, prerenderStatus, disallowedMojoInterface } = params as { key: { url: string } } & Omit<PrerenderStatus, "url">;
        this.prerenders.push({ url: key.url, status, prerenderStatus, disallowedMojoInterface });
        break;
      }
    }
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, sessionId });
      this.socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  }

  /** The session of the page the tab shows (not a prerendering one); waits while a swap is under way. */
  async current(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const shown = [...this.pages].find(([, info]) => info.subtype !== "prerender");
      if (shown) return shown[0];
      if (Date.now() > deadline) throw new Error("no page in the tab");
      await sleep(20);
    }
  }

  /** Runs `fn(arg)` in the shown page (awaiting a promise it returns); its value comes back as JSON. */
  async evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    const expression = `(${fn.toString()})(${arg === undefined ? "" : JSON.stringify(arg)})`;
    const result = (await this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, await this.current())) as {
      result: { value: R };
      exceptionDetails?: { exception?: { description?: string }; text: string };
    };
    if (result.exceptionDetails) throw new Error(result.exceptionDetails.exception?.description ?? result.exceptionDetails.text);
    return result.result.value;
  }

  /** Polls `fn(arg)` in whichever page is shown until it returns something truthy (a navigation in between is fine). */
  async waitFor<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A, timeoutMs = 15_000): Promise<R> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const value = await this.evaluate(fn, arg);
        if (value) return value;
      } catch (error) {
        last = error; // the document changed under it; ask the next one
      }
      if (Date.now() > deadline) throw new Error(`waitFor timed out: ${fn.toString().slice(0, 200)}${last ? ` (${String(last)})` : ""}`);
      await sleep(25);
    }
  }

  /** Loads a URL in the tab and waits for its load event. */
  async goto(url: string): Promise<void> {
    const session = await this.current();
    const { errorText } = (await this.send("Page.navigate", { url }, session)) as { errorText?: string };
    if (errorText) throw new Error(`${url}: ${errorText}`);
    await this.waitFor((href) => location.href === href && document.readyState === "complete", new URL(url).href);
  }

  /** The centre of the first element matching `selector`, scrolled into view. */
  async point(selector: string): Promise<{ x: number; y: number }> {
    const centre = await this.waitFor((css) => {
      const element = document.querySelector(css);
      if (!element) return null;
      element.scrollIntoView({ block: "nearest" });
      const box = element.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }, selector);
    return centre!;
  }

  /** Rests the mouse pointer on an element (real input: what "moderate" eagerness listens to). */
  async hover(selector: string): Promise<void> {
    const { x, y } = await this.point(selector);
    await this.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y }, await this.current());
  }

  /** Presses and releases the left button on an element. */
  async click(selector: string): Promise<void> {
    const { x, y } = await this.point(selector);
    const session = await this.current();
    await this.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y }, session);
    await this.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", buttons: 1, clickCount: 1 }, session);
    await this.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", buttons: 0, clickCount: 1 }, session);
  }

  /** Waits for a prerender status of a URL (path or absolute), e.g. Ready; returns it. */
  async waitForPrerender(url: string, status: string, timeoutMs = 15_000): Promise<PrerenderStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.prerenders.find((p) => new URL(p.url).pathname === new URL(url, p.url).pathname && p.status === status);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${status} prerender of ${url}: ${JSON.stringify(this.prerenders)}`);
      await sleep(25);
    }
  }

  async close(): Promise<void> {
    this.socket.close();
    const exited = new Promise((resolve) => (this.child.exitCode !== null ? resolve(null) : this.child.once("exit", resolve)));
    try {
      process.kill(-this.child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
    try {
      // a helper process may still be writing to the profile for a moment
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (error) {
      console.warn(`left ${this.profile}: ${String(error)}`);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
