import { lazyComponent } from "../../shared/index";

/** <LiveEdits> (live-edits.tsx) loaded after the page's first render. */
export const LiveEdits = lazyComponent(() => import("./live-edits").then((m) => m.LiveEdits));
