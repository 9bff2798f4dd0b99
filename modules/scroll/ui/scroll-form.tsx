import { useState, type FormEvent } from "react";
import { useFetcher, useNavigate } from "react-router";
import { TagInput } from "../../echo/index";
import { charCount, clampChars, toast, UNITS_PER_CHAR, useFetcherAnswer } from "../../shared/index";
import {
  FEED_TAG_SUGGESTIONS,
  MAX_DESCRIPTION,
  MAX_NAME,
  MAX_RULE_AUTHORS,
  MAX_RULE_TAGS,
  type MatchType,
  type Scroll,
  type ScrollType,
  type SortBy,
  type TimeRange,
  type UserRef,
} from "../schema";
import { AuthorPicker } from "./author-picker";
import { FeedPreviewPanel } from "./feed-preview";
import { SegmentedRadios } from "./segmented-radios";
import type { CreatedState } from "./scrolls-lists";

const SORT_LABELS: Record<SortBy, string> = { newestFirst: "Newest First", oldestFirst: "Oldest First", mostLiked: "Most Liked" };
const RANGE_LABELS: Record<TimeRange, string> = { "1day": "Last Day", "1month": "Last Month", "1year": "Last Year", allTime: "All Time" };

const TYPE_OPTIONS = [["feed", "Feed"], ["curation", "Curation"]] as const;
const MATCH_OPTIONS = [["any", "Any tag"], ["all", "All tags"]] as const;

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "");

