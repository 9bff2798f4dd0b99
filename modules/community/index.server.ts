// Server-only public face of the community module.
export { runRanking, kvKeys, type RankingResult } from "./ranking.server";
export { trendingTags, searchTags, popularEchos, publicScrolls } from "./community.server";
