// Server-only public face of the scroll module.
export {
  createScroll,
  getScroll,
  updateScroll,
  deleteScroll,
  listMyScrolls,
  addEcho,
  removeEcho,
  setFollow,
  scrollEchos,
  listUserScrolls,
  listPublicScrolls,
} from "./scroll.server";
export { feedPageQuery } from "./feed-rules.server";
export { scrollsAndSelection } from "./selection.server";
