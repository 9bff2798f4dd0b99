import { useCallback } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { api } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import type { EchoPage, TagOrder, Timeframe } from "../schema";
import { EchoFeed } from "./echo-feed";

const ORDER_LABELS: Record<TagOrder, string> = { newest: "Newest First", oldest: "Oldest First", likes: "Most Liked" };
const TIME_LABELS: Record<Timeframe, string> = {
  all: "All Time",
  "1hour": "Last Hour",
  "1day": "Last Day",
  "1week": "Last Week",
  "1month": "Last Month",
  "1year": "Last Year",
};

/** /tag/{name} (spec §2): order and time dropdowns; changing either re-fetches. */
export function TagPage({ tag, orderBy, timeframe, page, viewerId }: {
  tag: string;
  orderBy: TagOrder;
  timeframe: Timeframe;
  page: EchoPage;
  viewerId: string;
}) {
  const [, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const refetching = navigation.state === "loading" && navigation.location?.pathname === `/tag/${encodeURIComponent(tag)}`;

  function update(key: "orderBy" | "timeframe", value: string) {
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if ((key === "orderBy" && value === "newest") || (key === "timeframe" && value === "all")) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { preventScrollReset: true },
    );
  }

  const fetchPage = useCallback(
    (n: number, cursor: string | null) => {
      const q = new URLSearchParams({ page: String(n), limit: String(page.pagination.limit) });
      if (orderBy !== "newest") q.set("orderBy", orderBy);
      if (timeframe !== "all") q.set("timeframe", timeframe);
      if (cursor) q.set("cursor", cursor);
      return api<EchoPage>(`/echo/tag/${encodeURIComponent(tag)}?${q}`, { fallback: "Failed to fetch echos" });
    },
    [tag, orderBy, timeframe, page.pagination.limit],
  );

  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">
          #<bdi>{tag}</bdi>
        </h1>
        <div className="filters">
          <label>
            <span className="visually-hidden">Order</span>
            <select aria-label="Order" value={orderBy} onChange={(e) => update("orderBy", e.target.value)}>
              {Object.entries(ORDER_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="visually-hidden">Time</span>
            <select aria-label="Time" value={timeframe} onChange={(e) => update("timeframe", e.target.value)}>
              {Object.entries(TIME_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      <EchoFeed
        key={`${tag}|${orderBy}|${timeframe}`}
        restoreKey={`tag:${tag}|${orderBy}|${timeframe}`}
        live={orderBy === "newest" ? `tag=${encodeURIComponent(tag)}` : undefined}
        initial={page}
        fetchPage={fetchPage}
        viewerId={viewerId}
        loading={refetching}
        empty={<EmptyState title="No echos found" detail={`No one has posted with #${tag} yet.`} />}
      />
    </div>
  );
}
