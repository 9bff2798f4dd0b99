import { lazyComponent } from "./lazy";

/** <LoadMore> loaded after the first render, for a list whose first page needs no button (a feed
 * that pages as it scrolls): home's first load stays within its budget (issue 6). */
export const LazyLoadMore = lazyComponent(() => import("./load-more").then((m) => m.LoadMore)) as typeof import("./load-more").LoadMore;
