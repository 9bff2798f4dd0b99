import { useNavigate } from "react-router";
import { EmptyState } from "../../shell/index";
import type { Echo } from "../schema";
import { EchoCard } from "./echo-card";
import { EchoHistory } from "./echo-history";
import { useEchoStore } from "./echo-store";

/** /echo/{id} (spec §2): back button, the echo in full, or the not-found state. */
export function EchoDetail({ echo, viewerId }: { echo: Echo | null; viewerId: string }) {
  const navigate = useNavigate();
  const store = useEchoStore();
  // Back within the app only: React Router's history index is 0 on the tab's first screen (a
  // shared link opened directly), where going back would leave the app for a blank tab or another site.
  const goBack = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate("/"));
  if (!echo || store.isDeleted(echo._id)) {
    return (
      <div className="page">
        <EmptyState heading title="Echo not found" detail="This echo may have been deleted or doesn't exist.">
          <button type="button" className="btn btn-primary" onClick={goBack}>
            Go back
          </button>
        </EmptyState>
      </div>
    );
  }
  // an edit made on this page shows its history at once (echo-store.ts)
  const editedAt = (store.editOf(echo._id) ?? echo).editedAt;
  return (
    <div className="page">
      <button type="button" className="btn back-btn" onClick={goBack}>
        ← Back
      </button>
      <h1 className="visually-hidden">Echo by {echo.author.userName}</h1>
      <EchoCard echo={echo} viewerId={viewerId} detail onDeleted={() => navigate("/")} />
      {/* here, not in the card: the echo page's code, not home's (decision 025) */}
      {editedAt && <EchoHistory echoId={echo._id} editedAt={editedAt} />}
    </div>
  );
}
