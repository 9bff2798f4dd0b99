// Client-safe public face of the live module: the query schema and its messages.
export { LiveQuerySchema, LIVE_CHOICE_MESSAGE, LIVE_UPGRADE_MESSAGE, type LiveQuery } from "./schema";
