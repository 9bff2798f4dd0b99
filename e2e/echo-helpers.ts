// Helpers for the echo specs: echos seeded through the public /api, echo cards, likes, the echo
// menu and toasts by kind. Sign-up, splash, navigation and the rest: ./helpers.
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { toast, type User } from "./helpers";

export type Echo = {
  _id: string;
  content: string;
  author: User;
  tags: { _id: string; name: string }[];
  likes: number;
  isLiked: boolean;
  createdAt: string;
};

export async function postEcho(request: APIRequestContext, content: string, tags: string[] = []): Promise<Echo> {
  const res = await request.post("/api/echo/post", { data: { content, tags } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { echo: Echo }).echo;
}

/** A reply to the echo `parentId`, as its author posts it. */
export async function replyTo(request: APIRequestContext, parentId: string, content: string): Promise<Echo> {
  const res = await request.post(`/api/echo/${parentId}/reply`, { data: { content } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { echo: Echo }).echo;
}

export async function likeEcho(request: APIRequestContext, id: string): Promise<void> {
  const res = await request.post(`/api/echo/like/${id}`);
  expect(res.status(), await res.text()).toBe(200);
}

export function card(page: Page, id: string): Locator {
  return page.locator(`[data-testid="echo-card"][data-echo-id="${id}"]`);
}

/** The like toggle: the first pressed-state button of the card's actions (the repost toggle follows it). */
export function likeButton(echoCard: Locator): Locator {
  return echoCard.locator(".echo-actions button[aria-pressed]").first();
}

/** The like button's state: pressed, its accessible name and the count it shows. */
export async function expectLikeState(echoCard: Locator, liked: boolean, count: number): Promise<void> {
  const button = likeButton(echoCard);
  await expect(button).toHaveAttribute("aria-pressed", String(liked));
  await expect(button).toHaveAccessibleName(`${liked ? "Unlike" : "Like"}, ${count} like${count === 1 ? "" : "s"}`);
  await expect(button.locator(".like-count")).toHaveText(String(count));
}

export async function openMenu(echoCard: Locator): Promise<Locator> {
  await echoCard.getByRole("button", { name: "Echo menu" }).click();
  const menu = echoCard.getByRole("menu");
  await expect(menu).toBeVisible();
  return menu;
}

// react-hot-toast's default icon colours: the success check and the error cross.
const ICON_COLOUR = { success: "rgb(97, 211, 69)", error: "rgb(255, 75, 75)" } as const;

/** A visible toast with exactly this text, of this kind (told apart by its icon). */
export async function expectToast(page: Page, text: string, kind: "success" | "error"): Promise<void> {
  const message = toast(page, text).first();
  await expect(message).toBeVisible();
  const colours = await message.evaluate((el) =>
    Array.from(el.parentElement?.querySelectorAll("div") ?? [], (d) => getComputedStyle(d).backgroundColor),
  );
  expect(colours, `icon of toast "${text}"`).toContain(ICON_COLOUR[kind]);
}

/** Ids of the echo cards in the DOM right now, in document order. */
export function cardIds(page: Page): Promise<string[]> {
  return page.getByTestId("echo-card").evaluateAll((els) => els.map((el) => el.getAttribute("data-echo-id") ?? ""));
}
