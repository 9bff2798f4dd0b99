// Client-safe public face of the community module.
export { CommunityLimitSchema, PopularQuerySchema, PopularPageQuerySchema, PERIODS, POPULAR_SORTS, type Period, type PopularSort, type Tag } from "./schema";
export { CommunityScreen, BrowseScrolls, BrowseTags, BrowsePopular, tagTier, type CommunityData } from "./ui/community-screens";
