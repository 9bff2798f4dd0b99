import { lazyComponent } from "../../shared/index";

/** The Save to Scroll dialog (save-to-scroll.tsx), loaded when an echo menu first opens it. */
export const SaveToScroll = lazyComponent(() => import("./save-to-scroll").then((m) => m.SaveToScroll));
