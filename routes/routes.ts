// React Router's route config, made from the one table of routes (modules/verticals/table.ts:
// every route under the vertical that owns it). The layouts and the catch-alls are this file's.
import { type RouteConfig, type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";
import { CATCH_ALLS, ROUTE_TABLE, VERTICALS, isVertical, type Place, type RouteRow } from "../modules/verticals/index";

const entry = (row: RouteRow): RouteConfigEntry =>
  row.path === "" ? index(row.file) : row.id ? route(row.path, row.file, { id: row.id }) : route(row.path, row.file);

/**
 * The config of some verticals' rows: the API under /api, the open routes, the guests-only and
 * the signed-in layouts, each with its catch-all (every vertical answers its own 404s). A layout
 * none of the rows sits in is left out.
 */
function config(rows: RouteRow[]): RouteConfigEntry[] {
  const at = (place: Place) => rows.filter((row) => row.place === place).map(entry);
  const guest = at("guest");
  return [
    ...prefix("api", [...at("api"), entry(CATCH_ALLS.api)]),
    ...at("open"),
    ...(guest.length ? [layout("pages/guest-layout.tsx", guest)] : []),
    layout("pages/app-layout.tsx", [...at("app"), entry(CATCH_ALLS.app)]),
  ];
}

/**
 * A vertical's build (VERTICAL=echos …, see scripts/build.mjs) keeps its own rows; without
 * VERTICAL (`npm run dev`) every route is served by one app.
 */
const vertical = process.env.VERTICAL;
if (vertical && !isVertical(vertical)) throw new Error(`VERTICAL=${vertical} is not one of modules/verticals' VERTICALS`);
const built = vertical ? [vertical].filter(isVertical) : VERTICALS;
const rows: RouteRow[] = built.flatMap((v) => [...ROUTE_TABLE[v]]);
export default config(rows) satisfies RouteConfig;
