import type { ReactNode } from "react";

export function EmptyState({ title, detail, children }: { title: string; detail?: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {detail && <p className="empty-detail">{detail}</p>}
      {children && <div className="empty-actions">{children}</div>}
    </div>
  );
}
