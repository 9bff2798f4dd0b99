import type { EchoExtensions } from "../../echo/index";
import { lazyComponent } from "../../shared/index";
import type { Scroll } from "../schema";

/** The why dialog (why-dialog.tsx), loaded when an echo menu first opens it. */
export const WhyDialog = lazyComponent(() => import("./why-dialog").then((m) => m.WhyDialog));

/** "Why am I seeing this?" on the echos of a feed (its page, and home with the feed selected). */
export const whyInFeed = (feed: Pick<Scroll, "_id" | "name">): NonNullable<EchoExtensions["explain"]> => ({
  label: "Why am I seeing this?",
  dialog: (echo, close) => <WhyDialog echo={echo} feed={feed} onClose={close} />,
});