/** /scroll/new and /scroll/{id}/edit (spec §2, §5): the same form; the type is fixed when editing. */
export function ScrollForm({ initialType = "feed", scroll }: { initialType?: ScrollType; scroll?: Scroll }) {
  const navigate = useNavigate();
  const config = scroll?.feedConfig;
  const [type, setType] = useState<ScrollType>(scroll?.type ?? initialType);
  const [name, setName] = useState(scroll?.name ?? "");
  const [description, setDescription] = useState(scroll?.description ?? "");
  const [isPrivate, setIsPrivate] = useState(scroll?.isPrivate ?? false);
  const [included, setIncluded] = useState<string[]>(() => (config?.includedTags ?? []).map((t) => t.name));
  const [excluded, setExcluded] = useState<string[]>(() => (config?.excludedTags ?? []).map((t) => t.name));
  const [matchType, setMatchType] = useState<MatchType>(config?.tagMatchType ?? "any");
  const [authors, setAuthors] = useState<UserRef[]>(config?.authors ?? []);
  const [sortBy, setSortBy] = useState<SortBy>(config?.sortBy ?? "newestFirst");
  const [timeRange, setTimeRange] = useState<TimeRange>(config?.sortTimeRange ?? "allTime");
  const [hideLiked, setHideLiked] = useState(config?.excludeLikedEchos ?? false);
  const [replies, setReplies] = useState(config?.replies ?? false);
  const [useDates, setUseDates] = useState(Boolean(config?.dateRange));
  const [from, setFrom] = useState(day(config?.dateRange?.startDate));
  const [to, setTo] = useState(day(config?.dateRange?.endDate));
  // the page's action (routes/pages/scroll-new.tsx, scroll-edit.tsx) answers the scroll's id or an error
  const fetcher = useFetcher<{ done?: string; error?: string }>();
  const saving = fetcher.state !== "idle";
  const [error, setError] = useState<string | null>(null);
  useFetcherAnswer(
    fetcher,
    ({ done }) => {
      setError(null);
      if (scroll) {
        toast.success("Scroll updated");
        navigate(`/scroll/${scroll._id}`);
      } else {
        toast.success("Scroll created successfully");
        // to /scrolls as the spec has it, which then shows the new scroll (issue 29)
        const state: CreatedState = { createdScroll: done! };
        navigate("/scrolls", { state });
      }
    },
    (message) => {
      setError(message);
      toast.error(message);
    },
  );

  const rule = {
    tagMatchType: included.length === 0 ? "any" : matchType,
    includedTags: included,
    excludedTags: excluded,
    authors: authors.map((a) => a._id),
    sortBy,
    sortTimeRange: sortBy === "mostLiked" ? timeRange : "allTime",
    excludeLikedEchos: hideLiked,
    replies,
    dateRange: useDates ? { startDate: from || null, endDate: to || null } : null,
  };

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim() || saving) return;
    const feedConfig = type === "feed" ? rule : undefined;
    // JSON: a rule is nested (tags, authors, a date range); the same body the API takes
    // (the type only on create: an edit keeps it)
    const body = { name, description, ...(scroll ? {} : { type }), isPrivate, ...(feedConfig ? { feedConfig } : {}) };
    void fetcher.submit(body, { method: "post", action: scroll ? `/scroll/${scroll._id}/edit` : "/scroll/new", encType: "application/json" });
  }

  return (
    <form className="card scroll-form" onSubmit={onSubmit}>
      {!scroll && (
        <SegmentedRadios label="Scroll type" value={type} options={TYPE_OPTIONS} onChange={setType} />
      )}
      <p className="muted form-intro">
        {type === "feed"
          ? "A feed shows every echo that matches its rules, always up to date."
          : "A curation holds echos you hand-pick with Save to Scroll."}
      </p>
      {/* The counters describe the fields; inside the label they would become part of the name. */}
      <div className="field">
        <label htmlFor="scroll-name">
          <span>Name</span>
        </label>
        <input id="scroll-name" name="name" value={name} maxLength={MAX_NAME * UNITS_PER_CHAR} onChange={(e) => setName(clampChars(e.target.value, MAX_NAME))} required aria-describedby="scroll-name-count" />
        <span className="field-hint" id="scroll-name-count">
          {charCount(name)}/{MAX_NAME}
        </span>
      </div>
      <div className="field">
        <label htmlFor="scroll-description">
          <span>Description (optional)</span>
        </label>
        <textarea
          id="scroll-description"
          name="description"
          value={description}
          maxLength={MAX_DESCRIPTION * UNITS_PER_CHAR}
          rows={2}
          onChange={(e) => setDescription(clampChars(e.target.value, MAX_DESCRIPTION))}
          aria-describedby="scroll-description-count"
        />
        <span className="field-hint" id="scroll-description-count">
          {charCount(description)}/{MAX_DESCRIPTION}
        </span>
      </div>
      <label className="switch-row field">
        <span>Private (only you can see it)</span>
        <input type="checkbox" role="switch" aria-label="Private" checked={isPrivate} onChange={(e) => setIsPrivate(e.target.checked)} />
      </label>

      {type === "feed" && (
        <fieldset className="feed-settings">
          <legend>Feed rules</legend>
          <TagInput
            id="include-tags"
            label={`Include tags (${included.length}/${MAX_RULE_TAGS})`}
            tags={included}
            onChange={setIncluded}
            max={MAX_RULE_TAGS}
            suggestions={FEED_TAG_SUGGESTIONS}
            suggestionCount={6}
            showSuggestions={included.length === 0}
            placeholder="Add with Enter, space or comma"
          />
          {included.length > 1 && (
            <div className="field">
              <span>Match</span>
              <SegmentedRadios label="Match type" value={matchType} options={MATCH_OPTIONS} onChange={setMatchType} />
            </div>
          )}
          <TagInput
            id="exclude-tags"
            label={`Exclude tags (${excluded.length}/${MAX_RULE_TAGS})`}
            tags={excluded}
            onChange={setExcluded}
            max={MAX_RULE_TAGS}
            showSuggestions={false}
            placeholder="Hide echos with these tags"
          />
          <AuthorPicker authors={authors} onChange={setAuthors} max={MAX_RULE_AUTHORS} />
          <div className="field-row">
            <label className="field">
              <span>Sort by</span>
              <select aria-label="Sort by" value={sortBy} onChange={(e) => setSortBy(e.target.value as SortBy)}>
                {Object.entries(SORT_LABELS).map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            </label>
            {sortBy === "mostLiked" && (
              <label className="field">
                <span>Time range</span>
                <select aria-label="Time range" value={timeRange} onChange={(e) => setTimeRange(e.target.value as TimeRange)}>
                  {Object.entries(RANGE_LABELS).map(([v, l]) => (
                    <option key={v} value={v}>
                      {l}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          <label className="check-row">
            <input type="checkbox" checked={hideLiked} onChange={(e) => setHideLiked(e.target.checked)} /> Hide echos I liked
          </label>
          {/* off by default: a feed is a stream of posts unless its rule takes replies in (decision 024) */}
          <label className="check-row">
            <input type="checkbox" checked={replies} onChange={(e) => setReplies(e.target.checked)} /> Include replies
          </label>
          <label className="check-row">
            <input type="checkbox" checked={useDates} onChange={(e) => setUseDates(e.target.checked)} /> Only echos from a date range
          </label>
          {useDates && (
            <div className="field-row">
              <label className="field">
                <span>From (optional)</span>
                <input type="date" aria-label="From" value={from} onChange={(e) => setFrom(e.target.value)} />
              </label>
              <label className="field">
                <span>To (optional)</span>
                <input type="date" aria-label="To" value={to} onChange={(e) => setTo(e.target.value)} />
              </label>
            </div>
          )}
          <p className="field-hint">
            Up to {MAX_RULE_TAGS} included tags, {MAX_RULE_TAGS} excluded tags and {MAX_RULE_AUTHORS} authors.
          </p>
        </fieldset>
      )}
      {type === "feed" && <FeedPreviewPanel feedConfig={rule} />}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || saving}>
          {saving ? (scroll ? "Saving..." : "Creating...") : scroll ? "Save Changes" : "Create Scroll"}
        </button>
      </div>
    </form>
  );
}
