import type { ReactNode } from "react";

/** `heading`: the state is the whole page (not found), so its title is the page's h1. */
export function EmptyState({ title, detail, children, heading }: { title: string; detail?: string; children?: ReactNode; heading?: boolean }) {
  const Title = heading ? "h1" : "p";
  return (
    <div className="empty-state">
      <Title className="empty-title">{title}</Title>
      {detail && <p className="empty-detail">{detail}</p>}
      {children && <div className="empty-actions">{children}</div>}
    </div>
  );
}
