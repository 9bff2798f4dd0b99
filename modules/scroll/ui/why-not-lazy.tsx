import type { EchoExtensions } from "../../echo/index";
import { WhyDialog } from "./why-dialog-lazy";

/** The creator's reverse of "Why am I seeing this?", on an echo's page only (so not in the feeds'
 * first load, why-dialog-lazy.tsx): one of the viewer's own feeds, to choose. */
export const whyNotInMyFeed = (viewerId: string): NonNullable<EchoExtensions["explain"]> => ({
  label: "Why isn't it in my feed?",
  dialog: (echo, close) => <WhyDialog echo={echo} viewerId={viewerId} onClose={close} />,
});
