// Server-only public face of the community module.
export { runRanking, kvKeys, type RankingResult } from "./ranking.server";
export { trendingTags, popularEchos, publicScrolls } from "./community.server";
